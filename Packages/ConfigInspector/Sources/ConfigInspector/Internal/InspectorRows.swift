import ConfigClient
import ConfigModel
import Foundation

/// One config as the inspector lists it: the snapshot's facts, as text ready to show.
struct InspectorConfigRow: Identifiable, Equatable, Sendable {
    /// What the inspector shows for a config that has no value for the context.
    static let noValue = "no value"
    /// What the inspector shows for a value without a value id.
    static let noValueID = "none"

    /// The config key.
    let key: String
    /// The config's type.
    let type: ConfigType
    /// The served text, or `nil` when the config has no value.
    let value: String?
    /// The served value's id, or `nil`.
    let valueID: String?
    /// Why a read of the config as its own type returns what it does.
    let reason: EvaluationReason
    /// Where the value came from.
    let source: ConfigEvaluation.Source

    init(_ config: ConfigSnapshot.Config) {
        key = config.key
        type = config.type
        value = config.value
        valueID = config.valueID
        reason = config.reason
        source = config.source
    }

    var id: String { key }
    /// The value, or "no value".
    var valueText: String { value ?? Self.noValue }
    /// The type's name, as the service spells it (`boolean`, `integer`, `json`...).
    var typeText: String { type.rawValue }
    /// The source's name (`live`, `override`...).
    var sourceText: String { source.description }
    /// The reason's name, as telemetry spells it (`found-match`, `value-missing`...).
    var reasonText: String { reason.rawValue }
    /// The value id, or "none".
    var valueIDText: String { valueID ?? Self.noValueID }
    /// Whether a local override serves the value.
    var isOverridden: Bool { source == .override }

    /// Whether the row matches a search: the text found, ignoring case, in the key or the value (an empty search
    /// matches every row).
    func matches(search: String) -> Bool {
        let needle = search.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !needle.isEmpty else { return true }
        return key.localizedCaseInsensitiveContains(needle)
            || (value?.localizedCaseInsensitiveContains(needle) ?? false)
    }
}

/// A label and its value: a row of the status and context sections.
struct InspectorInfoRow: Identifiable, Equatable, Sendable {
    let label: String
    let value: String

    var id: String { label }
}
