import ConfigEmulator
@_spi(Internal) import ConfigModel
import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let options: CommandLineOptions
do {
    options = try CommandLineOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("config-emulator: \(error.message)\nTry --help.\n".utf8))
    exit(64)
}
if options.showHelp {
    print(CommandLineOptions.help)
    exit(0)
}

var document = ConfigsDocument(configs: [])
var watchedFile: URL?
if let path = options.configsPath {
    let url = URL(fileURLWithPath: path)
    do {
        document = try ConfigsDocument.load(from: url)
    } catch {
        FileHandle.standardError.write(Data("config-emulator: \(error)\n".utf8))
        exit(65)
    }
    watchedFile = options.watch ? url : nil
}

var configuration = EmulatorConfiguration(
    host: options.host,
    port: options.port,
    sdkKey: options.sdkKey,
    document: document,
    watchedFile: watchedFile,
    heartbeatInterval: options.heartbeat,
    logger: StandardOutputLogger(level: options.logLevel)
)
configuration.maxRequestBodyBytes = options.maxBodyBytes
configuration.adminToken = options.adminToken
let emulator = ConfigEmulator(configuration: configuration)

signal(SIGPIPE, SIG_IGN)
let port: Int
do {
    port = try emulator.start()
} catch {
    FileHandle.standardError.write(Data("config-emulator: \(error)\n".utf8))
    exit(69)
}
let adminHeader = "X-Emulator-Admin: \(emulator.adminToken ?? "1")"
let tokenLine = emulator.adminToken.map { "  admin token: \($0) (the dashboard asks for it once)\n" } ?? ""
let banner = """
    config-emulator serving \(document.configs.count) configs on http://\(options.host):\(port)
      dashboard: \(emulator.dashboardURL.absoluteString)
      streaming: curl -N http://\(options.host):\(port)/client/sse/v1 \\
        -d '{"clientSdkKey": "\(options.sdkKey)", "givenContext": {"id": "user-1"}}'
      admin:     curl -H '\(adminHeader)' http://\(options.host):\(port)/admin/configs
    \(tokenLine)

    """
FileHandle.standardOutput.write(Data(banner.utf8))

var signalSources: [any DispatchSourceSignal] = []
for signalNumber in [SIGINT, SIGTERM] {
    signal(signalNumber, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
    source.setEventHandler {
        emulator.stop()
        exit(0)
    }
    source.resume()
    signalSources.append(source)
}
dispatchMain()
