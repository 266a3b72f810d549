internal import ConfigModel

/// How an OpenFeature evaluation context maps onto a ``ConfigDirectorContext``, in terms that need
/// no OpenFeature types, so that the rules are tested on every platform.
///
/// The targeting key (or else an `id` attribute) is the id; the top-level `kind`, `name`, `traits`
/// and boolean `anonymous` attributes map to the fields of the same name; anything else is ignored.
enum EvaluationContextMapping {
    /// The ConfigDirector context for an evaluation context.
    /// - Parameters:
    ///   - targetingKey: The evaluation context's targeting key; empty counts as absent.
    ///   - attributes: The evaluation context's attributes, as trait values.
    /// - Returns: The context the client evaluates against.
    static func context(
        targetingKey: String?,
        attributes: [String: ConfigDirectorContext.TraitValue]
    ) -> ConfigDirectorContext {
        func string(_ name: String) -> String? {
            if case .string(let value) = attributes[name] { return value }
            return nil
        }
        var traits: [String: ConfigDirectorContext.TraitValue]?
        if case .dictionary(let members) = attributes["traits"], !members.isEmpty { traits = members }
        var isAnonymous: Bool?
        if case .bool(let value) = attributes["anonymous"] { isAnonymous = value }
        let id = targetingKey.flatMap { $0.isEmpty ? nil : $0 } ?? string("id")
        return ConfigDirectorContext(
            id: id, kind: string("kind"), name: string("name"), traits: traits, isAnonymous: isAnonymous)
    }
}
