import ConfigDirector

// The reference page, "Additional configuration options": the console logger, then a logger of the app's.
func consoleLoggerClient() throws -> ConfigDirectorClient {
    let client = try ConfigDirectorClient(
        clientSDKKey: "YOUR-CLIENT-SDK-KEY",
        options: ConfigDirectorClientOptions(logger: ConsoleLogger(level: .debug))
    )
    return client
}

struct MyLogger: ConfigDirectorLogger {
    // Messages more verbose than this level are never passed to `log`.
    let level: ConfigDirectorLogLevel = .info

    func log(_ level: ConfigDirectorLogLevel, message: String, error: (any Error)?) {
        // your specific logging library implementation here
    }
}

func myLoggerClient() throws -> ConfigDirectorClient {
    let client = try ConfigDirectorClient(
        clientSDKKey: "YOUR-CLIENT-SDK-KEY",
        options: ConfigDirectorClientOptions(logger: MyLogger())
    )
    return client
}
