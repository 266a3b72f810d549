@_spi(Testing) import ClientTestSupport
@_spi(Internal) import ConfigModel
import ModelTestSupport
import TestSupport
import Testing
@_spi(Testing) import TransportTestSupport

@_spi(Internal) @_spi(Testing) @testable import ConfigClient

@Suite("Following the app lifecycle", .timeLimit(.minutes(1)))
struct AppLifecycleTests {
    @Test("the background releases the connection and the foreground resumes it")
    func backgroundAndForeground() async throws {
        let fixture = try ClientFixture(answer: .deliver(.sample))
        defer { fixture.client.close() }
        await fixture.client.initialize(context: ConfigDirectorContext(id: "u"))
        var events = fixture.client.events.makeAsyncIterator()

        fixture.lifecycle.send(.didEnterBackground)
        #expect(try fixture.transport.disconnects == 1)
        #expect(fixture.client.value(for: "greeting", default: "") == "hello")

        #expect(!fixture.client.isReady)

        fixture.lifecycle.send(.willEnterForeground)
        #expect(await events.next() == .contextUpdated(ConfigDirectorContext(id: "u")))
        #expect(await events.next() == .ready(.networkResume))
        #expect(try fixture.transport.contexts.count == 2)
        #expect(try fixture.transport.reasons == [.initialization, .networkResume])
    }

    @Test("with pausesWhileBackgrounded off, the connection is left alone")
    func optedOut() async throws {
        let fixture = try ClientFixture(
            answer: .deliver(.sample), connection: ConnectionOptions(pausesWhileBackgrounded: false))
        defer { fixture.client.close() }
        await fixture.client.initialize()
        fixture.lifecycle.send(.didEnterBackground)
        fixture.lifecycle.send(.willEnterForeground)
        // Once the client went quiet, a resume the foreground had started has connected.
        await fixture.client.core.wentQuiet()
        #expect(try fixture.transport.disconnects == 0)
        #expect(try fixture.transport.contexts.count == 1)
    }

    @Test("the foreground does not resume a connection the app paused itself")
    func manualPauseStays() async throws {
        let fixture = try ClientFixture(answer: .deliver(.sample))
        defer { fixture.client.close() }
        await fixture.client.initialize()
        fixture.client.pauseNetwork()
        fixture.lifecycle.send(.willEnterForeground)
        await fixture.client.core.wentQuiet()
        #expect(try fixture.transport.contexts.count == 1)
    }
}
