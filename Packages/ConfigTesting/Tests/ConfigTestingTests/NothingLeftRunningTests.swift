@_spi(Internal) import ConfigClient
@_spi(Internal) import ConfigModel
import ConfigTesting
import ModelTestSupport
import TestSupport
import Testing

/// The client's core, every task of the SDK that connects, and the in-memory server hold the logger
/// given to `makeTestClient`: once the test client is gone, the logger is released only when none of
/// them is left, so a held connect, a stuck operation or a leaked reference keeps it alive.
@Suite("Nothing left running after close", .timeLimit(.minutes(1)))
struct NothingLeftRunningTests {
    @Test("after close, with an updateContext held, a resume queued and streams open, nothing is left")
    func nothingLeftAfterClose() async {
        weak var weakLogger: RecordingLogger?
        weak var weakClient: ConfigDirectorClient?
        do {
            let logger = RecordingLogger()
            let testClient = makeTestClient(values: ["greeting": "hello"], timeout: 30, logger: logger)
            weakLogger = logger
            weakClient = testClient.client
            await testClient.client.initialize()
            let greetings = testClient.client.values(for: "greeting", default: "none")
            let watching = Pending { await elements(of: greetings) }
            let events = testClient.client.events
            let listening = Pending { await elements(of: events) }
            testClient.holdContextUpdate()
            let update = Pending { await testClient.client.updateContext(ConfigDirectorContext(id: "user-2")) }
            #expect(await eventually { testClient.contextUpdates.count == 2 })
            let queued = Pending { await testClient.client.resumeNetwork() }

            testClient.client.close()

            #expect(await update.value() != nil)
            #expect(await queued.value() != nil)
            #expect(await watching.value() == ["hello"])
            #expect(await listening.value() != nil)
        }
        #expect(await eventually { weakClient == nil })
        #expect(await eventually { weakLogger == nil })
    }

    @Test("a test client released without close closes itself and leaves nothing")
    func nothingLeftAfterRelease() async {
        weak var weakLogger: RecordingLogger?
        do {
            let logger = RecordingLogger()
            let testClient = makeTestClient(values: ["greeting": "hello"], timeout: 30, logger: logger)
            weakLogger = logger
            await testClient.client.initialize()
            testClient.setValue("hi", for: "greeting")
        }
        #expect(await eventually { weakLogger == nil })
    }
}
