@_spi(Internal) internal import ConfigModel
internal import Foundation

/// The queue between the emulator, which decides what a stream gets, and the thread that writes it.
final class StreamChannel: @unchecked Sendable {
    // @unchecked Sendable: `queue`, `queuedBytes`, `ending` and `eventsLeft` are only touched while
    // `condition`'s lock is held; the `let`s are Sendable.

    /// What the writer does next.
    enum Next {
        /// Write this event.
        case event([UInt8])
        /// Nothing arrived before the deadline: write a heartbeat.
        case idle
        /// Stop writing; end the chunked body first when `cleanly`.
        case end(cleanly: Bool)
    }

    let description: EmulatorStream
    let socket: Socket
    private let maxQueuedBytes: Int
    private let condition = NSCondition()
    private var queue: [[UInt8]] = []
    private var queuedBytes = 0
    private var ending: Bool?
    private var eventsLeft: Int?

    init(description: EmulatorStream, socket: Socket, maxQueuedBytes: Int, closeAfterEvents: Int?) {
        self.description = description
        self.socket = socket
        self.maxQueuedBytes = maxQueuedBytes
        self.eventsLeft = closeAfterEvents
    }

    /// Queues an event.
    /// - Returns: `false` when the client is too far behind and the stream is now being dropped.
    @discardableResult
    func send(_ event: [UInt8]) -> Bool {
        condition.lock()
        guard ending == nil else {
            condition.unlock()
            return true
        }
        guard queuedBytes + event.count <= maxQueuedBytes else {
            ending = false
            queue.removeAll()
            queuedBytes = 0
            condition.broadcast()
            condition.unlock()
            // The writer may be blocked on this very client: cut the connection to wake it now.
            socket.shutdown()
            return false
        }
        queue.append(event)
        queuedBytes += event.count
        condition.broadcast()
        condition.unlock()
        return true
    }

    /// Asks the writer to stop; `cleanly` ends the chunked body, otherwise the connection is cut.
    func end(cleanly: Bool) {
        condition.lock()
        if ending == nil || ending == true { ending = cleanly }
        condition.broadcast()
        condition.unlock()
        if !cleanly { socket.shutdown() }
    }

    /// Whether the stream has been asked to stop.
    var isEnding: Bool {
        condition.lock()
        defer { condition.unlock() }
        return ending != nil
    }

    /// Waits for the next thing to write, up to `deadline`.
    func next(until deadline: Date) -> Next {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if ending == false { return .end(cleanly: false) }
            if eventsLeft == 0 { return .end(cleanly: true) }
            if !queue.isEmpty {
                let event = queue.removeFirst()
                queuedBytes -= event.count
                if let left = eventsLeft { eventsLeft = left - 1 }
                return .event(event)
            }
            if let ending { return .end(cleanly: ending) }
            if !condition.wait(until: deadline) { return .idle }
        }
    }
}
