#if Logging
import ConfigDirector
import Logging
import Testing

// README "Logging through swift-log (trait Logging)" and the ConfigClient DocC page, verbatim, in a function so
// that it compiles as written (its client would reach ConfigDirector's service). ConfigClientTests'
// SwiftLogLoggerTests check what the logger writes.
private func swiftLogExample() throws -> ConfigDirectorClient {
    let client = try ConfigDirectorClient(
        clientSDKKey: "YOUR-CLIENT-SDK-KEY",
        options: ConfigDirectorClientOptions(logger: SwiftLogLogger(Logger(label: "com.example.app.configs")))
    )
    return client
}

@Suite("Examples of the trait Logging", .timeLimit(.minutes(1)))
struct SwiftLogExamples {
    @Test("the example's Logger, at swift-log's default level info, lets the SDK's info messages through")
    func exampleLevel() {
        #expect(SwiftLogLogger(Logger(label: "com.example.app.configs")).level == .info)
        _ = swiftLogExample
    }
}
#endif
