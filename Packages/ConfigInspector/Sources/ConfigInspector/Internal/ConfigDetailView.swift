#if canImport(SwiftUI) && canImport(Combine)
import ConfigModel
import SwiftUI

/// One config: its value, type, source, reason and value id, and the editor of its override.
@MainActor
struct ConfigDetailView: View {
    @ObservedObject var store: InspectorStore
    let key: String

    private var model: ConfigInspectorModel { store.model }

    var body: some View {
        List {
            if let row = model.row(for: key) {
                Section(header: Text("Value")) {
                    InspectorInfoRowView(label: "Value", value: row.valueText)
                    InspectorInfoRowView(label: "Type", value: row.typeText)
                    InspectorInfoRowView(label: "Source", value: row.sourceText)
                    InspectorInfoRowView(label: "Reason", value: row.reasonText)
                    InspectorInfoRowView(label: "Value ID", value: row.valueIDText)
                }
                Section(header: Text("Override"), footer: footer) {
                    editor(for: row)
                    Button("Reset") { model.resetOverride(for: key) }
                        .disabled(!model.isEditingEnabled || !row.isOverridden)
                        .accessibilityLabel("Reset the override of \(key)")
                }
            } else {
                Text("The client no longer holds \(key).")
            }
        }
        .navigationTitle(key)
    }

    @ViewBuilder
    private func editor(for row: InspectorConfigRow) -> some View {
        if row.type == .boolean {
            Toggle(
                "Value",
                isOn: Binding(get: { model.isOn(key) }, set: { model.setBoolean($0, for: key) })
            )
            .disabled(!model.isEditingEnabled)
            .accessibilityLabel("Override value of \(key)")
        } else {
            TextField(
                "Value (\(row.typeText))",
                text: Binding(get: { model.draft(for: key) }, set: { model.setDraft($0, for: key) })
            )
            .disableAutocorrection(true)
            .onSubmit { model.applyDraft(for: key) }
            .disabled(!model.isEditingEnabled)
            .accessibilityLabel("Override value of \(key), type \(row.typeText)")
            if let message = model.validationMessage(for: key) {
                Text(message)
                    .foregroundColor(.red)
                    .accessibilityLabel("Error: \(message)")
            }
            Button("Apply") { model.applyDraft(for: key) }
                .disabled(!model.isEditingEnabled)
                .accessibilityLabel("Apply the override of \(key)")
        }
    }

    @ViewBuilder
    private var footer: some View {
        if let reason = model.editingDisabledReason {
            Text(reason)
        }
    }
}
#endif
