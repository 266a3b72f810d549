public import ConfigModel

/// How an OpenFeature evaluation context maps onto a ``ConfigDirectorContext``, in terms that need
/// no OpenFeature types, so that the rules are tested on every platform.
///
/// The targeting key (or else an `id` attribute) is the id; the top-level `kind`, `name`, `traits`
/// and boolean `anonymous` attributes map to the fields of the same name; anything else is ignored.
public enum EvaluationContextMapping {
    /// The ConfigDirector context for an evaluation context.
    /// - Parameters:
    ///   - targetingKey: The evaluation context's targeting key; empty counts as absent.
    ///   - attributes: The evaluation context's attributes, as JSON values.
    /// - Returns: The context the client evaluates against.
    public static func context(targetingKey: String?, attributes: [String: JSONValue]) -> ConfigDirectorContext {
        func string(_ name: String) -> String? {
            if case .string(let value) = attributes[name] { return value }
            return nil
        }
        var traits: [String: JSONValue] = [:]
        if case .object(let members) = attributes["traits"] { traits = members }
        var isAnonymous = false
        if case .bool(let value) = attributes["anonymous"] { isAnonymous = value }
        let id = targetingKey.flatMap { $0.isEmpty ? nil : $0 } ?? string("id")
        return ConfigDirectorContext(
            id: id, kind: string("kind"), name: string("name"), traits: traits, isAnonymous: isAnonymous)
    }
}
