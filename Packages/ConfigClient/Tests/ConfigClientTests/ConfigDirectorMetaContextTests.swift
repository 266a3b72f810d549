import Foundation
import Testing

@_spi(Internal) @testable import ConfigClient

@Suite("App metadata", .timeLimit(.minutes(1)))
struct ConfigDirectorMetaContextTests {
    @Test("keeps the values given instead of the bundle's")
    func keepsGivenValues() {
        let metadata = ConfigDirectorMetaContext(appName: "MyApp", appVersion: "1.0.2").filled()
        #expect(metadata.appName == "MyApp")
        #expect(metadata.appVersion == "1.0.2")
    }

    @Test(
        "reads the display name, then the bundle name, and the short version from the bundle",
        arguments: [("Shown", "Shown"), (nil, "Plain")] as [(String?, String)])
    func readsTheBundle(displayName: String?, expectedName: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("meta-\(UUID().uuidString).bundle")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var info: [String: Any] = ["CFBundleName": "Plain", "CFBundleShortVersionString": "2.3"]
        info["CFBundleDisplayName"] = displayName
        let data = try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0)
        try data.write(to: folder.appendingPathComponent("Info.plist"))
        let bundle = try #require(Bundle(url: folder))

        let metadata = ConfigDirectorMetaContext().filled(from: bundle)
        #expect(metadata.appName == expectedName)
        #expect(metadata.appVersion == "2.3")
    }
}
