/// Waits, in short real sleeps, until `condition` holds: for state that has no event of its own to
/// await. A test that checks that something did *not* happen must not use it (it would pass on a
/// regression that is merely slow): it waits for a point after which it would have.
///
/// The bound counts polls, not wall-clock time: `timeout` seconds make `timeout / 5 ms` polls 5 ms
/// apart, so that the time the waiting task spends waiting for a thread (a loaded machine, a suite that
/// blocks the cooperative pool for a while) does not use up the wait while the code under test is just
/// as starved.
/// - Parameters:
///   - timeout: The wait, in seconds of 5 ms polls.
///   - condition: What to wait for.
/// - Returns: Whether the condition held in time.
public func eventually(timeout: Double = 5, _ condition: () throws -> Bool) async rethrows -> Bool {
    let polls = max(1, Int(timeout / 0.005))
    for _ in 0..<polls {
        if try condition() { return true }
        try? await Task.sleep(nanoseconds: 5_000_000)
    }
    return try condition()
}
