import ConfigClient
import ConfigModel
import ConfigTesting
import Foundation
import Testing

@testable import ConfigInspector

@Suite("The inspector's model", .timeLimit(.minutes(1)))
@MainActor
struct ConfigInspectorModelTests {
    @Test("lists every config in key order with its type, value, source, reason and value id")
    func rows() async throws {
        let client = try await offlineClient()
        defer { client.close() }
        let model = ConfigInspectorModel(client: client)

        #expect(model.rows.map(\.key) == ["dark-mode", "greeting", "max-items", "ratio", "theme"])
        let maxItems = try #require(model.row(for: "max-items"))
        #expect(maxItems.valueText == "20")
        #expect(maxItems.typeText == "integer")
        #expect(maxItems.sourceText == "live")
        #expect(maxItems.reasonText == "found-match")
        #expect(maxItems.valueIDText == client.snapshot()["max-items"]?.valueID)
        #expect(maxItems.valueID != nil)
        #expect(!maxItems.isOverridden)
        #expect(model.row(for: "theme")?.typeText == "json")
    }

    @Test("a config without a value shows no value, its reason and no value id")
    func configWithoutValue() async throws {
        let client = try await offlineClient(values: ["empty": ""])
        defer { client.close() }
        let row = try #require(ConfigInspectorModel(client: client).row(for: "empty"))
        #expect(row.valueText == "no value")
        #expect(row.reasonText == "value-missing")
        #expect(row.sourceText == "codeDefault")
        #expect(row.valueIDText == "none")
    }

    @Test("the search keeps the rows whose key or value contains it, ignoring case")
    func search() async throws {
        let client = try await offlineClient()
        defer { client.close() }
        let model = ConfigInspectorModel(client: client)
        var changes = 0
        model.onChange = { changes += 1 }

        model.searchText = "MODE"
        #expect(model.rows.map(\.key) == ["dark-mode"])
        model.searchText = "hello"  // the value of "greeting"
        #expect(model.rows.map(\.key) == ["greeting"])
        model.searchText = "BLUE"  // inside the JSON value of "theme"
        #expect(model.rows.map(\.key) == ["theme"])
        model.searchText = "nothing like it"
        #expect(model.rows.isEmpty)
        model.searchText = "  "
        #expect(model.rows.count == 5)
        #expect(changes == 5)
    }

