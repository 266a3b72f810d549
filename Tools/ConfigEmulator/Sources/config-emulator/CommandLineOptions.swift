@_spi(Internal) import ConfigModel
import Foundation

/// The options of `config-emulator`, parsed from its arguments.
struct CommandLineOptions {
    var host = "127.0.0.1"
    var port = 8787
    var configsPath: String?
    var sdkKey = "emulator-sdk-key"
    var adminToken: String?
    var watch = false
    var heartbeat: TimeInterval = 15
    var maxBodyBytes = 1024 * 1024
    var logLevel = ConfigDirectorLogLevel.info
    var showHelp = false

    static let help = """
        config-emulator: a local ConfigDirector server that speaks the client protocol on loopback.

        USAGE: config-emulator [options]

        OPTIONS:
          --configs PATH      A configs file to serve (format: Tools/ConfigEmulator/README.md).
                              Without it the emulator starts with no configs.
          --watch             Reload the configs file whenever it changes and push what changed to
                              connected streams (a full set when keys were removed). Needs --configs.
          --port N            The port to listen on (default 8787); 0 picks a free port, which is printed.
          --host ADDRESS      The IPv4 address to listen on (default 127.0.0.1; localhost means the same).
                              Any other address exposes the emulator beyond this machine, and then
                              the admin API and the dashboard need an admin token (--admin-token).
          --sdk-key KEY       The client SDK key accepted in request bodies (default emulator-sdk-key);
                              any other key gets 401.
          --admin-token TOKEN The value of the header X-Emulator-Admin that every admin request must
                              carry (default: 1 on loopback; beyond loopback a generated token, printed).
          --heartbeat SECONDS How long a stream stays silent before a heartbeat comment (default 15).
          --max-body BYTES    The largest request body accepted (default 1048576); larger gets 413.
          --log-level LEVEL   off, error, warn, info (default) or debug.
          -h, --help          Show this help.

        ENDPOINTS:
          POST /client/sse/v1, /client/polling/v1, /client/telemetry/v1   the client protocol
          GET /                                                            the dashboard (a web page)
          /admin/...                                                       control and faults (README.md),
                                                                           with the header X-Emulator-Admin
        """

    /// Parses the arguments, without the program's name.
    /// - Throws: A message naming the bad argument.
    init(arguments: [String]) throws(OptionError) {
        var remaining = arguments[...]
        func value(for option: String) throws(OptionError) -> String {
            guard let value = remaining.popFirst() else { throw OptionError("\(option) needs a value") }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help": showHelp = true
            case "--watch": watch = true
            case "--host": host = try value(for: argument)
            case "--configs": configsPath = try value(for: argument)
            case "--sdk-key": sdkKey = try value(for: argument)
            case "--admin-token":
                let token = try value(for: argument)
                guard !token.isEmpty, token.allSatisfy({ $0.isASCII && !$0.isWhitespace && !$0.isNewline }) else {
                    throw OptionError("--admin-token needs a token of printable ASCII without spaces")
                }
                adminToken = token
            case "--port":
                guard let port = Int(try value(for: argument)), (0...65535).contains(port) else {
                    throw OptionError("--port needs a number from 0 to 65535")
                }
                self.port = port
            case "--heartbeat":
                guard let seconds = TimeInterval(try value(for: argument)), seconds > 0, seconds.isFinite else {
                    throw OptionError("--heartbeat needs a positive number of seconds")
                }
                heartbeat = seconds
            case "--max-body":
                guard let bytes = Int(try value(for: argument)), bytes > 0 else {
                    throw OptionError("--max-body needs a positive number of bytes")
                }
                maxBodyBytes = bytes
            case "--log-level":
                let name = try value(for: argument)
                guard let level = ConfigDirectorLogLevel.allCases.first(where: { $0.description == name }) else {
                    throw OptionError("--log-level needs one of off, error, warn, info, debug")
                }
                logLevel = level
            default: throw OptionError("unknown option \(argument)")
            }
        }
        if watch && configsPath == nil { throw OptionError("--watch needs --configs") }
        if sdkKey.trimmingCharacters(in: .whitespaces).isEmpty { throw OptionError("--sdk-key must not be blank") }
    }
}
