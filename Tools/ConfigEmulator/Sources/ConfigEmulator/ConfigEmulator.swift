@_spi(Internal) @_spi(Locking) public import ConfigModel
public import Foundation

/// A local ConfigDirector server for development and tests: it speaks the client protocol over HTTP on
/// loopback, serves configs with per-context values, takes changes while clients are connected, records
/// what it receives and injects faults on demand.
///
/// ```swift
/// let emulator = ConfigEmulator(configs: [EmulatedConfig(key: "dark-mode", type: .boolean, value: true)])
/// let port = try emulator.start()
/// defer { emulator.stop() }
/// emulator.setConfig(EmulatedConfig(key: "dark-mode", type: .boolean, value: false))
/// ```
///
/// Every open connection has a thread of its own; ``stop()`` closes them all and returns once every
/// thread the emulator started has finished. A started emulator runs until ``stop()``: releasing it does not
/// stop it, because its threads hold it.
public final class ConfigEmulator: Sendable {
    /// How the emulator listens, what it serves at start and the limits it keeps.
    public let configuration: EmulatorConfiguration
    let state: Locked<EmulatorState>
    let threads = WorkerThreads()
    let stopSignal = StopSignal()
    let changes = ChangeSignal()
    let gate: AdminGate

    /// Creates an emulator that serves `configuration.document`; it listens once ``start()`` is called.
    /// - Parameter configuration: The address, SDK key, configs and limits.
    public init(configuration: EmulatorConfiguration) {
        self.configuration = configuration
        let token =
            configuration.adminToken
            ?? (AdminGate.isLoopback(configuration.host) ? nil : Self.generatedToken())
        self.gate = AdminGate(host: configuration.host, token: token)
        var state = EmulatorState()
        state.load(configuration.document)
        self.state = Locked(state)
    }

    /// Creates an emulator on `127.0.0.1` that serves `configs`.
    /// - Parameters:
    ///   - configs: The configs served at start.
    ///   - sdkKey: The client SDK key accepted.
    ///   - port: The port; 0 picks a free one.
    public convenience init(configs: [EmulatedConfig], sdkKey: String = "emulator-sdk-key", port: Int = 0) {
        self.init(
            configuration: EmulatorConfiguration(
                port: port, sdkKey: sdkKey, document: ConfigsDocument(configs: configs)
            )
        )
    }

    // MARK: Lifecycle

    /// Starts listening and serving.
    /// - Returns: The port listened on, the system's choice when the configured port is 0.
    /// - Throws: ``EmulatorError/alreadyStarted`` when called twice, ``EmulatorError/cannotListen(_:)``
    ///   when the address cannot be bound.
    @discardableResult
    public func start() throws -> Int {
        let listener: Socket
        let port: Int
        do {
            (listener, port) = try Socket.listen(
                host: configuration.host, port: configuration.port, backlog: 1024
            )
        } catch {
            throw EmulatorError.cannotListen("\(error)")
        }
        try state.withLock { state in
            guard state.phase == .idle else { throw EmulatorError.alreadyStarted }
            state.phase = .running
            state.port = port
            state.listener = listener
        }
        threads.spawn(name: "config-emulator-accept") { [self] in acceptLoop(listener: listener) }
        if let file = configuration.watchedFile {
            threads.spawn(name: "config-emulator-watch") { [self] in watchLoop(file: file) }
        }
        log(.info, "Listening on http://\(configuration.host):\(port)")
        return port
    }

    /// Stops serving: closes the listening socket and every connection, and returns once every thread
    /// the emulator started has finished. Calling it again does nothing.
    public func stop() {
        let running: (listener: Socket?, connections: [Socket], streams: [StreamChannel])? = state.withLock { state in
            guard state.phase != .stopped else { return nil }
            defer { state.phase = .stopped }
            guard state.phase == .running else { return (nil, [], []) }
            return (state.listener, Array(state.connections.values), Array(state.streams.values))
        }
        guard let running else { return }
        stopSignal.fire()
        changes.bump()
        for stream in running.streams { stream.end(cleanly: false) }
        for connection in running.connections { connection.shutdown() }
        if !threads.join(until: Date(timeIntervalSinceNow: 10)) {
            log(.error, "\(threads.count) emulator threads did not finish within 10 s of stop()")
        }
        running.listener?.close()
        state.withLock { $0.listener = nil }
        log(.info, "Stopped")
    }

