@_spi(Testing) import ConfigTransport
import Foundation
import TestSupport

/// A fleet of streaming clients on a virtual clock, each reconnecting with the SDK's own `ReconnectBackoff` and
/// its reset rule (`ReconnectBackoff.provenAfter`), before and after issue 31's changes: what a server sees.
private struct FleetSimulation {
    /// What the server does to a connection attempt at a time.
    enum Answer {
        /// The attempt fails at once (an outage): no set.
        case refuse
        /// The server sends the full set and drops the connection at once (a flapping server).
        case sendSetAndDrop
        /// The server sends the full set and keeps the connection: the client is done.
        case serve
    }

    /// The rules the clients follow.
    struct Rules {
        /// Whether the backoff starts over only after a connection proved itself (after), or as soon as it
        /// delivered a set (before).
        var resetOnlyWhenProven: Bool
        /// Whether the clients watch their network path: no attempt without one, and a jittered reconnect when it
        /// returns (after); before, they wait out their backoff.
        var watchesNetworkPath: Bool
    }

    struct Outcome {
        var attemptTimes: [Double] = []
        var setsDownloaded = 0
    }

    let clients: Int
    let rules: Rules
    let answer: (Double) -> Answer
    /// When the clients' own network returns, if it was down from the start (scenario c).
    var networkReturnsAt: Double?

    func run(until end: Double, seed: UInt64) -> Outcome {
        var random = SplitMix64(seed: seed)
        var outcome = Outcome()
        // Every client starts with its connection just dropped: a reconnect, attempt 1.
        var queue = EventQueue()
        var attempts = [Int](repeating: 1, count: clients)
        for client in 0..<clients {
            let delay = ReconnectBackoff.reconnectDelay(
                forAttempt: 1, randomFraction: Double.random(in: 0...1, using: &random))
            queue.push(delay, client)
        }
        while let (time, client) = queue.pop(), time < end {
            if let networkReturnsAt, time < networkReturnsAt {
                if rules.watchesNetworkPath {
                    // No attempt without a network path: the client waits for it, then jitters.
                    let jitter = Double.random(in: 0...1, using: &random) * ReconnectBackoff.networkReturnJitter
                    attempts[client] = 1
                    queue.push(networkReturnsAt + jitter, client)
                    continue
                }
                outcome.attemptTimes.append(time)
                attempts[client] += 1
                queue.push(time + delay(attempts[client], using: &random), client)
                continue
            }
            outcome.attemptTimes.append(time)
            switch answer(time) {
            case .serve:
                outcome.setsDownloaded += 1
            case .refuse:
                attempts[client] += 1
                queue.push(time + delay(attempts[client], using: &random), client)
            case .sendSetAndDrop:
                outcome.setsDownloaded += 1
                // A connection dropped at once never stayed the 60 s that prove it.
                attempts[client] = rules.resetOnlyWhenProven ? attempts[client] + 1 : 1
                queue.push(time + delay(attempts[client], using: &random), client)
            }
        }
        return outcome
    }

    private func delay(_ attempt: Int, using random: inout SplitMix64) -> Double {
        ReconnectBackoff.reconnectDelay(forAttempt: attempt, randomFraction: Double.random(in: 0...1, using: &random))
    }
}

/// A min-heap of (time, client) events.
private struct EventQueue {
    private var heap: [(Double, Int)] = []

    mutating func push(_ time: Double, _ client: Int) {
        heap.append((time, client))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].0 < heap[parent].0 else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> (Double, Int)? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let top = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].0 < heap[smallest].0 { smallest = left }
            if right < heap.count, heap[right].0 < heap[smallest].0 { smallest = right }
            guard smallest != parent else { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return top
    }
}

