internal import Foundation

/// Waits, in short real sleeps, until `condition` holds, for at most `timeout` seconds: for state that has
/// no event of its own to await. A test that checks that something did *not* happen must not use it (it
/// would pass on a regression that is merely slow): it waits for a point after which it would have.
/// - Parameters:
///   - timeout: The longest wait, in seconds of real time.
///   - condition: What to wait for; polled every 5 ms.
/// - Returns: Whether the condition held in time.
public func eventually(timeout: Double = 5, _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while Date() < deadline {
        if try condition() { return true }
        try? await Task.sleep(nanoseconds: 5_000_000)
    }
    return try condition()
}
