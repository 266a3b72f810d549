public import ConfigEmulator
internal import Foundation

/// The configs the demo's emulator serves: `Tools/ConfigEmulator/Examples/configs.json`, copied here so
/// that the executable needs no file from the repository (a test keeps the two the same).
public enum DemoConfigs {
    /// The configs file's text.
    public static let json = #"""
        {
          "environmentId": "env-local",
          "projectId": "proj-demo",
          "configs": [
            {
              "key": "dark-mode",
              "type": "boolean",
              "value": false,
              "rules": [
                { "id": "user-1", "value": true },
                { "trait": "plan", "equals": "pro", "value": true }
              ]
            },
            { "key": "welcome-message", "type": "string", "value": "Hello from the emulator" },
            {
              "key": "max-items",
              "type": "integer",
              "value": 20,
              "rules": [{ "kind": "tenant", "id": "acme", "value": 100 }]
            },
            { "key": "discount-rate", "type": "float", "value": 0.15 },
            {
              "key": "checkout-flow",
              "type": "enum",
              "value": "classic",
              "rules": [{ "trait": "beta", "equals": true, "value": "express" }]
            },
            { "key": "support-url", "type": "url", "value": "https://example.com/support" },
            {
              "key": "theme",
              "type": "json",
              "value": { "primaryColor": "blue", "cornerRadius": 8 },
              "rules": [{ "kind": "tenant", "value": { "primaryColor": "green", "cornerRadius": 4 } }]
            },
            { "key": "legacy-banner", "type": "custom", "value": "v2" },
            { "key": "sunset-date", "type": "string", "value": null }
          ]
        }
        """#

    /// The configs, decoded.
    /// - Throws: ``EmulatorError/invalidConfigs(_:)`` if the text does not decode.
    public static func document() throws -> ConfigsDocument {
        try ConfigsDocument.decode(Data(json.utf8))
    }
}
