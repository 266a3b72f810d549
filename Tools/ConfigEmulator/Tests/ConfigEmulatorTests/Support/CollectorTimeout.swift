/// A wait that ran out, with what had arrived by then.
struct CollectorTimeout: Error, CustomStringConvertible {
    let received: String
    var description: String { "timed out; received so far: \(received.prefix(2000))" }
}
