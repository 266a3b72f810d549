@_spi(Internal) public import ConfigClient
@_spi(Internal) public import ConfigModel

/// A real `ConfigDirectorClient` connected to an in-memory server that the test controls.
///
/// Make one with ``makeTestClient(values:timeout:logger:hooks:)``. Only the connection to ConfigDirector,
/// the telemetry and the app lifecycle observer are replaced; everything else is the code that runs in
/// production. Every test client is independent of every other, so tests may run in parallel.
///
/// ```swift
/// let testClient = makeTestClient(values: ["new-checkout": true, "max-items": 20])
/// defer { testClient.client.close() }
/// await testClient.client.initialize()
///
/// let checkout = Checkout(client: testClient.client)
/// #expect(checkout.isNewCheckoutEnabled)
///
/// testClient.setValue(false, for: "new-checkout")
/// #expect(!checkout.isNewCheckoutEnabled)
/// ```
///
/// The initialization controls act only on `initialize` and the context update controls only on
/// `updateContext`; `resumeNetwork` is never held or failed. After a failed attempt, the next attempt
/// succeeds and delivers the values stored in the meantime. After the client closes, every control is
/// a silent no-op.
public struct TestClient: Sendable {
    /// The client under test: give it to the code that reads configs.
    ///
    /// It starts uninitialized, like a production client; with nothing held or failed, `initialize`
    /// completes at once with the client ready. Close it when the test is done.
    public let client: ConfigDirectorClient

    let server: InMemoryServer

    init(client: ConfigDirectorClient, server: InMemoryServer) {
        self.client = client
        self.server = server
    }

    // MARK: - Values

    /// Stores `value` under `key` and, once the client is connected, delivers an update carrying only
    /// that key.
    ///
    /// Reads see the value when `setValue` returns; `values(for:)` streams of the key and `events`
    /// yield it. While the client is not connected (before `initialize`, during a held or failed
    /// attempt, or while the network is paused), the value is delivered by the next attempt.
    /// - Parameters:
    ///   - value: The value to serve; a number that is not finite stops the test.
    ///   - key: The config key; a blank key stops the test.
    public func setValue(_ value: TestValue, for key: String) {
        server.setValue(value.checkedServedValue(forKey: key), for: key)
    }

    /// Removes the value of `key` and, once the client is connected, delivers a full update without it.
    ///
    /// Reads then return the in-code default value with the `configStateMissing` reason, `values(for:)`
    /// streams of the key yield the default, and `configsUpdated` lists the key in `removedKeys`.
    /// - Parameter key: The config key to remove.
    public func removeValue(for key: String) {
        server.removeValue(for: key)
    }

    /// Replaces every stored value, disarms any armed hold or failure, and, once the client is
    /// connected, delivers a full update.
    ///
    /// Use it to reset a test client shared across tests.
    /// - Parameter values: The values to serve, by config key; a blank key or a number that is not
    ///   finite stops the test.
    public func replaceValues(_ values: [String: TestValue]) {
        server.replaceValues(Self.checked(values))
    }

    // MARK: - Initialization

    /// Makes the next `initialize` wait until ``completeInitialization()`` or ``failInitialization()``,
    /// or until the client's timeout elapses.
    ///
    /// A held `initialize` suspends its caller, so start it in a `Task` and drive it from the test.
    public func holdInitialization() {
        server.hold(.initialization)
    }

    /// Delivers the stored values to the held `initialize`, so that the client is ready when it
    /// returns, and lets `initialize` complete.
    ///
    /// Called while a hold is armed but not picked up, it disarms the hold.
    public func completeInitialization() {
        server.complete(.initialization)
    }

    /// Fails the held `initialize` the way an invalid SDK key does: it completes promptly, the client
    /// is not ready, and an error is logged.
    ///
    /// Called with no `initialize` held, it arms the next one to fail.
    public func failInitialization() {
        server.fail(.initialization)
    }

    // MARK: - Context updates

    /// Makes the next `updateContext` wait until ``completeContextUpdate()`` or ``failContextUpdate()``,
    /// or until the client's timeout elapses.
    public func holdContextUpdate() {
        server.hold(.contextUpdate)
    }

    /// Delivers the stored values to the held `updateContext`, so that the client is ready with the new
    /// context when it returns, and lets it complete.
    ///
    /// Called while a hold is armed but not picked up, it disarms the hold.
    public func completeContextUpdate() {
        server.complete(.contextUpdate)
    }

    /// Fails the held `updateContext` the way an invalid SDK key does: it completes promptly, the client
    /// is not ready, and an error is logged.
    ///
    /// Called with no `updateContext` held, it arms the next one to fail.
    public func failContextUpdate() {
        server.fail(.contextUpdate)
    }

    /// The context of every `initialize` and `updateContext` call that reached the server, in order.
    ///
    /// `initialize` without a context records an empty context (`ConfigDirectorContext()`), and
    /// `resumeNetwork` is not recorded. A context whose kind is invalid is recorded as the client sends
    /// it: as an empty context.
    public var contextUpdates: [ConfigDirectorContext] {
        server.contextUpdates
    }

    static func checked(_ values: [String: TestValue]) -> [String: ServedValue] {
        Dictionary(uniqueKeysWithValues: values.map { key, value in (key, value.checkedServedValue(forKey: key)) })
    }
}
