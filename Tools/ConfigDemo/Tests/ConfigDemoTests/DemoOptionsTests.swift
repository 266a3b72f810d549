import ConfigDemoKit
import Foundation
import Testing

@Suite("The demo's command line")
struct DemoOptionsTests {
    @Test("reads every flag")
    func readsFlags() throws {
        let options = try DemoOptions(arguments: ["--plain", "--polling", "--follow"])
        #expect(options.isPlain && options.usesPolling && options.follows && options.baseURL == nil)
    }

    @Test("takes a real environment's base URL and SDK key together")
    func readsBaseURLAndKey() throws {
        let options = try DemoOptions(arguments: ["--base-url", "https://example.com", "--sdk-key", "key"])
        #expect(options.baseURL == URL(string: "https://example.com"))
        #expect(options.sdkKey == "key")
    }

    @Test(
        "refuses command lines that do not make sense",
        arguments: [
            ["--base-url", "https://example.com"], ["--sdk-key", "key"], ["--key", "dark-mode:bool"],
            ["--base-url", "https://example.com", "--sdk-key", "key", "--key", "dark-mode"],
            ["--base-url", "example"], ["--log-level", "loud"], ["--color"], ["--base-url"],
        ]
    )
    func refusesNonsense(arguments: [String]) {
        #expect(throws: DemoUsageError.self) { try DemoOptions(arguments: arguments) }
    }

    @Test("--help names every option")
    func helpNamesEveryOption() {
        for option in ["--plain", "--polling", "--follow", "--base-url", "--sdk-key", "--key", "--log-level"] {
            #expect(DemoOptions.help.contains(option))
        }
    }
}

@Suite("The config-demo command")
struct DemoRunnerTests {
    @Test("exits 64 on a bad command line")
    func exitsOnBadArguments() async {
        #expect(await DemoRunner.run(arguments: ["--colour"], untilInterrupted: {}) == 64)
    }

    @Test("exits 1 and says why when a real environment cannot be reached")
    func exitsWhenTheEnvironmentIsUnreachable() async {
        // Port 1 on loopback refuses connections: the client times out after its 3 s.
        let arguments = ["--plain", "--log-level", "off", "--base-url", "http://127.0.0.1:1", "--sdk-key", "key"]
        #expect(await DemoRunner.run(arguments: arguments, untilInterrupted: {}) == 1)
    }
}
