@_spi(Internal) @_spi(Locking) internal import ConfigModel
@_spi(Internal) internal import ConfigTransport
internal import Foundation

/// The connection's health: noted under the state's lock with the facts it is read from, and published on
/// ``ClientCore/healthUpdates`` from under that lock when it changed, so that every stream sees the changes in
/// the order they were made.
extension ClientCore {
    /// The connection's health now.
    var connectionHealth: ConnectionHealth {
        state.read { state, _ in state.pointee.health(mode: options.connection.mode) }
    }

    /// A new stream of the health: the current one first, then each change; it finishes when the client closes.
    func subscribeToHealth() -> AsyncStream<ConnectionHealth> {
        state.withLock { state in
            let current = state.health(mode: options.connection.mode)
            state.connection.published = current
            return healthUpdates.subscribe(first: current)
        }
    }

    /// Publishes the health if it changed since it was last published; the caller holds every stripe.
    func publishHealthLocked(_ state: inout ClientState) {
        let health = state.health(mode: options.connection.mode)
        guard health != state.connection.published else { return }
        state.connection.published = health
        healthUpdates.send(health)
    }

    /// A live set was applied, under the lock of the apply: values arrived now.
    func valuesReceivedLocked(_ state: inout ClientState) {
        state.valuesReceived(at: dependencies.clock.now())
        publishHealthLocked(&state)
    }

    /// The transport's connection opened, or a poll succeeded.
    func connectionOpened() {
        updateHealth { state in state.connectionOpened() }
    }

    /// The transport's connection or poll failed for `failure` and tries again in `delay` seconds: the health
    /// waits to retry until then, and turns to connecting when the time comes (on the client's clock).
    func connectionWillRetry(after failure: TransportFailure, delay: Double) {
        let now = dependencies.clock.now()
        let until = now.addingTimeInterval(delay)
        updateHealth { state in
            // Under the state's lock, so that a close, which cancels the timer after it closed the state, comes
            // either before the check or after the timer started.
            guard state.connectionWillRetry(after: failure, at: now, until: until) else { return }
            startRetryTimer(until: until, delay: delay)
        }
    }

    /// Changes the health's facts under the lock, and publishes the health if it changed.
    private func updateHealth(_ change: (inout ClientState) -> Void) {
        state.withLock { state in
            change(&state)
            publishHealthLocked(&state)
        }
    }

    /// Replaces the retry timer with one that turns the health to connecting `delay` seconds from now.
    private func startRetryTimer(until: Date, delay: Double) {
        let clock = dependencies.clock
        retryTimer.withLock { timer in
            timer?.cancel()
            timer = Task { [weak self] in
                guard (try? await clock.sleep(seconds: delay)) != nil, !Task.isCancelled else { return }
                self?.updateHealth { state in state.retryBegan(until: until) }
            }
        }
    }

    /// Ends the health's stream and its timer, once the state is closed.
    func finishHealth() {
        retryTimer.withLock { timer in
            timer?.cancel()
            timer = nil
        }
        healthUpdates.finish()
    }
}
