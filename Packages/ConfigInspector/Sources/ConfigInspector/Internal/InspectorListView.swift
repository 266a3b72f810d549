#if canImport(SwiftUI) && canImport(Combine)
import SwiftUI

/// The list: status, context, and the configs that match the search.
@MainActor
struct InspectorListView: View {
    @ObservedObject var store: InspectorStore

    private var model: ConfigInspectorModel { store.model }

    var body: some View {
        List {
            Section(header: Text("Status")) {
                ForEach(model.statusRows) { InspectorInfoRowView(label: $0.label, value: $0.value) }
            }
            Section(header: Text("Context")) {
                ForEach(model.contextRows) { InspectorInfoRowView(label: $0.label, value: $0.value) }
            }
            Section(header: Text("Configs"), footer: footer) {
                let rows = model.rows
                if rows.isEmpty {
                    Text(model.searchText.isEmpty ? "The client holds no config." : "No config matches the search.")
                }
                ForEach(rows) { row in
                    NavigationLink(destination: ConfigDetailView(store: store, key: row.key)) {
                        VStack(alignment: .leading) {
                            Text(row.key).font(.body.monospaced())
                            Text("\(row.valueText) · \(row.sourceText)")
                                .font(.caption)
                                .foregroundColor(row.isOverridden ? .orange : .secondary)
                                .lineLimit(2)
                        }
                    }
                    .accessibilityLabel("\(row.key), \(row.valueText), source \(row.sourceText)")
                }
            }
            Section {
                Button("Reset all overrides", role: .destructive) { model.resetAllOverrides() }
                    .disabled(!model.hasOverrides)
                    .accessibilityLabel("Reset all overrides")
            }
        }
        .searchable(
            text: Binding(get: { model.searchText }, set: { model.searchText = $0 }),
            prompt: Text("Key or value")
        )
    }

    @ViewBuilder
    private var footer: some View {
        if let reason = model.editingDisabledReason {
            Text(reason)
        }
    }
}
#endif
