import ConfigClient

extension ConfigInspectorModel {
    /// The status section, computed from the client in this one place: where the values come from, whether the
    /// client is ready, safe mode, and the overrides set. The connection's health goes here too, as rows of
    /// its own, where the client reports it.
    /// - Parameters:
    ///   - client: The client inspected.
    ///   - snapshot: Its newest snapshot.
    /// - Returns: The section's rows, in order.
    static func statusRows(of client: ConfigDirectorClient, snapshot: ConfigSnapshot) -> [InspectorInfoRow] {
        let overrides = client.areOverridesEnabled ? String(client.overrides.count) : "off"
        return [
            InspectorInfoRow(label: "Value source", value: snapshot.valueSource.description),
            InspectorInfoRow(label: "Ready", value: snapshot.isReady ? "yes" : "no"),
            InspectorInfoRow(label: "Safe mode", value: client.isInSafeMode ? "on" : "off"),
            InspectorInfoRow(label: "Overrides", value: overrides),
        ]
    }
}