/// The peak and p99 of attempts per one-second bucket, over the buckets from the first attempt to the last.
private func perSecond(_ times: [Double]) -> (peak: Int, p99: Int) {
    guard let last = times.max() else { return (0, 0) }
    var buckets = [Int](repeating: 0, count: Int(last) + 1)
    for time in times { buckets[Int(time)] += 1 }
    let sorted = buckets.sorted()
    return (sorted.last ?? 0, sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))])
}

/// The largest share of `times` inside any window of one second (sliding).
private func largestOneSecondShare(_ times: [Double]) -> Double {
    let sorted = times.sorted()
    var largest = 0
    var start = 0
    for end in sorted.indices {
        while sorted[end] - sorted[start] >= 1 { start += 1 }
        largest = max(largest, end - start + 1)
    }
    return sorted.isEmpty ? 0 : Double(largest) / Double(sorted.count)
}

/// 16. Fleet simulation (issue 31): 10,000 clients on a virtual clock, through (a) a 10-minute outage, (b) a server
/// that sends the set and drops every connection for 10 minutes, (c) every client's network returning at once.
func benchmarkFleetSimulation() {
    let clients = isQuick ? 2_000 : 10_000
    print("\n== 16. Fleet simulation: \(clients) clients on a virtual clock, the SDK's backoff and reset rule")
    let before = FleetSimulation.Rules(resetOnlyWhenProven: false, watchesNetworkPath: false)
    let after = FleetSimulation.Rules(resetOnlyWhenProven: true, watchesNetworkPath: true)
    let outage: (Double) -> FleetSimulation.Answer = { $0 < 600 ? .refuse : .serve }
    let flapping: (Double) -> FleetSimulation.Answer = { $0 < 600 ? .sendSetAndDrop : .serve }
    var flappingPeaks: [String: Int] = [:]
    for (name, rules) in [("before", before), ("after", after)] {
        let a = FleetSimulation(clients: clients, rules: rules, answer: outage).run(until: 4_000, seed: 1)
        let (aPeak, aP99) = perSecond(a.attemptTimes)
        let b = FleetSimulation(clients: clients, rules: rules, answer: flapping).run(until: 4_000, seed: 2)
        // The steady state of the flapping: after the first minute, in which the first drop's wave (every client
        // at attempt 1, the same before and after) has passed.
        let flappingWindow = b.attemptTimes.filter { $0 >= 60 && $0 < 600 }
        let (bPeak, bP99) = perSecond(flappingWindow)
        flappingPeaks[name] = bPeak
        var network = FleetSimulation(clients: clients, rules: rules, answer: { _ in .serve })
        network.networkReturnsAt = 600
        let c = network.run(until: 4_000, seed: 3)
        let reconnects = c.attemptTimes.filter { $0 >= 600 }
        let share = largestOneSecondShare(reconnects)
        let recovered = (reconnects.max() ?? 600) - 600
        print(
            "  \(name): (a) outage: peak \(aPeak)/s, p99 \(aP99)/s, \(a.setsDownloaded) sets;"
                + " (b) flapping, minutes 1-10: peak \(bPeak)/s, p99 \(bP99)/s, \(b.setsDownloaded) sets in all;"
                + String(
                    format: " (c) network back: %.0f%% in the busiest second, all back in %.0f s", share * 100,
                    recovered)
        )
        report.figure("fleet.\(name).outage_peak_per_s", Double(aPeak))
        report.figure("fleet.\(name).flapping_peak_per_s", Double(bPeak))
        report.figure("fleet.\(name).flapping_sets", Double(b.setsDownloaded))
        report.figure("fleet.\(name).network_return_busiest_second_share", share)
        report.figure("fleet.\(name).network_return_seconds", recovered)
        if name == "after" {
            report.target(
                "fleet.flapping", "a flapping server sees at most 1/20 of the attempts per second it saw before",
                pass: Double(bPeak) <= Double(flappingPeaks["before"] ?? 0) / 20)
            report.target(
                "fleet.network_return", "no one second holds more than 35% of the reconnects when the network returns",
                pass: share <= 0.35)
        }
    }
}
