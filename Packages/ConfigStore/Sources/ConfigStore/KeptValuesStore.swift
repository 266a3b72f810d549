@_spi(Internal) @_spi(Locking) @_spi(Storage) public import ConfigModel
public import Foundation

/// The values a client keeps on the device: the last config set of a context, served on the next
/// launch of the same context until live values arrive, and the install's instance id.
///
/// The client owns one store. ``save(_:for:)`` returns at once and may be called from any thread, the
/// thread that evaluates configs included: the set is made, encoded and written later on the store's own
/// serial queue. Writes are coalesced: one at a time, of the newest set saved, the first one the coalescing
/// window after a quiet time and the next ones ``minimumWriteInterval`` after the write before ended, so a
/// set that changes every 100 ms is written every few seconds, never once per change.
/// ``load(for:)``, ``instanceID()``, ``flush()`` and ``close()`` are `async` and do their I/O on that
/// queue as well, so no storage is touched on the calling thread, the main thread included. The I/O
/// blocks: it runs on the few storage threads that every store of the process shares while the operation
/// suspends, so that no thread of the cooperative pool waits on storage, and a call that has not returned
/// within ``storageTimeout`` is given up on (a hung network mount holds one storage thread, never a
/// thread per client).
///
/// Storage never stops the client: a provider that throws or does not answer is logged once and the store
/// goes on without it; an entry above the provider's size limit is not written (its size is counted up to
/// the limit, never encoded whole), the one kept before is removed, and one warning is logged; an entry
/// that does not decode, has another format version or another SDK key is ignored and removed.
@_spi(Internal) public final class KeptValuesStore: Sendable {
    /// Runs `work` once after `delay` seconds, on any thread: the coalesced writes and the timeouts of
    /// storage calls.
    typealias WriteScheduler = @Sendable (_ delay: TimeInterval, _ work: @escaping @Sendable () -> Void) -> Void

    /// How long after a quiet time the first save is written, in seconds, unless another window is given.
    public static let defaultCoalescingWindow: TimeInterval = 1

    /// The shortest time between the end of a write and the start of the next one, in seconds, unless a
    /// flush or a close asks for the write.
    public static let minimumWriteInterval: TimeInterval = 5

    /// How long a storage call (a read, a write, the instance id) may take before the store goes on without
    /// it, in seconds.
    public static let storageTimeout: TimeInterval = 5

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
    private let queue = SerialQueue()
    /// The instance id's own queue, so that a slow read of the values never delays the connection,
    /// which needs the id. Operations of `queue` may wait for it, never the other way round.
    private let instanceIDQueue = SerialQueue()
    /// Where the blocking calls of `queue`'s operations run.
    private let valuesLane: StorageLane
    /// Where the blocking calls of `instanceIDQueue`'s operations run.
    private let instanceIDLane: StorageLane
    /// What callers hand over to the queue.
    private let pending = Locked(PendingState())
    /// What the queue remembers between its jobs; only touched on `queue`.
    private let queueState = Locked(QueueState())

    private struct PendingSave: Sendable {
        /// Makes the set, once, when it is written or served.
        var makeSet: @Sendable () -> ConfigSet
        var context: ConfigDirectorContext?
    }

    private struct PendingState {
        var save: PendingSave?
        /// Whether a timer will write the save: the coalescing window's, or the interval after a write.
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
    ///   - coalescingWindow: How long after a quiet time the first save is written, in seconds.
    ///   - scheduleWrite: Runs the coalesced writes and the storage calls' timeouts; `nil` for dispatch timers.
    ///   - now: The time written into entries.
    convenience init(
        clientSDKKey: String,
        options: CachingOptions,
        logger: any ConfigDirectorLogger,
        coalescingWindow: TimeInterval,
        scheduleWrite: WriteScheduler? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(
            clientSDKKey: clientSDKKey,
            options: options,
            logger: logger,
            coalescingWindow: coalescingWindow,
            scheduleWrite: scheduleWrite,
            now: now,
            threads: .shared
        )
    }

    /// Creates the store of a client with its time and its storage threads injected.
    init(
        clientSDKKey: String,
        options: CachingOptions,
        logger: any ConfigDirectorLogger,
        coalescingWindow: TimeInterval,
        scheduleWrite: WriteScheduler?,
        now: @escaping @Sendable () -> Date,
        threads: StorageThreads
    ) {
        let provider = options.resolvedProvider(forClientSDKKey: clientSDKKey)
        self.provider = provider
        instanceIDProvider = provider.instanceIDProvider()
        isEnabled = options.enabled
        sdkKeyHash = SHA256Digest.hexHash(of: clientSDKKey)
        self.logger = logger
        self.coalescingWindow = coalescingWindow
        let schedule =
            scheduleWrite ?? { delay, work in
                DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + delay, execute: work)
            }
        self.scheduleWrite = schedule
        self.now = now
        valuesLane = StorageLane(threads: threads, timeout: Self.storageTimeout, schedule: schedule)
        instanceIDLane = StorageLane(threads: threads, timeout: Self.storageTimeout, schedule: schedule)
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

