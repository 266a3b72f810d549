import ConfigClient
import ConfigModel

/// The inspector's state and logic, apart from any UI framework: the snapshot of a client's configs, the search,
/// the status and context sections, and the editing of overrides. ``ConfigInspectorView`` shows it; its tests run
/// on Linux.
///
/// It follows the client: ``start()`` subscribes to the client's `events` and `connectionHealthUpdates` and takes a
/// new snapshot after each (`configsUpdated`, `contextUpdated`, `ready`, a change of the connection's health);
/// ``onChange`` is called after every change of what it shows.
@MainActor
final class ConfigInspectorModel {
    /// The client inspected.
    let client: ConfigDirectorClient

    /// Called after every change of the model's state (a new snapshot, the search, a draft, a message).
    var onChange: (@MainActor () -> Void)?

    /// The newest snapshot of the client.
    private(set) var snapshot: ConfigSnapshot
    /// Every config of the snapshot, in key order.
    private(set) var allRows: [InspectorConfigRow]
    /// The status section: where values come from, readiness, safe mode, overrides.
    private(set) var statusRows: [InspectorInfoRow]
    /// The text typed for each config's override, by key, until it is applied or reset (changed through
    /// `setDraft(_:for:)`, `applyDraft(for:)` and the resets).
    var drafts: [String: String] = [:]
    /// Why the newest text applied to a config's override set nothing, by key.
    var validationMessages: [String: String] = [:]

    /// The search: rows whose key or value contains it, ignoring case.
    var searchText = "" {
        didSet { if searchText != oldValue { onChange?() } }
    }

    /// The tasks that follow the client's events and its connection's health, from ``start()`` to ``stop()``.
    private(set) var following: [Task<Void, Never>] = []

    /// Creates the model of a client, with its snapshot taken now.
    /// - Parameter client: The client to inspect.
    init(client: ConfigDirectorClient) {
        self.client = client
        let snapshot = client.snapshot()
        self.snapshot = snapshot
        allRows = snapshot.configs.map(InspectorConfigRow.init)
        statusRows = Self.statusRows(of: client, snapshot: snapshot)
    }

    deinit {
        for task in following { task.cancel() }
    }

    /// The rows that match the search, in key order.
    var rows: [InspectorConfigRow] {
        allRows.filter { $0.matches(search: searchText) }
    }

    /// The row of a key, if the client holds the config.
    func row(for key: String) -> InspectorConfigRow? {
        allRows.first { $0.key == key }
    }

    /// The context section: id, kind, name, whether anonymous, then each trait by name (`trait <name>`).
    var contextRows: [InspectorInfoRow] {
        guard let context = snapshot.context else { return [InspectorInfoRow(label: "Context", value: "none")] }
        var rows = [
            InspectorInfoRow(label: "ID", value: context.id ?? "none"),
            InspectorInfoRow(label: "Kind", value: context.kind ?? "user (default)"),
        ]
        if let name = context.name { rows.append(InspectorInfoRow(label: "Name", value: name)) }
        if let isAnonymous = context.isAnonymous {
            rows.append(InspectorInfoRow(label: "Anonymous", value: isAnonymous ? "yes" : "no"))
        }
        for (name, value) in (context.traits ?? [:]).sorted(by: { $0.key < $1.key }) {
            rows.append(InspectorInfoRow(label: "trait \(name)", value: value.description))
        }
        return rows
    }

    /// Follows the client: a new snapshot after each of its events and each change of its connection's health, until
    /// ``stop()`` or the client closes. The
    /// subscription is made before it returns, so a change made after it is seen.
    func start() {
        guard following.isEmpty else { return }
        following = [follow(client.events), follow(client.connectionHealthUpdates)]
        refresh()
    }

    /// Stops following the client.
    func stop() {
        for task in following { task.cancel() }
        following = []
    }

    /// A task that takes a new snapshot after each element of `stream`, while the model lives.
    private func follow<Element: Sendable>(_ stream: AsyncStream<Element>) -> Task<Void, Never> {
        Task { [weak self] in
            for await _ in stream {
                guard let self else { return }
                self.refresh()
            }
        }
    }

    /// Takes a new snapshot of the client, and tells ``onChange`` when it differs (always when `force`d: after an
    /// edit, whose draft or message changed).
    func refresh(force: Bool = false) {
        let snapshot = client.snapshot()
        let statusRows = Self.statusRows(of: client, snapshot: snapshot)
        guard force || snapshot != self.snapshot || statusRows != self.statusRows else { return }
        self.snapshot = snapshot
        allRows = snapshot.configs.map(InspectorConfigRow.init)
        self.statusRows = statusRows
        onChange?()
    }
}
