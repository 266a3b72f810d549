internal import ConfigModel
internal import Foundation

/// How an OpenFeature evaluation context maps onto a ``ConfigDirectorContext``, in terms that need
/// no OpenFeature types, so that the rules are tested on every platform.
///
/// The targeting key (or else an `id` attribute, a string or an integer) is the id; the top-level
/// `kind`, `name`, `traits` and boolean `anonymous` attributes map to the fields of the same name;
/// anything else is ignored. A `kind` inside `traits` is an ordinary trait; the client validates the
/// top-level kind (PROTOCOL §9: an invalid kind is logged once and evaluated as no context).
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
        return ConfigDirectorContext(
            id: targetingKey.flatMap { $0.isEmpty ? nil : $0 } ?? idAttribute(attributes["id"]),
            kind: string("kind"),
            name: string("name"),
            traits: traits,
            isAnonymous: isAnonymous
        )
    }

    /// An `id` attribute as the context's id: a string as it is, an integer in decimal.
    private static func idAttribute(_ value: ConfigDirectorContext.TraitValue?) -> String? {
        switch value {
        case .string(let id): id
        case .int(let id): String(id)
        default: nil
        }
    }

    /// A date attribute as a trait: UTC ISO-8601 with milliseconds, such as `2026-01-02T03:04:05.678Z`.
    ///
    /// The date is rounded to the nearest millisecond first, so that a date made from a count of
    /// milliseconds (`1767323045.678` is not exact as a `Double`) keeps that count.
    /// - Parameter date: The date.
    /// - Returns: The text sent.
    static func traitText(of date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let seconds = (milliseconds / 1000).rounded(.down)
        let fraction = Int(milliseconds - seconds * 1000)
        let whole = Date(timeIntervalSince1970: seconds).formatted(Date.ISO8601FormatStyle())
        let digits = String(fraction)
        return "\(whole.dropLast()).\(String(repeating: "0", count: 3 - digits.count))\(digits)Z"
    }
}
