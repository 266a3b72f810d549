import Foundation
import Testing

@testable import ConfigStore

@Suite("ConfigStore's privacy manifest", .timeLimit(.minutes(1)))
struct PrivacyManifestTests {
    @Test("is in the module's bundle and declares the UserDefaults and file APIs the store calls, with no tracking")
    func inTheBundle() throws {
        let url = try #require(StorePrivacyManifest.url)
        let plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil)
        let manifest = try #require(plist as? [String: Any])
        #expect(manifest["NSPrivacyTracking"] as? Bool == false)
        #expect((manifest["NSPrivacyCollectedDataTypes"] as? [Any])?.isEmpty == true)
        let accessed = try #require(manifest["NSPrivacyAccessedAPITypes"] as? [[String: Any]])
        let reasons = Dictionary(
            uniqueKeysWithValues: accessed.compactMap { entry -> (String, [String])? in
                guard let category = entry["NSPrivacyAccessedAPIType"] as? String else { return nil }
                return (category, entry["NSPrivacyAccessedAPITypeReasons"] as? [String] ?? [])
            })
        #expect(
            reasons == [
                "NSPrivacyAccessedAPICategoryUserDefaults": ["CA92.1"],
                "NSPrivacyAccessedAPICategoryFileTimestamp": ["C617.1"],
            ])
    }
}
