@_spi(Internal) @_spi(Locking) internal import ConfigModel
@_spi(Internal) internal import ConfigTransport

extension ClientCore {
    /// Every stripe of the lock, reachable while every stripe is locked.
    typealias ClientStripes = StripedLock<ClientState, EvaluationStripe>.Stripes

    /// Drains every stripe's telemetry cache and hands the collector the batch: on the timer and
    /// when the app enters the background. A flush that sends restarts the timer.
    /// - Parameter isTimer: Whether the timer flushes, which comes again an interval later even when
    ///   there was nothing to send.
    func flushTelemetry(isTimer: Bool = false) {
        guard let telemetry else { return }
        scheduleAfter(telemetry.flush(drainTelemetryCaches()), isTimer: isTimer)
    }

    /// Drains the telemetry caches of every stripe, which the caller holds, and hands the collector
    /// the batch of the previous context before evaluations of the new one can count: for a context
    /// that took effect.
    func flushTelemetry(_ stripes: ClientStripes, changingContextTo context: ConfigDirectorContext?) {
        guard let telemetry else { return }
        var drained = TelemetryAggregates()
        stripes.updateEach { stripe in drained.merge(stripe.telemetry.drain()) }
        scheduleAfter(telemetry.flush(drained, context: .changed(to: context)), isTimer: false)
    }

    /// Every stripe's telemetry cache, each taken in constant time under its own stripe's lock and
    /// drained after it: a flush of 50,000 keys never holds up an evaluation.
    func drainTelemetryCaches() -> TelemetryAggregates {
        var taken: [TelemetryCache] = []
        state.updateEachStripe { stripe in taken.append(stripe.telemetry.takeAll()) }
        var drained = TelemetryAggregates()
        for index in taken.indices { drained.merge(taken[index].drain()) }
        return drained
    }

    /// Starts the timer's next sleep, in place of the one running: the timer flushes `seconds` from now.
    func scheduleTelemetryFlush(after seconds: Double) {
        let clock = dependencies.clock
        telemetryTimer.withLock { timer in
            timer?.cancel()
            timer = Task { [weak self] in
                guard (try? await clock.sleep(seconds: seconds)) != nil, !Task.isCancelled else { return }
                self?.flushTelemetry(isTimer: true)
            }
        }
    }

    /// Schedules the timer after a flush: an interval after one that sent or a timer's, never again
    /// once the collector stopped.
    private func scheduleAfter(_ flushed: TelemetryCollector.Flushed, isTimer: Bool) {
        switch flushed {
        case .sent:
            scheduleTelemetryFlush(after: TelemetryCollector.flushInterval)
        case .nothing:
            if isTimer { scheduleTelemetryFlush(after: TelemetryCollector.flushInterval) }
        case .stopped:
            telemetryTimer.withLock { timer in
                timer?.cancel()
                timer = nil
            }
        }
    }
}