    /// Whether the emulator has started and not stopped.
    public var isRunning: Bool { state.withLock { $0.phase == .running } }

    /// The port listened on; 0 before ``start()``.
    public var port: Int { state.withLock { $0.port } }

    /// The base URL to give an SDK: `http://<host>:<port>`.
    public var baseURL: URL { URL(string: "http://\(configuration.host):\(port)")! }

    /// The dashboard's URL: the page served at `/`.
    public var dashboardURL: URL { URL(string: "http://\(configuration.host):\(port)/")! }

    /// The token that admin requests carry as the value of `X-Emulator-Admin`: the configuration's, or
    /// one generated when the emulator listens beyond loopback without one; `nil` when the value is `1`.
    public var adminToken: String? { gate.token }

    /// The number of threads the emulator has running: the acceptor, the watcher and one per connection.
    public var activeThreadCount: Int { threads.count }

    // MARK: Configs

    /// The configs served now.
    public var document: ConfigsDocument { state.withLock { $0.document } }

    /// Adds a config or replaces the one with the same key, and pushes a delta to every stream whose
    /// context sees a different value.
    /// - Parameter config: The config.
    public func setConfig(_ config: EmulatedConfig) {
        update { $0[config.key] = config }
    }

    /// Changes the value a config serves when no rule matches, keeping its type and rules.
    /// - Parameters:
    ///   - value: The new value; ``ConfigDirectorContext/TraitValue/null`` serves no value.
    ///   - key: The config's key.
    /// - Returns: `false` when there is no config with that key.
    @discardableResult
    public func setValue(_ value: ConfigDirectorContext.TraitValue, forKey key: String) -> Bool {
        var found = false
        update { configs in
            found = configs[key] != nil
            configs[key]?.value = value
        }
        return found
    }

    /// Removes a config; every stream gets a full set without it (the protocol has no tombstones).
    /// - Parameter key: The config's key.
    /// - Returns: `false` when there was no config with that key.
    @discardableResult
    public func removeConfig(forKey key: String) -> Bool {
        var found = false
        update { configs in found = configs.removeValue(forKey: key) != nil }
        return found
    }

    /// Replaces every config and the environment and project ids; streams get a delta of what changed
    /// for their context, or a full set when keys were removed.
    /// - Parameter document: The new configs.
    public func replaceConfigs(_ document: ConfigsDocument) {
        state.withLock { state in
            state.environmentID = document.environmentID
            state.projectID = document.projectID
            let configs = Dictionary(document.configs.map { ($0.key, $0) }, uniquingKeysWith: { _, last in last })
            state.replace(with: configs, limit: configuration.heldChanges, logger: configuration.logger)
        }
        changes.bump()
    }

    private func update(_ change: (inout [String: EmulatedConfig]) -> Void) {
        state.withLock { state in
            var configs = state.configs
            change(&configs)
            state.replace(with: configs, limit: configuration.heldChanges, logger: configuration.logger)
        }
        changes.bump()
    }

    // MARK: Records

    /// The requests received on every path but `/admin/…`, oldest first.
    /// - Parameter path: Only those to this path, when given.
    /// - Returns: The recorded requests.
    public func recordedRequests(path: String? = nil) -> [RecordedRequest] {
        state.withLock { state in state.requests.filter { path == nil || $0.path == path } }
    }

    /// The telemetry batches accepted, oldest first.
    public func telemetryBatches() -> [TelemetryBatch] {
        state.withLock { $0.telemetry }
    }

