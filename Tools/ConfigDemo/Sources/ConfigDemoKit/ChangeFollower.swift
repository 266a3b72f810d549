internal import ConfigDirector
internal import Foundation

/// Prints every change a client receives, until cancelled. Each followed config is watched with a
/// `values(for:default:)` stream, read as its type, and each value the stream yields is printed the moment
/// it arrives. The client's `events` name the other keys a `configsUpdated` event carries (without reading
/// them) and the removed keys, and start a stream for a key that `typeOf` gives a type to later on.
enum ChangeFollower {
    /// Starts printing.
    /// - Parameters:
    ///   - probe: The client.
    ///   - keys: The configs to watch with `values(for:default:)` from the start.
    ///   - shown: The values already printed; a stream's first value is printed only when it differs.
    ///   - console: Where to print.
    ///   - typeOf: The type to read a key the client receives as; `nil` names the key without reading it.
    /// - Returns: The task that prints; cancel it to stop.
    static func start(
        _ probe: ClientProbe,
        watching keys: [FollowedKey],
        shown: [ReadValue],
        console: DemoConsole,
        typeOf: @escaping @Sendable (String) -> FollowedKey.ValueType?
    ) -> Task<Void, Never> {
        let client = probe.client
        let events = client.events
        let shownValues = Dictionary(shown.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
        // One stream per key, read as the last type given for it.
        let types = Dictionary(keys.map { ($0.key, $0.type) }, uniquingKeysWith: { _, last in last })
        return Task {
            await withTaskGroup(of: Void.self) { group in
                var watched = Set<String>()
                for key in keys where watched.insert(key.key).inserted {
                    let followed = FollowedKey(key: key.key, type: types[key.key] ?? key.type)
                    let shown = shownValues[key.key]
                    group.addTask { await printYields(of: followed, client: client, shown: shown, console: console) }
                }
                for await event in events {
                    let time = clockTime(Date())
                    switch event {
                    case .configsUpdated(let update):
                        for key in update.keys.sorted() where !watched.contains(key) {
                            guard let type = typeOf(key) else {
                                console.note(
                                    "\(time)  \(key) was sent again or changed (--key \(key):TYPE prints its value)"
                                )
                                continue
                            }
                            // A config added since the start: its stream prints its value at once.
                            watched.insert(key)
                            let followed = FollowedKey(key: key, type: type)
                            group.addTask {
                                await printYields(of: followed, client: client, shown: nil, console: console)
                            }
                        }
                        for key in update.removedKeys.sorted() {
                            console.note("\(time)  \(key) was removed: reads now return their default value")
                        }
                    case .ready(let reason):
                        console.note("\(time)  ready (\(reason))")
                    case .contextUpdated:
                        break
                    }
                }
                group.cancelAll()
            }
        }
    }

    /// Prints each value a `values(for:default:)` stream of `followed` yields, read as its type, until
    /// the stream finishes or the task is cancelled.
    private static func printYields(
        of followed: FollowedKey,
        client: ConfigDirectorClient,
        shown: String?,
        console: DemoConsole
    ) async {
        let key = followed.key
        switch followed.type {
        case .bool:
            await printYields(client.values(for: key, default: false), key: key, shown: shown, console) { String($0) }
        case .int:
            await printYields(client.values(for: key, default: 0), key: key, shown: shown, console) { String($0) }
        case .double:
            await printYields(client.values(for: key, default: 0.0), key: key, shown: shown, console) { $0.formatted }
        case .string:
            await printYields(client.values(for: key, default: ""), key: key, shown: shown, console) { quoted($0) }
        case .json:
            let stream = client.values(for: key, as: ConfigDirectorContext.TraitValue.self, default: .null)
            await printYields(stream, key: key, shown: shown, console) { $0.description }
        }
    }

    /// Prints `key = value` for each element of `stream`, as `text` writes it, except a first element
    /// equal to `shown` (the stream yields the current value first, which the table printed already).
    private static func printYields<Value>(
        _ stream: AsyncStream<Value>,
        key: String,
        shown: String?,
        _ console: DemoConsole,
        text: (Value) -> String
    ) async {
        var alreadyShown = shown
        for await value in stream {
            let time = clockTime(Date())
            let value = text(value)
            defer { alreadyShown = nil }
            guard value != alreadyShown else { continue }
            console.note("\(time)  \(key) = \(value)")
        }
    }
}

/// `HH:mm:ss` in the local time zone, for the lines that follow changes.
func clockTime(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "HH:mm:ss"
    return formatter.string(from: date)
}
