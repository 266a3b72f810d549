import ConfigEmulator
@_spi(Internal) import ConfigModel
import EmulatorTestSupport
import Foundation
import ModelTestSupport
import TestSupport
import Testing

@Suite("Watching the configs file", .timeLimit(.minutes(3)))
struct WatchTests {
    @Test("pushes a delta when a value changes in the file and a full set when a key is removed")
    func reloads() async throws {
        let directory = try TemporaryFolder()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("configs.json")
        func write(_ configs: String) throws {
            try Data(#"{"environmentId": "env", "configs": [\#(configs)]}"#.utf8).write(to: file, options: .atomic)
        }
        let a = #"{"key": "a", "type": "string", "value": "one"}"#
        let b = #"{"key": "b", "type": "integer", "value": 1}"#
        try write([a, b].joined(separator: ","))
        let document = try ConfigsDocument.load(from: file)
        var configuration = Fixtures.configuration()
        configuration.document = ConfigsDocument(configs: document.configs)
        configuration.watchedFile = file
        configuration.watchInterval = 0.02
        let logger = RecordingLogger(level: .error)
        configuration.logger = logger
        try await withEmulator(configuration: configuration) { emulator in
            let stream = Fixtures.openStream(emulator)
            defer { stream.cancel() }
            try await stream.waitForEvents { $0.count == 1 }

            try write([a, #"{"key": "b", "type": "integer", "value": 2}"#].joined(separator: ","))
            var events = try await stream.waitForEvents { $0.count == 2 }
            #expect(events[1].configSet?.kind == .delta)
            #expect(events[1].configSet?.configs == ["b": ConfigState(id: "b", key: "b", type: .integer, value: "2")])

            try write("{\"key\": broken")
            // The watcher read the broken file and refused it: a reload of it would have come by now.
            #expect(await eventually { logger.messages(at: .error).contains { $0.hasPrefix("Not reloading") } })
            #expect(emulator.document.configs.count == 2)

            try write(a)
            events = try await stream.waitForEvents { $0.count == 3 }
            #expect(events[2].configSet?.kind == .full)
            #expect(events[2].configSet?.configs.keys.sorted() == ["a"])
            #expect(events.count == 3)
        }
    }
}
