/// A step of the story that did not behave: which one, and what went wrong.
public struct DemoFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The step's number, 1 to 6; 0 before the story starts.
    public var step: Int
    /// What the step expected and what happened instead.
    public var message: String

    /// Creates a failure.
    /// - Parameters:
    ///   - step: The step's number.
    ///   - message: What went wrong.
    public init(step: Int, _ message: String) {
        self.step = step
        self.message = message
    }

    /// `step N failed: message`.
    public var description: String {
        step == 0 ? "the demo could not start: \(message)" : "step \(step) failed: \(message)"
    }
}
