@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
import Foundation
import Testing

/// A watched type whose parse reads the client, as an app's type may: the client must not hold its
/// lock while the app's code runs, or the read would wait for it forever.
private struct GreetingWithMode: ConfigValue, Equatable {
    static let client = Box<ConfigDirectorClient?>(nil)
    static var configValueKind: ConfigValueKind { .string }

    let text: String
    let darkMode: Bool

    init(text: String, darkMode: Bool) {
        self.text = text
        self.darkMode = darkMode
    }

    init?(configValue: String) {
        text = configValue
        darkMode = Self.client.value?.value(for: "dark-mode", default: false) ?? false
    }
}

/// A value shared between threads.
private final class Box<Value>: @unchecked Sendable {
    // `stored` is guarded by `lock`.
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

@Suite("Watching values with the app's code", .timeLimit(.minutes(1)))
struct WatchReentrancyTests {
    @Test("a watched type whose parse reads the client gets its values")
    func parseReadsTheClient() async throws {
        let fixture = try ClientFixture()
        await fixture.client.initialize()
        GreetingWithMode.client.value = fixture.client
        defer { GreetingWithMode.client.value = nil }

        // On threads of their own, so that a parse waiting on the client's lock fails the test
        // instead of hanging it.
        let stream = Box<AsyncStream<GreetingWithMode>?>(nil)
        Thread {
            stream.value = fixture.client.values(for: "greeting", default: GreetingWithMode(text: "", darkMode: false))
        }.start()
        try #require(await eventually { stream.value != nil }, "values(for:) waited on the client's lock")
        var values = try #require(stream.value).makeAsyncIterator()
        #expect(await values.next() == GreetingWithMode(text: "hello", darkMode: true))

        let transport = try fixture.transport
        let delivered = Box(false)
        Thread {
            transport.deliver(.strings(["greeting": "bonjour"]))
            delivered.value = true
        }.start()
        try #require(await eventually { delivered.value }, "applying a delta waited on the client's lock")
        #expect(await values.next() == GreetingWithMode(text: "bonjour", darkMode: true))
        // Not deferred: after a failure above, a thread may hold the lock for good, and closing would wait on it.
        fixture.client.close()
    }
}
