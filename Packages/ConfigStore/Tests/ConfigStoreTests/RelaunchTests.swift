@_spi(Internal) import ConfigModel
import Foundation
import ModelTestSupport
import TestSupport
import Testing

@_spi(Internal) @testable import ConfigStore

/// The default store across launches: the test runs this test binary again, twice, as two launches of
/// an app with a home of its own. The first launch saves a set and reads the instance id; the second
/// must serve that set and give the same instance id. On Linux this is what `UserDefaults` failed to do.
@Suite("Kept values across launches", .timeLimit(.minutes(2)))
struct RelaunchTests {
    /// Set in the relaunched process: the launch's role (`first` or `second`) and where it reports.
    private static let roleVariable = "CONFIGDIRECTOR_RELAUNCH_ROLE"
    private static let reportVariable = "CONFIGDIRECTOR_RELAUNCH_REPORT"

    @Test(
        "the default store keeps the values and the instance id across a relaunch",
        .timeLimit(.minutes(2))
    )
    func keptAcrossRelaunch() async throws {
        let environment = ProcessInfo.processInfo.environment
        if let role = environment[Self.roleVariable], let report = environment[Self.reportVariable] {
            try await Self.launch(role: role, report: URL(fileURLWithPath: report))
            return
        }
        let home = try TemporaryFolder()
        defer { home.remove() }
        let first = try await Self.relaunch(role: "first", home: home.url)
        let second = try await Self.relaunch(role: "second", home: home.url)
        #expect(first.count == 2 && second.count == 2, "reports: \(first) then \(second)")
        #expect(UUID(uuidString: first[0]) != nil)
        #expect(second[0] == first[0], "the instance id changed across launches")
        #expect(first[1] == "saved")
        #expect(second[1] == "served \(Fixtures.configSet().configs.count) configs")
        #if !canImport(Darwin)
        // On Linux the store was the default file provider, in the relaunched app's data folder.
        let kept = try FileManager.default.subpathsOfDirectory(atPath: home.url.path)
        #expect(
            kept.contains {
                $0.hasSuffix("\(FileCachingProvider.folderName)/\(FileCachingProvider.instanceIDFileName)")
            })
        #endif
    }

    /// One launch, in the relaunched process: the default store of the fixture key, as a client has it.
    private static func launch(role: String, report: URL) async throws {
        let store = KeptValuesStore(clientSDKKey: Fixtures.sdkKey, logger: RecordingLogger())
        let instanceID = await store.instanceID()
        let outcome: String
        if role == "first" {
            store.save(Fixtures.configSet(), for: Fixtures.ada)
            await store.close()
            outcome = "saved"
        } else {
            let served = await store.load(for: Fixtures.ada)
            outcome = served.map { "served \($0.configs.count) configs" } ?? "served nothing"
        }
        try Data("\(instanceID)\n\(outcome)".utf8).write(to: report)
    }

    /// Runs this test alone in a new process of the test binary, with `home` as its home and data
    /// folder, and returns the lines the launch reported.
    private static func relaunch(role: String, home: URL) async throws -> [String] {
        let report = home.appendingPathComponent("report-\(role).txt")
        let status = try await relaunchThisTestBinary(
            filter: "keptAcrossRelaunch",
            environment: [
                "HOME": home.path,
                "XDG_DATA_HOME": home.appendingPathComponent("data").path,
                "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                roleVariable: role,
                reportVariable: report.path,
            ]
        )
        guard status == 0 else { return ["exit status \(status)"] }
        return String(decoding: try Data(contentsOf: report), as: UTF8.self).components(separatedBy: "\n")
    }
}
