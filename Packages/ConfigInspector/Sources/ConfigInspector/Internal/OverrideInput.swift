import ConfigClient
import ConfigModel
import Foundation

/// The text typed as a config's override, read by the config's type: what to set, or why nothing can be.
enum OverrideInput: Equatable, Sendable {
    /// A value of the config's own type (an integer, a finite number, text).
    case value(ServedValue)
    /// JSON text, which the client parses (`setOverride(jsonText:for:)`).
    case json(String)
    /// The text is not a value of the type: the message says why, and nothing is set.
    case invalid(String)

    /// Reads `text` as an override of a config of `type`.
    /// - Parameters:
    ///   - text: What was typed.
    ///   - type: The config's type.
    init(text: String, type: ConfigType) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch type {
        case .integer:
            if let integer = Int(trimmed) {
                self = .value(.integer(integer))
            } else {
                self = .invalid("“\(text)” is not an integer: type a whole number, such as 42.")
            }
        case .float:
            if let number = Double(trimmed), number.isFinite {
                self = .value(.float(number))
            } else {
                self = .invalid("“\(text)” is not a finite number: type a number such as 2.5.")
            }
        case .boolean:
            switch trimmed.lowercased() {
            case "true": self = .value(.boolean(true))
            case "false": self = .value(.boolean(false))
            default: self = .invalid("“\(text)” is not a boolean: type true or false.")
            }
        case .json:
            self = .json(text)
        case .string, .enum, .url, .custom:
            self = .value(.string(text))
        }
    }

    /// The message shown when the client refuses JSON text.
    static let invalidJSON =
        "This is not valid JSON: type an object, an array or another JSON value, such as {\"limit\": 3}."
}
