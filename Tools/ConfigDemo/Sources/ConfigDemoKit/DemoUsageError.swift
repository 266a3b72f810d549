/// A command line the demo cannot run: an unknown option, a missing value, options that do not go together.
public struct DemoUsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the arguments.
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
