internal import ConfigDirector
internal import Foundation

/// One config as a client read it: the value's text and the reason of its evaluation.
struct ReadValue: Sendable, Equatable {
    var key: String
    var typeName: String
    var value: String
    /// The reason from the client's `evaluations` stream; `nil` when no evaluation was published.
    var reason: EvaluationReason?

    /// The row of a values table: config, type, value, reason.
    var row: [String] { [key, typeName, value, reason?.rawValue ?? "(no evaluation published)"] }

    static let header = ["config", "type", "value", "reason"]
}

/// A client with recorders on its `evaluations` and `events` streams, so that each read comes with the
/// reason the client published for it and each step can wait for the events it expects.
final class ClientProbe: Sendable {
    let client: ConfigDirectorClient
    let evaluations: StreamRecorder<ConfigEvaluation>
    let events: StreamRecorder<ClientEvent>

    init(_ client: ConfigDirectorClient) {
        self.client = client
        evaluations = StreamRecorder(client.evaluations)
        events = StreamRecorder(client.events)
    }

    /// Reads `key` with `evaluate` and takes the reason from the evaluation the client published for it.
    func read(_ key: String, as typeName: String, _ evaluate: (ConfigDirectorClient) -> String) async -> ReadValue {
        let mark = evaluations.count
        let value = evaluate(client)
        let evaluation = await evaluations.first(after: mark, within: 2) { $0.key == key }
        return ReadValue(key: key, typeName: typeName, value: value, reason: evaluation?.element.reason)
    }

    /// Reads `followed` as its type, as an app would.
    func read(_ followed: FollowedKey) async -> ReadValue {
        let key = followed.key
        switch followed.type {
        case .bool: return await read(key, as: "Bool") { String($0.value(for: key, default: false)) }
        case .int: return await read(key, as: "Int") { String($0.value(for: key, default: 0)) }
        case .double: return await read(key, as: "Double") { $0.value(for: key, default: 0.0).formatted }
        case .string: return await read(key, as: "String") { quoted($0.value(for: key, default: "")) }
        case .json:
            return await read(key, as: "JSON") {
                $0.value(for: key, as: ConfigDirectorContext.TraitValue.self, default: .null).description
            }
        }
    }

    /// The values the story shows: a Bool, an Int, a Double, a String, a JSON config decoded into a struct,
    /// and a config with no value for any context, to show a reason other than `foundMatch`.
    func readStoryValues() async -> [ReadValue] {
        [
            await read("dark-mode", as: "Bool") { String($0.value(for: "dark-mode", default: false)) },
            await read("max-items", as: "Int") { String($0.value(for: "max-items", default: 0)) },
            await read("discount-rate", as: "Double") { $0.value(for: "discount-rate", default: 0.0).formatted },
            await read("welcome-message", as: "String") {
                quoted($0.value(for: "welcome-message", default: "Welcome"))
            },
            await read("theme", as: "DemoTheme") {
                $0.value(for: "theme", as: DemoTheme.self, default: .fallback).description
            },
            await read("sunset-date", as: "String") { quoted($0.value(for: "sunset-date", default: "never")) },
        ]
    }
}

/// A string in double quotes, as the tables show string values.
func quoted(_ text: String) -> String {
    "\"\(text)\""
}
