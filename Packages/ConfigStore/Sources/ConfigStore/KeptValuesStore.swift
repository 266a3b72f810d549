@_spi(Internal) @_spi(Locking) @_spi(Storage) public import ConfigModel
public import Foundation

/// The values a client keeps on the device: the last config set of a context, served on the next
/// launch of the same context until live values arrive, and the install's instance id.
///
/// The client owns one store. ``save(_:for:)`` returns at once and may be called from any thread, the
/// thread that evaluates configs included: the entry is encoded and written later on the store's own
/// serial queue, and a burst of saves within the coalescing window ends in one write of the last state.
/// ``load(for:)``, ``instanceID()``, ``flush()`` and ``close()`` are `async` and do their I/O on that
/// queue as well, so no storage is touched on the calling thread, the main thread included. The I/O
/// blocks: the queues run it on their dispatch queues (``SerialQueue/runBlocking(_:)``) while the operation
/// suspends, so that no thread of the cooperative pool waits on storage.
///
/// Storage never stops the client: a provider that throws is logged once and the store goes on without
/// it; an entry above the provider's size limit is not written, the one kept before is removed, and one
/// warning is logged; an entry that does not decode, has another format version or another SDK key is
/// ignored and removed.
@_spi(Internal) public final class KeptValuesStore: Sendable {
    /// Runs `work` once after `delay` seconds, on any thread.
    @_spi(Testing)
    public typealias WriteScheduler = @Sendable (_ delay: TimeInterval, _ work: @escaping @Sendable () -> Void) -> Void

    /// How long saves are gathered before one write, in seconds, unless another window is given.
    public static let defaultCoalescingWindow: TimeInterval = 1

    /// Whether values are kept; when `false` nothing is read or written but the instance id.
    public let isEnabled: Bool

    private let provider: any CachingProvider
    private let instanceIDProvider: any CachingProvider
    private let sdkKeyHash: String
    private let logger: any ConfigDirectorLogger
    private let coalescingWindow: TimeInterval
    private let scheduleWrite: WriteScheduler
    private let now: @Sendable () -> Date
    /// The queue of the kept values' reads and writes.
    private let queue = SerialQueue(label: "com.configdirector.kept-values")
    /// The instance id's own queue, so that a slow read of the values never delays the connection,
    /// which needs the id. Operations of `queue` may wait for it, never the other way round.
    private let instanceIDQueue = SerialQueue(label: "com.configdirector.instance-id")
    /// What callers hand over to the queue.
    private let pending = Locked(PendingState())
    /// What the queue remembers between its jobs; only touched on `queue`.
    private let queueState = Locked(QueueState())

    private struct PendingSave: Sendable {
        var set: ConfigSet
        var context: ConfigDirectorContext?
    }

    private struct PendingState {
        var save: PendingSave?
        var isWriteScheduled = false
        var isClosed = false
        /// Whether anything was ever saved: a store that saved nothing has nothing to flush or close.
        var hasSaved = false
    }

    private struct QueueState {
        var instanceID: String?
        var hasReportedFailure = false
        var hasWarnedAboutSize = false
        var isEntryKnownAbsent = false
    }

    /// Creates the store of a client.
    /// - Parameters:
    ///   - clientSDKKey: The client SDK key; only its SHA-256 is kept.
    ///   - options: Whether values are kept, and where; see ``CachingOptions``.
    ///   - logger: Where storage failures and oversized entries are reported.
    public convenience init(
        clientSDKKey: String,
        options: CachingOptions = CachingOptions(),
        logger: any ConfigDirectorLogger
    ) {
        self.init(
            clientSDKKey: clientSDKKey,
            options: options,
            logger: logger,
            coalescingWindow: Self.defaultCoalescingWindow
        )
    }