    @Test("the context section lists the id, kind, name and each trait")
    func context() async throws {
        let context = ConfigDirectorContext(id: "user-123", name: "Ada", traits: ["plan": "pro", "age": 36])
        let client = try await offlineClient(context: context)
        defer { client.close() }
        let rows = ConfigInspectorModel(client: client).contextRows
        #expect(
            rows.map { "\($0.label)=\($0.value)" } == [
                "ID=user-123", "Kind=user (default)", "Name=Ada", "trait age=36", "trait plan=\"pro\"",
            ])
    }

    @Test("the status section tells the value source, readiness, safe mode, the overrides and the connection")
    func status() async throws {
        let client = try await offlineClient()
        defer { client.close() }
        let model = ConfigInspectorModel(client: client)
        let received = try #require(client.connectionHealth.lastValuesReceived)
        #expect(
            model.statusRows.map { "\($0.label)=\($0.value)" } == [
                "Value source=live", "Ready=yes", "Safe mode=off", "Overrides=0", "Connection=offline, idle",
                "Values received=\(received.ISO8601Format())",
            ])
        model.setBoolean(true, for: "dark-mode")
        #expect(model.statusRows.first { $0.label == "Overrides" }?.value == "1")
    }

    @Test("the connection's rows tell a failure, the next attempt and a refusal")
    func connectionRows() {
        let failed = Date(timeIntervalSince1970: 1_800_000_000)
        let waiting = ConfigInspectorModel.healthRows(
            of: ConnectionHealth(
                mode: .streaming, state: .waitingToRetry(until: failed.addingTimeInterval(4)),
                lastValuesReceived: nil,
                lastFailure: ConnectionHealth.Failure(date: failed, description: "status 503", statusCode: 503),
                nextAttempt: failed.addingTimeInterval(4)))
        #expect(
            waiting.map { "\($0.label)=\($0.value)" } == [
                "Connection=streaming, waiting to retry", "Values received=never",
                "Last failure=status 503, 2027-01-15T08:00:00Z", "Next attempt=2027-01-15T08:00:04Z",
            ])
        let refused = ConfigInspectorModel.healthRows(
            of: ConnectionHealth(
                mode: .polling, state: .stopped(refusal: .connectionFailed(message: "refused", statusCode: 401)),
                lastValuesReceived: failed, lastFailure: nil, nextAttempt: nil))
        #expect(refused.first?.value.hasPrefix("polling, stopped: ") == true)
        #expect(refused.count == 2)
    }

    @Test("toggling a boolean config sets an override, which the row shows as its source")
    func toggle() async throws {
        let client = try await offlineClient()
        defer { client.close() }
        let model = ConfigInspectorModel(client: client)
        #expect(!model.isOn("dark-mode"))

        model.setBoolean(true, for: "dark-mode")
        #expect(client.value(for: "dark-mode", default: false))
        #expect(client.overrides == [ConfigOverride(key: "dark-mode", type: .boolean, value: "true")])
        let row = try #require(model.row(for: "dark-mode"))
        #expect(row.isOverridden)
        #expect(row.sourceText == "override")
        #expect(model.isOn("dark-mode"))

        model.setBoolean(false, for: "dark-mode")
        #expect(client.value(for: "dark-mode", default: true) == false)
        #expect(model.row(for: "dark-mode")?.isOverridden == true)
    }

    @Test("integer text that is not an integer shows a message and sets nothing")
    func invalidInteger() async throws {
        let client = try await offlineClient()
        defer { client.close() }
        let model = ConfigInspectorModel(client: client)
        #expect(model.draft(for: "max-items") == "20")

        model.setDraft("twelve", for: "max-items")
        #expect(model.applyDraft(for: "max-items") == false)
        #expect(model.validationMessage(for: "max-items")?.contains("not an integer") == true)
        #expect(client.overrides.isEmpty)
        #expect(client.value(for: "max-items", default: 0) == 20)
        #expect(model.row(for: "max-items")?.isOverridden == false)
        #expect(model.draft(for: "max-items") == "twelve")

        // Typing again clears the message; a valid integer is set.
        model.setDraft("12", for: "max-items")
        #expect(model.validationMessage(for: "max-items") == nil)
        #expect(model.applyDraft(for: "max-items"))
        #expect(client.value(for: "max-items", default: 0) == 12)
        #expect(model.row(for: "max-items")?.sourceText == "override")
        #expect(model.draft(for: "max-items") == "12")
    }

    @Test("float text must be a finite number; other text types take any text")
    func floatAndString() async throws {
        let client = try await offlineClient()
        defer { client.close() }
        let model = ConfigInspectorModel(client: client)

        for text in ["inf", "nan", "1e999", "half"] {
            model.setDraft(text, for: "ratio")
            #expect(model.applyDraft(for: "ratio") == false, "\(text)")
            #expect(model.validationMessage(for: "ratio")?.contains("not a finite number") == true)
        }
        #expect(client.overrides.isEmpty)
        model.setDraft(" 0.25 ", for: "ratio")
        #expect(model.applyDraft(for: "ratio"))
        #expect(client.value(for: "ratio", default: 0.0) == 0.25)

        model.setDraft(" Hi there ", for: "greeting")
        #expect(model.applyDraft(for: "greeting"))
        #expect(client.value(for: "greeting", default: "") == " Hi there ")
    }

    @Test("valid JSON is set as the override; invalid JSON shows a message and sets nothing")
    func json() async throws {
        let client = try await offlineClient()
        defer { client.close() }
        let model = ConfigInspectorModel(client: client)

        model.setDraft("{\"accent\": ", for: "theme")
        #expect(model.applyDraft(for: "theme") == false)
        #expect(model.validationMessage(for: "theme") == OverrideInput.invalidJSON)
        #expect(client.overrides.isEmpty)

        model.setDraft("{\"accent\": \"red\", \"limit\": 3}", for: "theme")
        #expect(model.applyDraft(for: "theme"))
        #expect(model.validationMessage(for: "theme") == nil)
        let row = try #require(model.row(for: "theme"))
        #expect(row.isOverridden)
        #expect(row.typeText == "json")
        #expect(row.value?.contains("\"red\"") == true)
        #expect(client.overrides.map(\.key) == ["theme"])
    }

    @Test("reset removes one override and its draft; reset all removes every override")
    func reset() async throws {
        let client = try await offlineClient()
        defer { client.close() }
        let model = ConfigInspectorModel(client: client)
        model.setBoolean(true, for: "dark-mode")
        model.setDraft("7", for: "max-items")
        model.applyDraft(for: "max-items")
        model.setDraft("Hi", for: "greeting")
        model.applyDraft(for: "greeting")
        model.setDraft("not yet applied", for: "greeting")
        #expect(client.overrides.count == 3)
        #expect(model.hasOverrides)

        model.resetOverride(for: "greeting")
        #expect(client.overrides.map(\.key) == ["dark-mode", "max-items"])
        #expect(model.row(for: "greeting")?.sourceText == "live")
        #expect(model.draft(for: "greeting") == "Hello")

        model.resetAllOverrides()
        #expect(client.overrides.isEmpty)
        #expect(!model.hasOverrides)
        #expect(model.rows.allSatisfy { !$0.isOverridden })
        #expect(model.row(for: "max-items")?.valueText == "20")
        #expect(!model.isOn("dark-mode"))
    }

    @Test("with overrides off, editing is disabled, said so, and sets nothing")
    func overridesDisabled() async throws {
        let client = try await offlineClient(overrides: .disabled)
        defer { client.close() }
        let model = ConfigInspectorModel(client: client)
        #expect(!model.isEditingEnabled)
        #expect(model.editingDisabledReason?.contains("overrides: .enabled") == true)
        #expect(model.statusRows.first { $0.label == "Overrides" }?.value == "off")

        model.setBoolean(true, for: "dark-mode")
        model.setDraft("12", for: "max-items")
        #expect(model.applyDraft(for: "max-items") == false)
        #expect(client.value(for: "dark-mode", default: true) == false)
        #expect(client.value(for: "max-items", default: 0) == 20)
        #expect(model.rows.allSatisfy { !$0.isOverridden })
        #expect(!model.hasOverrides)
    }

    @Test("with overrides on, editing is enabled and nothing is said")
    func overridesEnabled() async throws {
        let client = try await offlineClient()
        defer { client.close() }
        let model = ConfigInspectorModel(client: client)
        #expect(model.isEditingEnabled)
        #expect(model.editingDisabledReason == nil)
    }
}
