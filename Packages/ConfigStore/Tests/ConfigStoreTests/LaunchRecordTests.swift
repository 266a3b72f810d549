@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigStore
import Foundation
import ModelTestSupport
import TestSupport
import Testing

/// The rules of crash-loop safe mode's record (issue 44): each state, each event.
@Suite("The launch record of safe mode", .timeLimit(.minutes(1)))
struct LaunchRecordTests {
    private static let poisoned = ConfigFingerprint(hex: "p")
    private static let fixed = ConfigFingerprint(hex: "f")
    private static let good = ConfigFingerprint(hex: "g")

    private static func trial(_ fingerprint: ConfigFingerprint, traced: Bool = false) -> LaunchRecord.Trial {
        LaunchRecord.Trial(
            fingerprint: fingerprint, changedKeys: ["layout"], changedKeyCount: 1, processID: 42, launchID: "launch",
            isTraced: traced)
    }

    /// The start of a launch after one that ended (its process gone).
    private static func launch(_ record: inout LaunchRecord, limit: Int = 2) -> LaunchRecord.Verdict {
        record.startLaunch(limit: limit) { _ in false }
    }

    @Test("a record of no launch has nothing on trial: a healthy past")
    func empty() {
        var record = LaunchRecord()
        #expect(Self.launch(&record) == .noTrial)
        #expect(record == LaunchRecord())
    }

    @Test("a new set goes on trial; the last set that ran well does not, and ends a trial")
    func serving() {
        var record = LaunchRecord()
        record.lastGood = Self.good
        let newSetGoesOnTrial = record.serve(Self.trial(Self.poisoned))
        #expect(newSetGoesOnTrial)
        #expect(record.trial?.fingerprint == Self.poisoned)
        let lastGoodGoesOnTrial = record.serve(Self.trial(Self.good))
        #expect(!lastGoodGoesOnTrial)
        #expect(record.trial == nil)
    }

    @Test("a launch that ended on a trial is a strike; the limit in a row sets the set aside")
    func strikesSetAside() {
        var record = LaunchRecord()
        record.serve(Self.trial(Self.poisoned))
        #expect(Self.launch(&record) == .strike(Self.trial(Self.poisoned), count: 1))
        #expect(record.trial == nil)
        #expect(!record.isSetAside(Self.poisoned))
        record.serve(Self.trial(Self.poisoned))
        #expect(Self.launch(&record) == .setAside(Self.trial(Self.poisoned), count: 2))
        #expect(record.isSetAside(Self.poisoned))
        #expect(record.strikes == nil)
    }

    @Test("strikes count one set in a row: another set's trial starts over at one")
    func strikesOfAnotherSet() {
        var record = LaunchRecord()
        record.serve(Self.trial(Self.poisoned))
        _ = Self.launch(&record)
        record.serve(Self.trial(Self.fixed))
        #expect(Self.launch(&record) == .strike(Self.trial(Self.fixed), count: 1))
        #expect(record.setAside.isEmpty)
    }

    @Test("a healthy launch ends the strikes and makes its set the last that ran well")
    func healthy() {
        var record = LaunchRecord()
        record.serve(Self.trial(Self.poisoned))
        _ = Self.launch(&record)
        record.serve(Self.trial(Self.fixed))
        let proven = record.proveHealthy()
        #expect(proven == Self.fixed)
        #expect(record.lastGood == Self.fixed)
        #expect(record.trial == nil)
        #expect(record.strikes == nil)
        let provenAgain = record.proveHealthy()
        #expect(provenAgain == nil)
        #expect(Self.launch(&record) == .noTrial)
    }

    @Test("a healthy launch without a trial still ends the strikes in a row")
    func healthyWithoutTrial() {
        var record = LaunchRecord()
        record.serve(Self.trial(Self.poisoned))
        _ = Self.launch(&record)
        let proven = record.proveHealthy()
        #expect(proven == nil)
        record.serve(Self.trial(Self.poisoned))
        #expect(Self.launch(&record) == .strike(Self.trial(Self.poisoned), count: 1))
    }

    @Test("a launch under a debugger, or one that still runs, counts nothing")
    func tracedAndRunning() {
        var record = LaunchRecord()
        record.serve(Self.trial(Self.poisoned, traced: true))
        #expect(Self.launch(&record) == .traced)
        #expect(record.trial == nil && record.strikes == nil)
        record.serve(Self.trial(Self.poisoned))
        let verdict = record.startLaunch(limit: 2) { _ in true }
        #expect(verdict == .stillRunning)
        #expect(record.trial != nil && record.strikes == nil)
    }

    @Test("a limit of one sets a set aside at its first unhealthy launch; sets aside are bounded, oldest out")
    func limitAndBound() {
        var record = LaunchRecord()
        for index in 0..<(LaunchRecord.setAsideLimit + 3) {
            record.serve(Self.trial(ConfigFingerprint(hex: "\(index)")))
            _ = Self.launch(&record, limit: 1)
        }
        #expect(record.setAside.count == LaunchRecord.setAsideLimit)
        #expect(!record.isSetAside(ConfigFingerprint(hex: "0")))
        #expect(record.isSetAside(ConfigFingerprint(hex: "\(LaunchRecord.setAsideLimit + 2)")))
    }

    @Test("the store writes the record atomically and reads it back; a corrupt or missing one is a healthy past")
    func store() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = LaunchRecordStore(
            clientSDKKey: "key", directory: folder.url, caching: CachingOptions(enabled: false),
            logger: SilentLogger())
        #expect(store.read().record == LaunchRecord() && store.read().problem == nil)
        var record = LaunchRecord()
        record.serve(Self.trial(Self.poisoned))
        try store.write(record)
        #expect(store.read().record == record)
        let file = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).first { $0.hasPrefix("launches-") })
        try Data("{not json".utf8).write(to: folder.url.appendingPathComponent(file))
        #expect(store.read().record == LaunchRecord())
        #expect(store.read().problem == "the launch record does not decode")
    }
}