    /// Creates the store of a client with its time injected.
    /// - Parameters:
    ///   - clientSDKKey: The client SDK key; only its SHA-256 is kept.
    ///   - options: Whether values are kept, and where.
    ///   - logger: Where storage failures and oversized entries are reported.
    ///   - coalescingWindow: How long saves are gathered before one write, in seconds.
    ///   - scheduleWrite: Runs the coalesced write after the window; `nil` for a dispatch timer.
    ///   - now: The time written into entries.
    @_spi(Testing)
    public init(
        clientSDKKey: String,
        options: CachingOptions,
        logger: any ConfigDirectorLogger,
        coalescingWindow: TimeInterval,
        scheduleWrite: WriteScheduler? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        let provider = options.resolvedProvider(forClientSDKKey: clientSDKKey)
        self.provider = provider
        instanceIDProvider = provider.instanceIDProvider()
        isEnabled = options.enabled
        sdkKeyHash = SHA256Digest.hexHash(of: clientSDKKey)
        self.logger = logger
        self.coalescingWindow = coalescingWindow
        self.scheduleWrite =
            scheduleWrite ?? { delay, work in
                DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + delay, execute: work)
            }
        self.now = now
    }

    // MARK: - API

    /// The config set kept for `context`, or `nil` when there is none to serve.
    ///
    /// An entry is served only for a context of the same kind and id; for a context without an id, only
    /// on the install that wrote it (same instance id). A context with an invalid kind counts as no
    /// context, as it does in evaluation. An entry that does not decode, has another format version or
    /// another SDK key is removed. A save not written yet is served before what the provider holds.
    /// - Parameter context: The context about to be evaluated; `nil` when none is set.
    /// - Returns: The last config set saved for the context, or `nil`; always `nil` when disabled.
    public func load(for context: ConfigDirectorContext?) async -> ConfigSet? {
        guard isEnabled else { return nil }
        return await queue.perform { await self.loadOnQueue(for: context) }
    }

    /// Keeps `set` as the state of `context`, to be written within the coalescing window.
    ///
    /// Returns at once without I/O; safe from any thread. Saves made within the window are coalesced
    /// into one write of the last one. Nothing happens when the store is disabled or closed.
    /// - Parameters:
    ///   - set: The client's whole current state, as a full config set.
    ///   - context: The context the state was evaluated for; `nil` when none is set.
    public func save(_ set: ConfigSet, for context: ConfigDirectorContext?) {
        guard isEnabled else { return }
        let needsSchedule = pending.withLock { state -> Bool in
            guard !state.isClosed else { return false }
            state.save = PendingSave(set: set, context: context)
            state.hasSaved = true
            guard !state.isWriteScheduled else { return false }
            state.isWriteScheduled = true
            return true
        }
        guard needsSchedule else { return }
        scheduleWrite(coalescingWindow) { [self] in
            queue.enqueue { await self.writeWhenScheduled() }
        }
    }

    /// Writes the last save now if it is not written yet, and returns once it is.
    ///
    /// A store that never saved anything returns at once, without a hop to its queue: releasing a
    /// thousand clients that never connected must not wake a thousand queues (and threads).
    public func flush() async {
        guard pending.withLock(\.hasSaved) else { return }
        await queue.perform { await self.writePendingSave() }
    }

    /// Writes the last save if it is not written yet, and ignores later saves.
    public func close() async {
        pending.withLock { $0.isClosed = true }
        await flush()
    }

    /// This install's instance id (PROTOCOL §2): a UUID read from the provider's instance id entry, or
    /// created and written there when the entry is missing or unreadable. It is the same for the life of
    /// the store, and works whether or not values are kept.
    /// - Returns: The UUID string, in upper case.
    public func instanceID() async -> String {
        if let known = queueState.withLock(\.instanceID) { return known }
        return await instanceIDQueue.performBlocking { self.instanceIDOnQueue() }
    }

    // MARK: - Queue

    // Only called in operations of `queue`.
    private func writeWhenScheduled() async {
        let save = pending.withLock { state -> PendingSave? in
            state.isWriteScheduled = false
            defer { state.save = nil }
            return state.save
        }
        if let save { await write(save) }
    }

    // Only called in operations of `queue`.
    private func writePendingSave() async {
        let save = pending.withLock { state -> PendingSave? in
            defer { state.save = nil }
            return state.save
        }
        if let save { await write(save) }
    }

    // Only called in operations of `queue`.
    private func write(_ save: PendingSave) async {
        let context = await keptContext(for: save.context)
        await queue.runBlocking { self.write(save, context: context) }
    }

    /// Encodes and writes the entry; blocks. Only called in operations of `queue`.
    private func write(_ save: PendingSave, context: KeptContext) {
        let entry = KeptValuesEntry(
            formatVersion: KeptValuesEntry.currentFormatVersion,
            sdkVersion: ConfigDirectorSDK.version,
            sdkKeyHash: sdkKeyHash,
            context: context,
            writtenAt: now(),
            configSet: save.set
        )
        let text: String
        do {
            text = String(decoding: try KeptValuesEntry.makeEncoder().encode(entry), as: UTF8.self)
        } catch {
            reportFailure("encode the values to keep", error: error)
            return
        }
        let size = text.utf8.count
        let limit = provider.sizeLimit()
        guard size <= limit else {
            warnAboutSize(
                "The values to keep on the device take \(size) bytes, above the caching provider's limit of "
                    + "\(limit) bytes: they are not kept, and the values kept before are removed. Give CachingOptions "
                    + "a provider with a larger limit, such as FileCachingProvider, to keep them. This is logged once."
            )
            removeEntryIfPresent()
            return
        }
        if attempt("write the values kept on the device", { try provider.write(text) }) != nil {
            queueState.withLock { $0.isEntryKnownAbsent = false }
        }
    }

    // Only called in operations of `queue`.
    private func loadOnQueue(for context: ConfigDirectorContext?) async -> ConfigSet? {
        let requested = await keptContext(for: context)
        let unwritten = pending.withLock { $0.save }
        if let unwritten, await keptContext(for: unwritten.context) == requested { return unwritten.set }
        return await queue.runBlocking { self.read(for: requested) }
    }

    /// Reads and decodes the entry; blocks. Only called in operations of `queue`.
    private func read(for requested: KeptContext) -> ConfigSet? {
        let limit = provider.sizeLimit()
        let text: String
        switch attempt("read the values kept on the device", { try provider.boundedRead(upTo: limit) }) {
        case nil, .absent:
            return nil
        case .tooLarge(let size):
            warnAboutSize(
                "The values kept on the device take \(size) bytes, above the caching provider's limit of \(limit) "
                    + "bytes: they are removed without being served. This is logged once."
            )
            removeEntryIfPresent()
            return nil
        case .entry(let entry):
            text = entry
        }
        let entry: KeptValuesEntry
        switch KeptValuesEntry.read(text) {
        case .malformed:
            discardEntry(because: "do not decode")
            return nil
        case .otherFormatVersion(let version):
            discardEntry(because: "have format version \(version), not \(KeptValuesEntry.currentFormatVersion)")
            return nil
        case .entry(let read):
            entry = read
        }
        guard entry.sdkKeyHash == sdkKeyHash else {
            discardEntry(because: "belong to another client SDK key")
            return nil
        }
        guard entry.context == requested else {
            logger.debug("The values kept on the device are for another context; they are not served.")
            return nil
        }
        logger.debug(
            "Serving \(entry.configSet.configs.count) configs kept on the device, written by SDK \(entry.sdkVersion) "
                + "at \(entry.writtenAt)."
        )
        return entry.configSet
    }

    /// Reads or creates the instance id; blocks. Only called in operations of `instanceIDQueue`.
    private func instanceIDOnQueue() -> String {
        if let known = queueState.withLock({ $0.instanceID }) { return known }
        let stored = attempt("read the instance id kept on the device", { try instanceIDProvider.read() }) ?? nil
        let instanceID: String
        if let stored, let uuid = UUID(uuidString: stored.trimmingCharacters(in: .whitespacesAndNewlines)) {
            instanceID = uuid.uuidString
        } else {
            instanceID = UUID().uuidString
            _ = attempt("write the instance id kept on the device", { try instanceIDProvider.write(instanceID) })
        }
        queueState.withLock { $0.instanceID = instanceID }
        return instanceID
    }

    /// The kind and id that an entry must match; a context with an invalid kind counts as none.
    private func keptContext(for context: ConfigDirectorContext?) async -> KeptContext {
        let usable = context.flatMap { $0.hasValidKind ? $0 : nil }
        let kind = usable?.effectiveKind ?? ConfigDirectorContext.defaultKind
        guard let id = usable?.id else {
            return KeptContext(kind: kind, id: nil, instanceID: await instanceID())
        }
        return KeptContext(kind: kind, id: id, instanceID: nil)
    }

    // MARK: - Policies

    private func discardEntry(because reason: String) {
        logger.info("The values kept on the device \(reason); they are removed.")
        removeEntryIfPresent()
    }

    private func removeEntryIfPresent() {
        guard !queueState.withLock({ $0.isEntryKnownAbsent }) else { return }
        if attempt("remove the values kept on the device", { try provider.remove() }) != nil {
            queueState.withLock { $0.isEntryKnownAbsent = true }
        }
    }

    private func warnAboutSize(_ message: String) {
        let isFirst = queueState.withLock { state -> Bool in
            defer { state.hasWarnedAboutSize = true }
            return !state.hasWarnedAboutSize
        }
        guard isFirst else { return }
        logger.warn(message)
    }

    /// Runs `body`, reporting its error once for the life of the store.
    private func attempt<Result>(_ action: String, _ body: () throws -> Result) -> Result? {
        do {
            return try body()
        } catch {
            reportFailure(action, error: error)
            return nil
        }
    }

    private func reportFailure(_ action: String, error: any Error) {
        let isFirst = queueState.withLock { state -> Bool in
            defer { state.hasReportedFailure = true }
            return !state.hasReportedFailure
        }
        guard isFirst else { return }
        logger.warn(
            "Could not \(action); the SDK goes on without it, and further storage failures are not logged.",
            error: error
        )
    }
}