    /// Forgets the recorded requests and telemetry batches.
    public func clearRecords() {
        state.withLock { state in
            state.requests.removeAll()
            state.telemetry.removeAll()
        }
        changes.bump()
    }

    /// The streams open now, in the order they opened.
    public func openStreams() -> [EmulatorStream] {
        state.withLock { state in state.streams.keys.sorted().map { state.streams[$0]!.description } }
    }

    /// Waits until a stream that satisfies `predicate` is open.
    /// - Parameters:
    ///   - timeout: The longest wait, in seconds.
    ///   - predicate: Which stream to wait for; any by default.
    /// - Returns: The first such stream.
    /// - Throws: ``EmulatorError/timedOut(_:)`` when none opened in time; `CancellationError` when cancelled.
    @discardableResult
    public func waitForStream(
        timeout: TimeInterval = 5,
        where predicate: @Sendable (EmulatorStream) -> Bool = { _ in true }
    ) async throws -> EmulatorStream {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            if let stream = openStreams().first(where: predicate) { return stream }
            guard Date() < deadline else { throw EmulatorError.timedOut("a stream to open") }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
    }

    /// Waits until at least `count` streams are open.
    /// - Parameters:
    ///   - count: The number of streams.
    ///   - timeout: The longest wait, in seconds.
    /// - Returns: The open streams.
    /// - Throws: ``EmulatorError/timedOut(_:)`` when fewer were open in time; `CancellationError` when cancelled.
    @discardableResult
    public func waitForStreams(count: Int, timeout: TimeInterval = 5) async throws -> [EmulatorStream] {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            let streams = openStreams()
            if streams.count >= count { return streams }
            guard Date() < deadline else { throw EmulatorError.timedOut("\(count) streams (\(streams.count) open)") }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
    }

    // MARK: Faults

    /// Injects a fault; see ``EmulatorFault`` for when each takes effect.
    /// - Parameter fault: The fault; one whose parameters are out of range (``EmulatorFault/isValid``) is ignored.
    public func inject(_ fault: EmulatorFault) {
        guard fault.isValid else {
            log(.warn, "Ignoring a fault whose parameters are out of range: \(fault)")
            return
        }
        let streams: [StreamChannel] = state.withLock { state in
            switch fault {
            case .status(let status, let path, let count, let retryAfter):
                state.statusFaults.append(.init(status: status, path: path, remaining: count, retryAfter: retryAfter))
            case .stall(let seconds, let path): state.stalls.append((seconds, path))
            case .byteByByte: state.byteByByteEvents += 1
            case .closeAfterEvents(let count): state.closeAfterEvents.append(count)
            case .dropStreams, .malformedEvent, .oversizedEvent: break
            }
            return state.streams.keys.sorted().map { state.streams[$0]! }
        }
        switch fault {
        case .dropStreams: for stream in streams { stream.end(cleanly: false) }
        case .malformedEvent: for stream in streams { stream.send(SSE.malformed) }
        case .oversizedEvent(let bytes):
            let event = SSE.oversized(bytes: bytes, timestamp: EmulatorState.timestamp())
            for stream in streams { stream.send(event) }
        case .status, .stall, .byteByByte, .closeAfterEvents: break
        }
        log(.info, "Injected fault \(fault)")
    }

    /// Forgets every fault that has not taken effect yet.
    public func clearFaults() {
        state.withLock { state in
            state.statusFaults.removeAll()
            state.stalls.removeAll()
            state.byteByByteEvents = 0
            state.closeAfterEvents.removeAll()
        }
    }

    /// 32 random hexadecimal digits.
    private static func generatedToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let text = String(generator.next() as UInt32, radix: 16)
            return String(repeating: "0", count: 8 - text.count) + text
        }.joined()
    }

    func log(_ level: ConfigDirectorLogLevel, _ message: @autoclosure () -> String) {
        guard let logger = configuration.logger, level != .off, level <= logger.level else { return }
        logger.log(level, message: message(), error: nil)
    }
}
