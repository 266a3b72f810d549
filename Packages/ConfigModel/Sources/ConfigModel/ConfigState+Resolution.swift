public import Foundation

extension ConfigState {
    /// Reads the served value as `type`, with the order of checks of PROTOCOL §8: a missing or empty
    /// value, then a config type the kind cannot read, then a value that does not parse.
    /// - Parameter type: The type to read.
    /// - Returns: The value and ``EvaluationReason/foundMatch``, or no value and the reason.
    public func resolve<Value: ConfigValue>(as type: Value.Type) -> ConfigResolution<Value> {
        let kind = Value.configValueKind
        switch text(readableAs: kind) {
        case .unreadable(let reason):
            return ConfigResolution(value: nil, reason: reason)
        case .text(let text):
            guard let parsed = Value(configValue: text) else {
                return ConfigResolution(value: nil, reason: kind.invalidValueReason)
            }
            return ConfigResolution(value: parsed, reason: .foundMatch)
        }
    }

    /// The served text as a reader of one kind sees it, before it is parsed.
    public enum ReadableText: Sendable, Hashable {
        /// The text to parse.
        case text(String)
        /// Why the kind cannot read the config: ``EvaluationReason/valueMissing`` or
        /// ``EvaluationReason/typeMismatch``.
        case unreadable(EvaluationReason)
    }

    /// The first two checks of ``resolve(as:)``, without generics: a missing or empty value, then a
    /// config type that `kind` cannot read. A reader then parses the text and, when the parse fails,
    /// evaluates with `kind`'s ``ConfigValueKind/invalidValueReason``.
    /// - Parameter kind: The kind of the type reading the config.
    /// - Returns: The text to parse, or the reason it cannot be read.
    public func text(readableAs kind: ConfigValueKind) -> ReadableText {
        Self.text(value, of: type, readableAs: kind)
    }

    /// ``text(readableAs:)`` for a value and a config type held apart from a config.
    /// - Parameters:
    ///   - value: The served value.
    ///   - type: The config type.
    ///   - kind: The kind of the type reading the config.
    /// - Returns: The text to parse, or the reason it cannot be read.
    public static func text(_ value: String?, of type: ConfigType, readableAs kind: ConfigValueKind) -> ReadableText {
        guard let value, !value.isEmpty else { return .unreadable(.valueMissing) }
        guard kind.canRead(type) else { return .unreadable(.typeMismatch) }
        return .text(value)
    }

    /// Decodes the served JSON document as `type`; only `json` configs can be read this way.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - decoder: The decoder to use.
    /// - Returns: The decoded value and ``EvaluationReason/foundMatch``, or no value and the reason
    ///   (``EvaluationReason/invalidJSON`` when the document does not decode).
    public func resolveJSON<Value: Decodable>(as type: Value.Type, decoder: JSONDecoder) -> ConfigResolution<Value> {
        guard let text = value, !text.isEmpty else { return ConfigResolution(value: nil, reason: .valueMissing) }
        guard self.type == .json else { return ConfigResolution(value: nil, reason: .typeMismatch) }
        guard let decoded = try? decoder.decode(Value.self, from: Data(text.utf8)) else {
            return ConfigResolution(value: nil, reason: .invalidJSON)
        }
        return ConfigResolution(value: decoded, reason: .foundMatch)
    }

    /// The id of the served value: the server's when it sent one, else the value id of PROTOCOL §7.
    /// `nil` when there is no value.
    public var effectiveValueID: String? {
        if let valueID { return valueID }
        return value.map(ValueID.init(of:)).map(\.rawValue)
    }
}
