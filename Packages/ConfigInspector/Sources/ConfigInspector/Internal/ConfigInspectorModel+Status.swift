import ConfigClient
import Foundation

extension ConfigInspectorModel {
    /// The status section, computed from the client in this one place: where the values come from, whether the
    /// client is ready, safe mode, the overrides set, then the connection's health (its mode and state, when values
    /// last arrived, the last failure and the next attempt).
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
        ] + healthRows(of: client.connectionHealth)
    }

    /// The rows of the connection's health: the connection (mode and state), when values last arrived, and, when
    /// there are any, the last failure and the next attempt.
    static func healthRows(of health: ConnectionHealth) -> [InspectorInfoRow] {
        var rows = [
            InspectorInfoRow(label: "Connection", value: "\(health.mode), \(text(of: health.state))"),
            InspectorInfoRow(label: "Values received", value: health.lastValuesReceived.map(text(of:)) ?? "never"),
        ]
        if let failure = health.lastFailure {
            rows.append(
                InspectorInfoRow(label: "Last failure", value: "\(failure.description), \(text(of: failure.date))"))
        }
        if let next = health.nextAttempt {
            rows.append(InspectorInfoRow(label: "Next attempt", value: text(of: next)))
        }
        return rows
    }

    private static func text(of state: ConnectionHealth.State) -> String {
        switch state {
        case .idle: "idle"
        case .connecting: "connecting"
        case .connected: "connected"
        case .waitingToRetry: "waiting to retry"
        case .paused: "paused"
        case .stopped(let refusal?): "stopped: \(refusal.localizedDescription)"
        case .stopped(nil): "stopped by the service"
        case .closed: "closed"
        }
    }

    /// A date as ISO 8601 text, in UTC.
    private static func text(of date: Date) -> String {
        date.ISO8601Format()
    }
}
