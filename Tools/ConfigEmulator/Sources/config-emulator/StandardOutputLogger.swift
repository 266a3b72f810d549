@_spi(Internal) import ConfigModel
import Foundation

/// Writes the emulator's messages to standard output, one timestamped line each.
struct StandardOutputLogger: ConfigDirectorLogger {
    let level: ConfigDirectorLogLevel

    func log(_ level: ConfigDirectorLogLevel, message: String, error: (any Error)?) {
        let time = Date().formatted(.iso8601.time(includingFractionalSeconds: true))
        let text = error.map { "\(message) (\($0))" } ?? message
        FileHandle.standardOutput.write(Data("\(time) [\(level)] \(text)\n".utf8))
    }
}
