#if canImport(SwiftUI) && canImport(Combine)
public import ConfigClient
public import SwiftUI

/// A screen for debug builds that shows every config a client holds and edits its local overrides.
///
/// It lists the client's snapshot with a search (by key or value, ignoring case), each config's value, type,
/// source, reason and value id, the context, and the client's status (where the values come from, whether it
/// is ready, safe mode, the overrides set). A config's screen edits its override: a toggle for a boolean, text
/// checked against the config's type for the others, and a reset; the list resets every override. Editing
/// needs a client created with overrides on (`ConfigDirectorClientOptions(overrides: .enabled)`); otherwise the
/// screen says so and only shows.
///
/// It brings its own navigation, so present it as a sheet, in debug builds only:
///
/// ```swift
/// #if DEBUG
/// .sheet(isPresented: $showsInspector) {
///     ConfigInspectorView(client: client)
/// }
/// #endif
/// ```
///
/// It follows the client while it exists: a new snapshot after each of the client's events.
// On the main actor as a whole: SDKs before iOS 18 and macOS 15 isolate only a view's `body`.
@MainActor
public struct ConfigInspectorView: View {
    @StateObject private var store: InspectorStore
    @Environment(\.dismiss) private var dismiss

    /// Creates the inspector of a client.
    /// - Parameter client: The client whose configs it shows and whose overrides it edits.
    public init(client: ConfigDirectorClient) {
        _store = StateObject(wrappedValue: InspectorStore(client: client))
    }

    /// The inspector: its navigation, the list and the search.
    public var body: some View {
        NavigationView {
            InspectorListView(store: store)
                .navigationTitle("Configs")
                .toolbar {
                    ToolbarItem(placement: .confirmationAction) {
                        Button("Done") { dismiss() }
                            .accessibilityLabel("Close the config inspector")
                    }
                }
        }
    }
}
#endif
