internal import Foundation

/// The bounded buffer between a connection and the transport that reads it: backpressure end to end.
///
/// The connection's side hands parts in; the reader takes them out through ``stream``, one at a time
/// as it asks. At most ``capacity`` bytes of body wait in between (plus the part being handed in): past
/// that, ``put(_:)`` blocks the connection's thread until the reader has taken enough out, and
/// ``offer(_:pausing:)`` says so to a connection that cannot block (`URLSession`'s, which then suspends its task
/// until ``init(capacity:onDrained:onAbandoned:)``'s `onDrained` runs). So a connection is read only as
/// fast as the parser consumes, and a stream the parser refuses is never read further than the buffer.
///
/// When the reader goes away (its task is cancelled, or it drops the stream), `onAbandoned` runs once,
/// so that the connection is closed at once.
final class BoundedParts: @unchecked Sendable {  // Every access to `state` holds `condition`.
    /// The bytes of body a connection may read ahead of its reader: four reads of a socket.
    static let defaultCapacity = 256 * 1024

    /// What ``put(_:)`` and ``offer(_:pausing:)`` found.
    enum Handed: Equatable {
        /// The part was taken; there is room for more.
        case accepted
        /// The part was taken, and the buffer is full: wait for `onDrained` before handing in more.
        case full
        /// The parts ended, or the reader went away: the part was dropped, and the connection should end.
        case ended
    }

    private struct State {
        /// The parts handed in, the next to take at `head`; those before it were taken (empty placeholders).
        var parts: [HTTPResponsePart] = []
        var head = 0
        var bufferedBytes = 0
        var ending: Result<Void, any Error>?
        var reader: CheckedContinuation<HTTPResponsePart?, any Error>?
        var isReaderGone = false
        var isProducerPaused = false
    }

    /// The most bytes of body buffered before the connection waits.
    let capacity: Int
    private let condition = NSCondition()
    private var state = State()
    private let onDrained: @Sendable () -> Void
    private let onAbandoned: @Sendable () -> Void

    /// Creates a buffer.
    /// - Parameters:
    ///   - capacity: The most bytes of body buffered before the connection waits.
    ///   - onDrained: Runs, under the buffer's lock, when a buffer that ``offer(_:pausing:)`` reported full
    ///     has room again.
    ///   - onAbandoned: Runs once when the reader goes away before the parts end.
    init(
        capacity: Int = defaultCapacity,
        onDrained: @escaping @Sendable () -> Void = {},
        onAbandoned: @escaping @Sendable () -> Void
    ) {
        self.capacity = max(1, capacity)
        self.onDrained = onDrained
        self.onAbandoned = onAbandoned
    }

    /// The parts, taken out one at a time as the reader asks; ends when the parts end or the reader's
    /// task is cancelled.
    var stream: AsyncThrowingStream<HTTPResponsePart, any Error> {
        let reader = Reader(parts: self)
        return AsyncThrowingStream(unfolding: { try await reader.parts.next() })
    }

    /// Keeps the buffer for the stream's closure, and tells it when the stream is dropped.
    private final class Reader: Sendable {
        let parts: BoundedParts
        init(parts: BoundedParts) { self.parts = parts }
        deinit { parts.readerGone() }
    }

    // MARK: The connection's side

    /// Hands `part` in, and blocks the calling thread while the buffer is full.
    /// - Returns: ``Handed/accepted``, or ``Handed/ended`` when the parts ended or the reader went away.
    func put(_ part: HTTPResponsePart) -> Handed {
        let handed = offer(part)
        guard handed == .full else { return handed }
        condition.lock()
        defer { condition.unlock() }
        while state.isProducerPaused, state.ending == nil, !state.isReaderGone {
            condition.wait()
        }
        state.isProducerPaused = false
        return state.ending == nil && !state.isReaderGone ? .accepted : .ended
    }

    /// Hands `part` in without blocking.
    /// - Parameter pause: Run, under the buffer's lock, when the part fills the buffer; `onDrained` runs
    ///   under the same lock, so that it never comes before the pause it undoes.
    /// - Returns: Whether it was taken, and whether the buffer is full now.
    func offer(_ part: HTTPResponsePart, pausing pause: () -> Void = {}) -> Handed {
        condition.lock()
        guard state.ending == nil, !state.isReaderGone else {
            condition.unlock()
            return .ended
        }
        if let reader = state.reader {
            state.reader = nil
            condition.unlock()
            reader.resume(returning: part)
            return .accepted
        }
        state.parts.append(part)
        state.bufferedBytes += Self.size(of: part)
        let isFull = state.bufferedBytes >= capacity
        if isFull {
            state.isProducerPaused = true
            pause()
        }
        condition.unlock()
        return isFull ? .full : .accepted
    }

    /// Ends the parts: the reader gets those buffered, then the end, or `error`. Later calls do nothing.
    func finish(throwing error: (any Error)? = nil) {
        condition.lock()
        guard state.ending == nil else {
            condition.unlock()
            return
        }
        state.ending = error.map { .failure($0) } ?? .success(())
        let reader = state.head == state.parts.count ? state.reader : nil
        if reader != nil { state.reader = nil }
        condition.broadcast()
        condition.unlock()
        if let reader {
            if let error { reader.resume(throwing: error) } else { reader.resume(returning: nil) }
        }
    }

    // MARK: The reader's side

    private func next() async throws -> HTTPResponsePart? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (reader: CheckedContinuation<HTTPResponsePart?, any Error>) in
                condition.lock()
                if state.isReaderGone {
                    condition.unlock()
                    reader.resume(returning: nil)
                } else if state.head < state.parts.count {
                    let part = takeLocked()
                    resumeProducerIfDrainedLocked()
                    condition.unlock()
                    reader.resume(returning: part)
                } else if let ending = state.ending {
                    condition.unlock()
                    reader.resume(with: ending.map { nil })
                } else {
                    state.reader = reader
                    condition.unlock()
                }
            }
        } onCancel: {
            readerGone()
        }
    }

    /// The reader's task was cancelled, or its stream dropped: the connection is told once.
    private func readerGone() {
        condition.lock()
        let wasGone = state.isReaderGone
        state.isReaderGone = true
        let reader = state.reader
        state.reader = nil
        let isEnded = state.ending != nil
        condition.broadcast()
        condition.unlock()
        reader?.resume(returning: nil)
        if !wasGone, !isEnded { onAbandoned() }
    }

    /// Takes the oldest part out. A reader that never catches up (a connection paused at the capacity resumes at
    /// half of it, so the buffer may never empty) must not keep the parts it took: each is let go as it is taken,
    /// and the slots before ``State/head`` are dropped once they are half of the array.
    private func takeLocked() -> HTTPResponsePart {
        let part = state.parts[state.head]
        state.parts[state.head] = .body(Data())
        state.head += 1
        state.bufferedBytes -= Self.size(of: part)
        if state.head == state.parts.count {
            state.parts.removeAll(keepingCapacity: true)
            state.head = 0
        } else if state.head >= 64, state.head * 2 >= state.parts.count {
            state.parts.removeFirst(state.head)
            state.head = 0
        }
        return part
    }

    /// Lets a paused connection go on once the buffer is down to half its capacity.
    private func resumeProducerIfDrainedLocked() {
        guard state.isProducerPaused, state.bufferedBytes <= capacity / 2 else { return }
        state.isProducerPaused = false
        condition.broadcast()
        onDrained()
    }

    private static func size(of part: HTTPResponsePart) -> Int {
        if case .body(let data) = part { return data.count }
        return 0
    }
}
