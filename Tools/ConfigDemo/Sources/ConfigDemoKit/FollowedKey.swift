internal import ConfigDirector

/// A config the demo prints, and the Swift type it reads the config as.
struct FollowedKey: Sendable, Hashable {
    /// The Swift types the demo reads configs as.
    enum ValueType: String, Sendable, Hashable, CaseIterable {
        case bool, int, double, string, json

        /// The type an app would read a config of `type` as.
        init(_ type: ConfigType) {
            switch type {
            case .boolean: self = .bool
            case .integer: self = .int
            case .float: self = .double
            case .json: self = .json
            default: self = .string
            }
        }
    }

    var key: String
    var type: ValueType

    /// Parses `KEY:TYPE`, as `--key` takes it.
    init(argument: String) throws(DemoUsageError) {
        guard let colon = argument.lastIndex(of: ":"), colon != argument.startIndex,
            let type = ValueType(rawValue: String(argument[argument.index(after: colon)...]))
        else {
            let types = ValueType.allCases.map(\.rawValue).joined(separator: ", ")
            throw DemoUsageError("--key needs KEY:TYPE with a TYPE of \(types); got '\(argument)'")
        }
        self.init(key: String(argument[..<colon]), type: type)
    }

    init(key: String, type: ValueType) {
        self.key = key
        self.type = type
    }
}
