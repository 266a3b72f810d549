internal import ConfigDirector
public import Foundation

/// The demo's options, parsed from its command line.
public struct DemoOptions: Sendable, Equatable {
    /// Plain lines even on a terminal that could show a live table.
    public var isPlain = false
    /// Polling instead of streaming.
    public var usesPolling = false
    /// After the story, keep printing every change until Ctrl-C.
    public var follows = false
    /// A real ConfigDirector environment to connect to instead of the emulator.
    public var baseURL: URL?
    /// The client SDK key of that environment.
    public var sdkKey: String?
    /// The configs to print in `--base-url` mode, with the type to read each as.
    var keys: [FollowedKey] = []
    /// The SDK's log level; errors only by default.
    var logLevelName = "error"
    /// Print the help and exit.
    public var showsHelp = false

    /// Options for the default story: emulator, streaming, no follow.
    /// - Parameter isPlain: Plain lines instead of a live table.
    public init(isPlain: Bool = false) {
        self.isPlain = isPlain
    }

    /// Parses the arguments, without the program's name.
    /// - Parameter arguments: The command line's arguments.
    /// - Throws: ``DemoUsageError`` naming the bad argument.
    public init(arguments: [String]) throws(DemoUsageError) {
        var remaining = arguments[...]
        func value(for option: String) throws(DemoUsageError) -> String {
            guard let value = remaining.popFirst() else { throw DemoUsageError("\(option) needs a value") }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help": showsHelp = true
            case "--plain": isPlain = true
            case "--polling": usesPolling = true
            case "--follow": follows = true
            case "--sdk-key": sdkKey = try value(for: argument)
            case "--key": keys.append(try FollowedKey(argument: try value(for: argument)))
            case "--log-level":
                logLevelName = try value(for: argument)
                guard Self.logLevels.contains(logLevelName) else {
                    throw DemoUsageError("--log-level needs one of \(Self.logLevels.joined(separator: ", "))")
                }
            case "--base-url":
                let text = try value(for: argument)
                guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
                    throw DemoUsageError("--base-url needs an absolute URL such as https://example.com; got '\(text)'")
                }
                baseURL = url
            default:
                throw DemoUsageError("unknown option '\(argument)'")
            }
        }
        guard !showsHelp else { return }
        if (baseURL == nil) != (sdkKey == nil) { throw DemoUsageError("--base-url and --sdk-key go together") }
        if baseURL == nil, !keys.isEmpty { throw DemoUsageError("--key is for --base-url mode") }
    }

    static let logLevels = ConfigDirectorLogLevel.allCases.map(\.description)

    /// The SDK's log level.
    var logLevel: ConfigDirectorLogLevel {
        ConfigDirectorLogLevel.allCases.first { $0.description == logLevelName } ?? .error
    }

    /// The text `--help` prints.
    public static let help = """
        config-demo: the ConfigDirector Swift SDK at work, with no account and no network.

        USAGE: config-demo [--plain] [--polling] [--follow]
               config-demo --base-url URL --sdk-key KEY [--key KEY:TYPE ...] [--polling] [--plain]

        It starts the config emulator in this process on a free loopback port, serving the example configs
        (Tools/ConfigEmulator/Examples/configs.json), and plays a story in six steps:
          1. a streaming client initializes for a user and reads a Bool, an Int, a Double, a String and a
             JSON config decoded into a struct, each with its evaluation reason;
          2. a value changes on the server; values(for:default:) yields it; the delay is printed;
          3. the context changes to a tenant (kind "tenant") with other traits; the values follow;
          4. the server drops every stream while a value changes; the client reconnects and catches up;
          5. the server goes away; the client keeps its values; a second client, started now with the same
             caching provider, serves the values kept on the device (stale) until the server is back on
             the same port, then turns ready;
          6. both clients close, which sends their telemetry; the counts the server received are printed.
        It takes under 30 seconds and exits 0; a step that does not behave exits 1 and says which.

        OPTIONS:
          --plain             Plain lines. Without it, a terminal (stdout a tty, TERM set and not "dumb")
                              gets a table that updates in place.
          --polling           Poll instead of stream. The SDK polls every 30 seconds at the fastest, so
                              the story does not wait for polls: where streaming receives a change on its
                              own, the demo asks for it with pauseNetwork() and resumeNetwork(), as an app
                              returning to the foreground does, and says so. Step 4 has no stream to drop:
                              the server refuses one fetch (503) instead, the client keeps its values, and
                              the next fetch brings the change made meanwhile. In step 5 the second client
                              fetches when resumed after the server is back, instead of at its next poll.
          --follow            After the story, keep printing every change until Ctrl-C. The demo writes the
                              emulator's configs to a file in a temporary folder and reloads it on change
                              (the emulator's --watch); it prints the dashboard's URL, the file's path and
                              an admin API call.
          --base-url URL      Run the client against a real ConfigDirector environment instead of the
          --sdk-key KEY       emulator: no scripted server changes; it connects as the user
                              "config-demo-user", prints the keys and values received and follows changes
                              until Ctrl-C. Nothing is kept on this machine.
          --key KEY:TYPE      With --base-url: a config to print, read as TYPE (bool, int, double, string or
                              json), then followed with values(for:default:): each value the stream
                              yields is printed as it arrives. Repeat it for more configs. Other keys are
                              listed without their value, since reading a config as the wrong type would
                              report type mismatches to your dashboard.
          --log-level LEVEL   The SDK's own log level: off, error (default), warn, info or debug.
          -h, --help          Show this help.
        """
}
