import Foundation
import Testing

@testable import ConfigClient

@Suite("ConfigClient's privacy manifest", .timeLimit(.minutes(1)))
struct PrivacyManifestTests {
    @Test("is in the module's bundle and declares the instance id, the context's id and telemetry, none for tracking")
    func inTheBundle() throws {
        let url = try #require(ClientPrivacyManifest.url)
        let plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil)
        let manifest = try #require(plist as? [String: Any])
        #expect(manifest["NSPrivacyTracking"] as? Bool == false)
        #expect((manifest["NSPrivacyAccessedAPITypes"] as? [Any])?.isEmpty == true)
        let collected = try #require(manifest["NSPrivacyCollectedDataTypes"] as? [[String: Any]])
        #expect(
            collected.compactMap { $0["NSPrivacyCollectedDataType"] as? String } == [
                "NSPrivacyCollectedDataTypeDeviceID", "NSPrivacyCollectedDataTypeUserID",
                "NSPrivacyCollectedDataTypeProductInteraction",
            ])
        #expect(collected.allSatisfy { $0["NSPrivacyCollectedDataTypeTracking"] as? Bool == false })
    }
}
