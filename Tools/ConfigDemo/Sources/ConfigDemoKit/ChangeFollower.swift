internal import ConfigDirector
internal import Foundation

/// Prints every change a client receives, until cancelled: the keys of each `configsUpdated` event with
/// their new values, read as the type `typeOf` gives (keys without a type are named without a value).
enum ChangeFollower {
    /// Starts printing.
    /// - Parameters:
    ///   - probe: The client.
    ///   - shown: The values already printed; a key is printed again only when its value changes.
    ///   - console: Where to print.
    ///   - typeOf: The type to read a key as; `nil` names the key without reading it.
    /// - Returns: The task that prints; cancel it to stop.
    static func start(
        _ probe: ClientProbe,
        shown: [ReadValue],
        console: DemoConsole,
        typeOf: @escaping @Sendable (String) -> FollowedKey.ValueType?
    ) -> Task<Void, Never> {
        let events = probe.client.events
        return Task {
            // A full set lists every key, changed or not: print only what changed.
            var lastValues = Dictionary(shown.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
            for await event in events {
                let time = clockTime(Date())
                switch event {
                case .configsUpdated(let update):
                    for key in update.keys.sorted() {
                        guard let type = typeOf(key) else {
                            console.note(
                                "\(time)  \(key) was sent again or changed (--key \(key):TYPE prints its value)"
                            )
                            continue
                        }
                        let value = await probe.read(FollowedKey(key: key, type: type))
                        guard lastValues.updateValue(value.value, forKey: key) != value.value else { continue }
                        console.note("\(time)  \(key) = \(value.value)  (\(value.reason?.rawValue ?? "?"))")
                    }
                    for key in update.removedKeys.sorted() {
                        lastValues[key] = nil
                        console.note("\(time)  \(key) was removed: reads now return their default value")
                    }
                case .ready(let reason):
                    console.note("\(time)  ready (\(reason))")
                case .contextUpdated:
                    break
                }
            }
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
