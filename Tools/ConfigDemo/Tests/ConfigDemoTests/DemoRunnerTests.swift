import ConfigDemoKit
import Testing

@Suite("The config-demo command", .timeLimit(.minutes(3)))
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
