internal import ConfigDirector
internal import Foundation

/// Prints every change a client receives, until cancelled: the keys of each `configsUpdated` event with
/// their new values, read as the type `typeOf` gives (keys without a type are named without a value).
enum ChangeFollower {
    static func start(
        _ probe: ClientProbe,
        console: DemoConsole,
        typeOf: @escaping @Sendable (String) -> FollowedKey.ValueType?
    ) -> Task<Void, Never> {
        let events = probe.client.events
        return Task {
            for await event in events {
                let time = Date().formatted(.dateTime.hour(.twoDigits(amPM: .omitted)).minute().second())
                switch event {
                case .configsUpdated(let update):
                    for key in update.keys.sorted() {
                        guard let type = typeOf(key) else {
                            console.note("\(time)  \(key) changed (pass --key \(key):TYPE to print its value)")
                            continue
                        }
                        let value = await probe.read(FollowedKey(key: key, type: type))
                        console.note("\(time)  \(key) = \(value.value)  (\(value.reason?.rawValue ?? "?"))")
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
        }
    }
}
