@_spi(Internal) internal import ConfigModel
internal import Foundation

/// Everything an emulator holds that changes, kept behind one lock by ``ConfigEmulator``.
struct EmulatorState {
    /// One change to the configs, kept so that a reconnecting client can be told what it missed.
    struct Change {
        var version: Int
        var changedKeys: Set<String>
        var removedKeys: Set<String>
    }

    /// A pending `status` fault.
    struct StatusFault {
        var status: Int
        var path: String
        var remaining: Int
        var retryAfter: String?
    }

    enum Phase {
        case idle, running, stopped
    }

    var phase = Phase.idle
    var port = 0
    var listener: Socket?
    var environmentID: String?
    var projectID: String?
    var configs: [String: EmulatedConfig] = [:]
    /// Tells ids of this emulator's events from those of an earlier run.
    let epoch = String(UInt32.random(in: 0...UInt32.max), radix: 36)
    var version = 0
    var history: [Change] = []
    var streams: [Int: StreamChannel] = [:]
    var nextStreamID = 1
    var connections: [ObjectIdentifier: Socket] = [:]
    var requests: [RecordedRequest] = []
    var telemetry: [TelemetryBatch] = []
    var statusFaults: [StatusFault] = []
    var stalls: [(seconds: Double, path: String?)] = []
    var byteByByteEvents = 0
    var closeAfterEvents: [Int] = []

    /// The id of the latest event.
    var eventID: String { "\(epoch)-\(version)" }

    /// The document the configs form now.
    var document: ConfigsDocument {
        ConfigsDocument(
            environmentID: environmentID, projectID: projectID,
            configs: configs.keys.sorted().map { configs[$0]! }
        )
    }

    /// Loads a document's configs without telling anyone (before start, or inside ``replace(with:)``).
    mutating func load(_ document: ConfigsDocument) {
        environmentID = document.environmentID
        projectID = document.projectID
        configs = Dictionary(document.configs.map { ($0.key, $0) }, uniquingKeysWith: { _, last in last })
    }

    // MARK: Config sets

    /// The full set for a context.
    func fullSet(for context: ConfigDirectorContext) -> ConfigSet {
        set(.full, keys: configs.keys, for: context)
    }

    func set(_ kind: ConfigSet.Kind, keys: some Sequence<String>, for context: ConfigDirectorContext) -> ConfigSet {
        var states: [ExactKey: ConfigState] = [:]
        for key in keys {
            if let config = configs[key] { states[ExactKey(key)] = config.state(for: context) }
        }
        return ConfigSet(
            environmentID: environmentID, projectID: projectID, kind: kind,
            timestamp: Self.timestamp(), configs: states
        )
    }

    /// The first event a new stream gets: what it missed since `lastEventID` when that is still held,
    /// otherwise the full set; `nil` when it missed nothing.
    func openingEvent(for context: ConfigDirectorContext, lastEventID: String?) -> [UInt8]? {
        guard let lastEventID, let missedSince = heldVersion(lastEventID) else {
            return SSE.event(id: eventID, set: fullSet(for: context))
        }
        let missed = history.filter { $0.version > missedSince }
        if missed.isEmpty { return nil }
        if missed.contains(where: { !$0.removedKeys.isEmpty }) {
            return SSE.event(id: eventID, set: fullSet(for: context))
        }
        let keys = missed.reduce(into: Set<String>()) { $0.formUnion($1.changedKeys) }
        return SSE.event(id: eventID, set: set(.delta, keys: keys, for: context))
    }

    /// The version an event id names, when it is this emulator's and every change after it is held.
    private func heldVersion(_ id: String) -> Int? {
        let parts = id.split(separator: "-")
        guard parts.count == 2, parts[0] == epoch, let version = Int(parts[1]), version <= self.version else {
            return nil
        }
        let oldestHeld = history.first?.version ?? self.version + 1
        return version >= oldestHeld - 1 ? version : nil
    }

    // MARK: Changes

    /// Replaces the configs and queues, for each open stream, the event its context needs.
    /// - Returns: Whether anything changed.
    @discardableResult
    mutating func replace(with newConfigs: [String: EmulatedConfig], limit: Int, logger: (any ConfigDirectorLogger)?)
        -> Bool
    {
        let removed = Set(configs.keys).subtracting(newConfigs.keys)
        let changed = Set(newConfigs.keys.filter { configs[$0] != newConfigs[$0] })
        guard !removed.isEmpty || !changed.isEmpty else { return false }
        let old = configs
        configs = newConfigs
        version += 1
        history.append(Change(version: version, changedKeys: changed, removedKeys: removed))
        if history.count > limit { history.removeFirst(history.count - limit) }
        for stream in streams.values {
            let context = stream.description.context
            let event: [UInt8]
            if !removed.isEmpty {
                event = SSE.event(id: eventID, set: fullSet(for: context))
            } else {
                let affected = changed.filter { old[$0]?.state(for: context) != configs[$0]?.state(for: context) }
                guard !affected.isEmpty else { continue }
                event = SSE.event(id: eventID, set: set(.delta, keys: affected, for: context))
            }
            if !stream.send(event) {
                logger?.warn("Stream \(stream.description.id) fell too far behind; dropping it")
            }
        }
        return true
    }

    // MARK: Faults

    /// Takes the `status` fault for a path, if one is pending.
    mutating func takeStatusFault(for path: String) -> StatusFault? {
        guard let index = statusFaults.firstIndex(where: { $0.path == path }) else { return nil }
        let fault = statusFaults[index]
        statusFaults[index].remaining -= 1
        if statusFaults[index].remaining <= 0 { statusFaults.remove(at: index) }
        return fault
    }

    /// Takes the stall for a path, if one is pending.
    mutating func takeStall(for path: String) -> Double? {
        guard let index = stalls.firstIndex(where: { $0.path == nil || $0.path == path }) else { return nil }
        return stalls.remove(at: index).seconds
    }

    /// Keeps at most `limit` of the newest records.
    static func append<Element>(_ element: Element, to records: inout [Element], limit: Int) {
        records.append(element)
        if records.count > limit { records.removeFirst(records.count - limit) }
    }

    /// The current time as ISO 8601 UTC with milliseconds.
    static func timestamp(_ date: Date = Date()) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
