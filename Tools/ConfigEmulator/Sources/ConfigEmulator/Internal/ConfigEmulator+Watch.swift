@_spi(Internal) internal import ConfigModel
internal import Foundation

extension ConfigEmulator {
    /// Reloads the configs file whenever its bytes change, pushing what changed to open streams.
    /// A file that does not decode is reported and ignored until it changes again.
    func watchLoop(file: URL) {
        var last = try? Data(contentsOf: file)
        while !stopSignal.wait(seconds: configuration.watchInterval) {
            guard let data = try? Data(contentsOf: file), data != last else { continue }
            last = data
            do {
                replaceConfigs(try ConfigsDocument.decode(data))
                log(.info, "Reloaded \(file.path)")
            } catch {
                log(.error, "Not reloading \(file.path): \(error)")
            }
        }
    }
}
