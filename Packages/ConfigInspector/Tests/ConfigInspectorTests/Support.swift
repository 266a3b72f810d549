import ConfigClient
import ConfigModel

@testable import ConfigInspector

/// An offline client that serves `values` as live values once initialized, with overrides on unless told.
func offlineClient(
    values: [String: ServedValue] = InspectorFixture.values,
    overrides: LocalOverrideOptions = .enabled,
    context: ConfigDirectorContext? = nil
) async throws -> ConfigDirectorClient {
    let client = try ConfigDirectorClient(
        options: ConfigDirectorClientOptions(
            connection: ConnectionOptions(mode: .offline),
            values: values,
            overrides: overrides
        )
    )
    await client.initialize(context: context)
    return client
}

enum InspectorFixture {
    static let values: [String: ServedValue] = [
        "dark-mode": false,
        "max-items": 20,
        "ratio": 0.5,
        "greeting": "Hello",
        "theme": ["accent": "blue"],
    ]
}

extension ConfigInspectorModel {
    /// The model's changes as a stream: each `onChange` yields one element.
    func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        onChange = { continuation.yield() }
        return stream
    }

    /// Waits for changes until `condition` holds: each change is a signal, never a sleep; the suite's time limit
    /// (and the cancellation it brings) bounds the wait. Returns whether it held.
    func waitUntil(_ changes: AsyncStream<Void>, _ condition: () -> Bool) async -> Bool {
        if condition() { return true }
        for await _ in changes where condition() {
            return true
        }
        return condition()
    }
}
