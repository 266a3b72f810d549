@_spi(Internal) import ConfigModel
import Foundation
import Testing

@_spi(Internal) @testable import ConfigStore

@Suite("Kept values entry: encoding", .timeLimit(.minutes(1)))
struct KeptValuesEntryEncodingTests {
    static func entry(_ set: ConfigSet, context: KeptContext = KeptContext(kind: "user", id: "u-1", instanceID: nil))
        -> KeptValuesEntry
    {
        KeptValuesEntry(
            formatVersion: KeptValuesEntry.currentFormatVersion,
            sdkVersion: ConfigDirectorSDK.version,
            sdkKeyHash: "abc123",
            context: context,
            writtenAt: Fixtures.writtenAt,
            configSet: set
        )
    }

    @Test("writes JSON that reads back as the same entry, escaping what JSON strings must escape")
    func roundTrip() throws {
        let awkward = "quote \" backslash \\ newline \n tab \t return \r bell \u{07} nul \u{0} ✓ 𝄞 </script>"
        let set = ConfigSet(
            environmentID: "env \"1\"",
            projectID: nil,
            kind: .full,
            timestamp: "2026-08-29T00:00:00Z",
            configs: [
                ExactKey(awkward): ConfigState(id: "id", key: awkward, type: .json, value: awkward, valueID: "v\u{1F}"),
                "no-value": ConfigState(type: .boolean, value: nil),
            ]
        )
        for context in [
            KeptContext(kind: "user", id: awkward, instanceID: nil),
            KeptContext(kind: "device", id: nil, instanceID: "8A3E6F1C-0000-4000-8000-000000000000"),
        ] {
            let entry = Self.entry(set, context: context)
            let text = try #require(entry.encoded(upTo: .max))
            #expect(try JSONSerialization.jsonObject(with: Data(text.utf8)) is [String: Any])
            #expect(KeptValuesEntry.read(text) == .entry(entry))
        }
    }

    @Test("writes an entry of exactly the limit, and refuses one byte more without a text")
    func limit() throws {
        let entry = Self.entry(Fixtures.configSet(count: 50))
        let size = try #require(entry.encoded(upTo: .max)).utf8.count
        #expect(entry.encoded(upTo: size)?.utf8.count == size)
        #expect(entry.encoded(upTo: size - 1) == nil)
        #expect(entry.encoded(upTo: 10) == nil)
    }
}
