import ConfigDirector
import ConfigEmulator
import Foundation
import Testing

// "Configure and initialize the client", verbatim.
private func configureAndInitialize() async throws {
    // Creating the client makes no network calls. It throws only when the SDK key is
    // blank or a custom base URL is invalid.
    let client = try ConfigDirectorClient(clientSDKKey: "YOUR-CLIENT-SDK-KEY")

    // Connects and waits until config values are received, or until it times out.
    // After a timeout the client keeps trying to connect in the background.
    await client.initialize()
}

// "metadata", verbatim.
private func metadataExample() throws -> ConfigDirectorClient {
    let client = try ConfigDirectorClient(
        clientSDKKey: "YOUR-CLIENT-SDK-KEY",
        options: ConfigDirectorClientOptions(
            metadata: ConfigDirectorMetaContext(
                appName: "YOUR-APP-NAME",
                appVersion: "1.0.2"
            )
        )
    )
    return client
}

// "logger", verbatim.
private func consoleLoggerExample() throws -> ConfigDirectorClient {
    let client = try ConfigDirectorClient(
        clientSDKKey: "YOUR-CLIENT-SDK-KEY",
        options: ConfigDirectorClientOptions(logger: ConsoleLogger(level: .debug))
    )
    return client
}

// "Implement your own logger adapter", verbatim (the type at file scope, the client in a function).
struct MyLogger: ConfigDirectorLogger {
    // Messages more verbose than this level are never passed to `log`.
    let level: ConfigDirectorLogLevel = .info

    func log(_ level: ConfigDirectorLogLevel, message: String, error: (any Error)?) {
        // your specific logging library implementation here
    }
}

private func myLoggerExample() throws -> ConfigDirectorClient {
    let client = try ConfigDirectorClient(
        clientSDKKey: "YOUR-CLIENT-SDK-KEY",
        options: ConfigDirectorClientOptions(logger: MyLogger())
    )
    return client
}

// "connection", verbatim.
private func connectionExample() throws -> ConfigDirectorClient {
    let client = try ConfigDirectorClient(
        clientSDKKey: "YOUR-CLIENT-SDK-KEY",
        options: ConfigDirectorClientOptions(
            connection: ConnectionOptions(mode: .polling, pollingInterval: 600, timeout: 2)
        )
    )
    return client
}

@Suite("Documented examples: configure the client", .timeLimit(.minutes(1)))
struct ConfigureTheClientExamples {
    @Test("creating a client makes no network call and throws only for programming errors")
    func creation() throws {
        for makeClient in [metadataExample, consoleLoggerExample, myLoggerExample, connectionExample] {
            let client = try makeClient()
            #expect(!client.isReady)
            #expect(!client.isInitializing)
            client.close()
        }
        #expect(throws: ConfigDirectorError.missingClientSDKKey) { try ConfigDirectorClient(clientSDKKey: " ") }
        _ = configureAndInitialize
    }

    @Test("initialize connects and waits until config values are received")
    func initializeWaitsForValues() async throws {
        try await withDocumentedClient { client, _ in
            await client.initialize()
            #expect(client.isReady)
            #expect(client.value(for: "my-config-key", default: false))
        }
    }

    @Test("after a timeout, initialize returns normally and the client keeps trying in the background")
    func initializeTimesOut() async throws {
        try await withDocumentedClient(timeout: 0.3) { client, emulator in
            emulator.inject(.stall(seconds: 1, path: "/client/sse/v1"))
            let events = client.events
            await client.initialize()
            #expect(!client.isReady)
            #expect(client.isInitializing)
            #expect(client.value(for: "my-config-key", default: false) == false)
            #expect(await first(.ready(.initialization), in: events, closing: client))
            #expect(client.isReady)
            #expect(client.value(for: "my-config-key", default: false))
        }
    }

    @Test("a custom logger receives nothing more verbose than its level")
    func customLoggerLevel() {
        let logger = MyLogger()
        #expect(logger.level == .info)
        #expect(ConfigDirectorLogLevel.debug > logger.level)
    }

    @Test("the connection options take the documented values and defaults")
    func connectionOptions() {
        let options = ConnectionOptions(mode: .polling, pollingInterval: 600, timeout: 2)
        #expect(options.mode == .polling)
        #expect(options.pollingInterval == 600)
        #expect(options.timeout == 2)
        let defaults = ConnectionOptions()
        #expect(defaults.mode == .streaming)
        #expect(defaults.pollingInterval == 60)
        #expect(defaults.timeout == 3)
        #expect(defaults.pausesWhileBackgrounded)
        #expect(defaults.baseURL == nil)
        #expect(ConsoleLogger().level == .warn)
    }
}