    /// Keeps `set` as the state of `context`, to be written at the next coalesced write.
    ///
    /// Returns at once without I/O; safe from any thread. `set` is an autoclosure made only when the save
    /// is written (or served by ``load(for:)`` before it is): a save that a newer one replaces first is never
    /// made. A newer save replaces an older one not written yet. Nothing happens when the store is disabled
    /// or closed.
    /// - Parameters:
    ///   - set: The client's whole current state, as a full config set; made on the store's queue.
    ///   - context: The context the state was evaluated for; `nil` when none is set.
    public func save(_ set: @autoclosure @escaping @Sendable () -> ConfigSet, for context: ConfigDirectorContext?) {
        guard isEnabled else { return }
        let needsSchedule = pending.withLock { state -> Bool in
            guard !state.isClosed else { return false }
            state.save = PendingSave(makeSet: set, context: context)
            state.hasSaved = true
            guard !state.isWriteScheduled else { return false }
            state.isWriteScheduled = true
            return true
        }
        guard needsSchedule else { return }
        scheduleWriting(after: coalescingWindow)
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
        return await instanceIDQueue.perform { await self.instanceIDOnQueue() }
    }

    // MARK: - Queue

    /// Writes the newest save after `delay` seconds on the queue, then again every
    /// ``minimumWriteInterval`` while saves come; the timers stop once one finds nothing to write.
    private func scheduleWriting(after delay: TimeInterval) {
        scheduleWrite(delay) { [weak self] in
            guard let self else { return }
            queue.enqueue { await self.writeWhenScheduled() }
        }
    }

    // Only called in operations of `queue`.
    private func writeWhenScheduled() async {
        let save = pending.withLock { state -> PendingSave? in
            defer { state.save = nil }
            if state.save == nil { state.isWriteScheduled = false }
            return state.save
        }
        guard let save else { return }
        await write(save)
        scheduleWriting(after: Self.minimumWriteInterval)
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
        switch await valuesLane.run({ self.write(save, context: context) }) {
        case .returned:
            break
        case .timedOut:
            reportFailure("write the values kept on the device", error: StorageTimeout())
        case .stillBlocked:
            // The newest save waits for the storage to answer the call given up on, unless a newer one came.
            pending.withLock { state in
                if state.save == nil, !state.isClosed { state.save = save }
            }
        }
    }

    /// Encodes and writes the entry; blocks. Only called on `valuesLane`.
    private func write(_ save: PendingSave, context: KeptContext) {
        let entry = KeptValuesEntry(
            formatVersion: KeptValuesEntry.currentFormatVersion,
            sdkVersion: ConfigDirectorSDK.version,
            sdkKeyHash: sdkKeyHash,
            context: context,
            writtenAt: now(),
            configSet: save.makeSet()
        )
        let limit = provider.sizeLimit()
        guard let text = entry.encoded(upTo: limit) else {
            warnAboutSize(
                "The values to keep on the device take more than the caching provider's limit of \(limit) bytes: "
                    + "they are not kept, and the values kept before are removed. Give CachingOptions a provider with "
                    + "a larger limit, such as FileCachingProvider, to keep them. This is logged once."
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
        if let unwritten, await keptContext(for: unwritten.context) == requested { return unwritten.makeSet() }
        switch await valuesLane.run({ self.read(for: requested) }) {
        case .returned(let set):
            return set
        case .timedOut, .stillBlocked:
            reportFailure("read the values kept on the device", error: StorageTimeout())
            return nil
        }
    }

    /// Reads and decodes the entry; blocks. Only called on `valuesLane`.
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

    /// Reads or creates the instance id. Only called in operations of `instanceIDQueue`.
    ///
    /// A storage that does not answer in time gets the id this store would have written: the id is the
    /// same for the life of the store, and the call given up on writes that same one if it ever returns.
    private func instanceIDOnQueue() async -> String {
        if let known = queueState.withLock({ $0.instanceID }) { return known }
        let created = UUID().uuidString
        let instanceID: String
        switch await instanceIDLane.run({ self.readOrWriteInstanceID(created) }) {
        case .returned(let kept):
            instanceID = kept
        case .timedOut, .stillBlocked:
            reportFailure("read the instance id kept on the device", error: StorageTimeout())
            instanceID = created
        }
        queueState.withLock { $0.instanceID = instanceID }
        return instanceID
    }

    /// The instance id kept, or `created`: written in its place when none is kept (or what is kept is not a
    /// UUID), and used for this store alone when the storage fails to read, because the id it keeps is then
    /// unknown rather than absent and survives for the next launch (PROTOCOL §2: regenerated only when the
    /// storage is wiped). Blocks; only called on `instanceIDLane`.
    private func readOrWriteInstanceID(_ created: String) -> String {
        guard let stored = attempt("read the instance id kept on the device", { try instanceIDProvider.read() })
        else { return created }
        if let stored, let uuid = UUID(uuidString: stored.trimmingCharacters(in: .whitespacesAndNewlines)) {
            return uuid.uuidString
        }
        _ = attempt("write the instance id kept on the device", { try instanceIDProvider.write(created) })
        return created
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

/// The error logged for a storage call that has not returned within ``KeptValuesStore/storageTimeout``.
private struct StorageTimeout: LocalizedError {
    var errorDescription: String? {
        "the caching provider has not answered within \(Int(KeptValuesStore.storageTimeout)) s"
    }
}
