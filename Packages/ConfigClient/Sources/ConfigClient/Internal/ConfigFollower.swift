@_spi(Internal) @_spi(Locking) internal import ConfigModel

/// What an observed object on the main actor receives: a new value of one of its slots.
@MainActor
protocol ConfigFollowerTarget: AnyObject {
    /// Takes `value`, the newest value of the slot `slot`.
    func receive(_ value: any Sendable, slot: UInt64)
}

/// Follows keys for an observed object: one watcher per slot, whose new values are handed, in the order
/// the watchers yield them, to the object on the main actor. A slot is the id of its watcher, which the
/// client never gives twice, so that a value still in the stream when its slot was released reaches no
/// other slot.
///
/// The watchers run after the client's lock is released, like those of `values(for:)`, and yield into
/// one unbounded stream (each watcher yields only values that differ from its last one); a task on the
/// main actor reads it and hands each value to the target, which it holds weakly. ``unfollow(_:)``
/// removes one slot's watcher; ``stop()`` removes them all and ends the task, and the owner calls it
/// when it is released.
final class ConfigFollower: Sendable {
    private typealias Delivery = (slot: UInt64, value: any Sendable)

    private struct Following {
        /// The key of each slot's watcher, by the slot.
        var watchers: [UInt64: String] = [:]
        var task: Task<Void, Never>?
        var isStopped = false
    }

    /// The client's core, not the client: a followed object does not keep the client open.
    private let core: ClientCore
    private let stream: AsyncStream<Delivery>
    private let continuation: AsyncStream<Delivery>.Continuation
    private let following = Locked(Following())

    init(client: ConfigDirectorClient) {
        core = client.core
        (stream, continuation) = AsyncStream.makeStream(of: Delivery.self)
    }

    /// Starts following `key` in a new slot.
    /// - Returns: The slot, and the key's current value, evaluated and reported at once.
    func follow<Value: Equatable & Sendable>(
        _ key: String,
        _ evaluation: WatchedEvaluation<Value>
    ) -> (slot: UInt64, value: Value) {
        let slot = core.makeWatcherID()
        let watcher = Watcher(
            yield: { [continuation] value in continuation.yield((slot, value)) },
            onFinish: {},
            evaluate: evaluation.evaluate,
            report: evaluation.report
        )
        let isFollowing = following.withLock { following -> Bool in
            guard !following.isStopped else { return false }
            following.watchers[slot] = key
            return true
        }
        if isFollowing, core.addWatcher(watcher, id: slot, for: key), let value = watcher.lastValue {
            return (slot, value)
        }
        // A closed client (or a stopped follower) follows nothing: the value is evaluated once.
        let evaluated = evaluation.evaluate()
        evaluation.report(evaluated)
        return (slot, evaluated.value)
    }

    /// Stops following the slot `slot`: its watcher is removed from the client.
    func unfollow(_ slot: UInt64) {
        guard let key = following.withLock({ $0.watchers.removeValue(forKey: slot) }) else { return }
        core.removeWatcher(slot, for: key)
    }

    /// Starts handing the values followed to `target`, on the main actor, until ``stop()``.
    @MainActor
    func start(_ target: some ConfigFollowerTarget) {
        let task = Task { @MainActor [stream, weak target] in
            for await delivery in stream {
                target?.receive(delivery.value, slot: delivery.slot)
            }
        }
        let isStopped = following.withLock { following -> Bool in
            following.task = task
            return following.isStopped
        }
        if isStopped { task.cancel() }
    }

    /// Stops following: removes every watcher from the client and ends the task.
    func stop() {
        let stopped = following.withLock { following -> Following? in
            guard !following.isStopped else { return nil }
            defer { following = Following(isStopped: true) }
            return following
        }
        guard let stopped else { return }
        for (slot, key) in stopped.watchers { core.removeWatcher(slot, for: key) }
        continuation.finish()
        stopped.task?.cancel()
    }
}
