import ConfigDemoKit
import Foundation
import Testing

@Suite("The demo's command line", .timeLimit(.minutes(3)))
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
