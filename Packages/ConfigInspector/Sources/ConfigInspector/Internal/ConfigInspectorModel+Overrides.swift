import ConfigClient
import ConfigModel

extension ConfigInspectorModel {
    /// Why overrides cannot be edited, or `nil` when they can: the client must be created with overrides on.
    var editingDisabledReason: String? {
        client.areOverridesEnabled
            ? nil
            : "Overrides are off for this client: create it with `overrides: .enabled` in its options to edit them here."
    }

    /// Whether overrides can be edited.
    var isEditingEnabled: Bool { client.areOverridesEnabled }

    /// Whether any override is set.
    var hasOverrides: Bool { client.areOverridesEnabled && !client.overrides.isEmpty }

    /// Whether a config's value reads as `true`: the state of a boolean config's toggle.
    func isOn(_ key: String) -> Bool {
        row(for: key)?.value == "true"
    }

    /// Sets a boolean config's override to `isOn` (the toggle): the row then shows the source `override`.
    /// - Parameters:
    ///   - isOn: The value to serve.
    ///   - key: The config key.
    func setBoolean(_ isOn: Bool, for key: String) {
        guard isEditingEnabled else { return }
        client.setOverride(isOn, for: key)
        validationMessages[key] = nil
        refreshAfterEdit()
    }

    /// The text in a config's editor: the text typed, else the value served (empty when it has none).
    func draft(for key: String) -> String {
        drafts[key] ?? row(for: key)?.value ?? ""
    }

    /// Records the text typed for a config's override, and clears the message of the text before it.
    /// - Parameters:
    ///   - text: What was typed.
    ///   - key: The config key.
    func setDraft(_ text: String, for key: String) {
        guard drafts[key] != text || validationMessages[key] != nil else { return }
        drafts[key] = text
        validationMessages[key] = nil
        onChange?()
    }

    /// Why the text last applied to a config's override set nothing, or `nil`.
    func validationMessage(for key: String) -> String? {
        validationMessages[key]
    }

    /// Sets a config's override from its draft, read by the config's type: an integer, a finite number, JSON
    /// (which the client parses), else any text. Invalid text sets nothing and leaves a message.
    /// - Parameter key: The config key.
    /// - Returns: Whether the override was set.
    @discardableResult
    func applyDraft(for key: String) -> Bool {
        guard isEditingEnabled, let row = row(for: key) else { return false }
        let text = draft(for: key)
        let applied: Bool
        switch OverrideInput(text: text, type: row.type) {
        case .value(let value):
            client.setOverride(value, for: key)
            applied = true
        case .json(let text):
            applied = client.setOverride(jsonText: text, for: key)
            if !applied { validationMessages[key] = OverrideInput.invalidJSON }
        case .invalid(let message):
            validationMessages[key] = message
            applied = false
        }
        if applied {
            drafts[key] = nil
            validationMessages[key] = nil
        }
        refreshAfterEdit()
        return applied
    }

    /// Removes a config's override, its draft and its message: the config serves its own value again.
    /// - Parameter key: The config key.
    func resetOverride(for key: String) {
        guard isEditingEnabled else { return }
        client.removeOverride(for: key)
        drafts[key] = nil
        validationMessages[key] = nil
        refreshAfterEdit()
    }

    /// Removes every override, draft and message.
    func resetAllOverrides() {
        guard isEditingEnabled else { return }
        client.removeAllOverrides()
        drafts = [:]
        validationMessages = [:]
        refreshAfterEdit()
    }

    /// A new snapshot after an edit, so the rows show it at once (the client's `configsUpdated` follows), and a
    /// change told even when the snapshot is the same (a draft or a message changed).
    private func refreshAfterEdit() {
        refresh(force: true)
    }
}
