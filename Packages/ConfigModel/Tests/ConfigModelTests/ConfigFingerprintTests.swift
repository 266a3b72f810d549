@_spi(Internal) import ConfigModel
import Foundation
import Testing

/// The fingerprint that tells a launch which set it serves (issue 44): the same in every process, whatever the
/// order, and different when any part of any config differs.
@Suite("Config fingerprints", .timeLimit(.minutes(1)))
struct ConfigFingerprintTests {
    private static let configs: [(ExactKey, ConfigState)] = [
        ("dark-mode", ConfigState(type: .boolean, value: "true", valueID: "on")),
        ("layout", ConfigState(type: .json, value: #"{"columns":2}"#)),
        ("empty", ConfigState(type: .string, value: nil)),
    ]

    private static func fingerprint(_ configs: [(ExactKey, ConfigState)]) -> ConfigFingerprint {
        ConfigFingerprint(hashes: configs.map { ConfigFingerprint.hash(key: $0.0, state: $0.1) })
    }

    @Test("the same configs give the same fingerprint in any order, and the value pinned here in every process")
    func stable() {
        let fingerprint = Self.fingerprint(Self.configs)
        #expect(Self.fingerprint(Self.configs.reversed()) == fingerprint)
        #expect(fingerprint.hex.count == 32)
        // Pinned, as computed by a Python rendering of the same hash: a fingerprint written by one launch is read by
        // the next, another process, maybe of another build.
        #expect(fingerprint.hex == "ad7bbfed09c2c4190c9fb25bf4764e2f")
        #expect(ConfigFingerprint(hashes: []).hex == String(repeating: "0", count: 32))
    }

    @Test("a change of any key, type, value or value id, or a config more or less, changes the fingerprint")
    func sensitive() {
        let original = Self.fingerprint(Self.configs)
        var variants: [[(ExactKey, ConfigState)]] = []
        for index in Self.configs.indices {
            let (key, state) = Self.configs[index]
            var changed = state
            changed.value = (state.value ?? "") + "x"
            var retyped = state
            retyped.type = .custom
            var renamedValueID = state
            renamedValueID.valueID = (state.valueID ?? "") + "x"
            var noValue = state
            noValue.value = state.value == nil ? "" : nil
            for replacement in [
                (key, changed), (key, retyped), (key, renamedValueID), (key, noValue),
                (ExactKey(key.name + "x"), state),
            ] {
                var configs = Self.configs
                configs[index] = replacement
                variants.append(configs)
            }
        }
        variants.append(Array(Self.configs.dropLast()))
        variants.append(Self.configs + [("extra", ConfigState(type: .string, value: "x"))])
        for variant in variants {
            #expect(Self.fingerprint(variant) != original)
        }
    }

    @Test("keys differ by their bytes: canonically equivalent spellings give different fingerprints")
    func exactKeys() {
        let state = ConfigState(type: .string, value: "x")
        #expect(
            Self.fingerprint([(ExactKey("caf\u{E9}"), state)]) != Self.fingerprint([(ExactKey("cafe\u{301}"), state)]))
    }

    @Test("a field's end is marked: moving bytes from the value to the value id changes the fingerprint")
    func fieldsDoNotRunTogether() {
        let first = ConfigState(type: .string, value: "ab", valueID: "c")
        let second = ConfigState(type: .string, value: "a", valueID: "bc")
        #expect(ConfigFingerprint.hash(key: "k", state: first) != ConfigFingerprint.hash(key: "k", state: second))
    }
}
