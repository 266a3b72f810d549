import ConfigDemoKit
import ConfigEmulator
import Foundation
import TestSupport
import Testing

// The story's speed (about 5 s on the project's machine, asked to stay under 30 s) is not a test's to
// measure: the time limit only bounds a story that hangs.
@Suite("The demo's story", .timeLimit(.minutes(3)))
struct DemoStoryTests {
    @Test("plays every step in plain mode, in order, each with a check that held, and passes")
    func streamingStoryPasses() async throws {
        let buffer = OutputBuffer()
        let story = DemoStory(options: DemoOptions(isPlain: true), console: buffer.console)
        defer { story.finish() }
        do {
            try await story.run()
        } catch {
            Issue.record("\(error)\n\(buffer.output)")
        }
        let output = buffer.output
        let sections = Self.steps(in: output, count: 6)
        #expect(sections.count == 6, "every step is printed once, in order\n\(output)")
        for (number, section) in zip(1..., sections) {
            #expect(section.contains("    ok "), "step \(number) printed no check that held\n\(section)")
        }
        #expect(output.contains("6 steps, 6 ok."))
        #expect(output.contains("dashboard: http://127.0.0.1:"), "the demo prints the dashboard's URL")
        #expect(!output.contains("\u{1B}["), "plain output has no escape sequences")
    }

    @Test("plays the polling story and passes")
    func pollingStoryPasses() async throws {
        let buffer = OutputBuffer()
        var options = DemoOptions(isPlain: true)
        options.usesPolling = true
        let story = DemoStory(options: options, console: buffer.console)
        defer { story.finish() }
        do {
            try await story.run()
        } catch {
            Issue.record("\(error)\n\(buffer.output)")
        }
        #expect(buffer.output.contains("Polling: the server refuses a fetch"))
        #expect(buffer.output.contains("The story passed"))
    }

    @Test("--follow prints a change made by editing the configs file it names")
    func followPrintsAnEditOfTheConfigsFile() async throws {
        let (sawEdit, output) = try await Self.follow { path, buffer in
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return false }
            let edited = text.replacingOccurrences(of: "Hello again, changed on the server", with: "Edited by hand")
            try? edited.write(toFile: path, atomically: true, encoding: .utf8)
            return await Self.printed("welcome-message = \"Edited by hand\"", in: buffer)
        }
        #expect(sawEdit, "\(output)")
        #expect(output.contains("curl -X PUT -H 'X-Emulator-Admin: 1' http://127.0.0.1:"))
    }

    @Test("--follow prints what a values(for:) stream yields when a config is removed: its default value")
    func followPrintsTheDefaultOfARemovedConfig() async throws {
        let (sawDefault, output) = try await Self.follow { path, buffer in
            guard let data = FileManager.default.contents(atPath: path),
                var document = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let configs = document["configs"] as? [[String: Any]]
            else { return false }
            document["configs"] = configs.filter { $0["key"] as? String != "welcome-message" }
            guard let edited = try? JSONSerialization.data(withJSONObject: document) else { return false }
            try? edited.write(to: URL(fileURLWithPath: path), options: .atomic)
            // The events name the removed key; the stream of the key, read as a String, yields its default.
            guard await Self.printed("welcome-message was removed", in: buffer) else { return false }
            return await Self.printed("welcome-message = \"\"", in: buffer)
        }
        #expect(sawDefault, "\(output)")
    }

    /// Plays the story with `--follow`, then has `edit` change the configs file (given its path) while
    /// the demo follows; returns what `edit` returned (false when the path was not printed) and the output.
    private static func follow(
        _ edit: @escaping @Sendable (_ path: String, _ buffer: OutputBuffer) async -> Bool
    ) async throws -> (Bool, String) {
        let buffer = OutputBuffer()
        var options = DemoOptions(isPlain: true)
        options.follows = true
        let story = DemoStory(options: options, console: buffer.console)
        defer { story.finish() }
        try await story.run()
        let result = Protected(false)
        try await story.follow {
            guard let path = configsPath(in: buffer.output) else { return }
            result.set(await edit(path, buffer))
        }
        return (result.current, buffer.output)
    }

    /// Waits up to 10 s for the story to print `text`; whether it did.
    private static func printed(_ text: String, in buffer: OutputBuffer) async -> Bool {
        let deadline = Date(timeIntervalSinceNow: 10)
        while Date() < deadline {
            if buffer.output.contains(text) { return true }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        return false
    }

    @Test("serves the example configs file of the emulator")
    func servesTheExampleConfigs() throws {
        let example = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("ConfigEmulator/Examples/configs.json")
        #expect(try DemoConfigs.document() == ConfigsDocument.load(from: example))
    }

    /// The text of each step, from its `[n/count]` header to the next one's; fewer than `count` when
    /// a header is missing or out of order.
    private static func steps(in output: String, count: Int) -> [Substring] {
        var sections: [Substring] = []
        var rest = output[...]
        for number in 1...count {
            guard let header = rest.range(of: "[\(number)/\(count)]") else { break }
            if number > 1 { sections.append(rest[..<header.lowerBound]) }
            rest = rest[header.lowerBound...]
        }
        if sections.count == count - 1 { sections.append(rest) }
        return sections
    }

    /// The configs file's path, from the line `edit PATH (reloaded within a second)…`.
    private static func configsPath(in output: String) -> String? {
        guard let line = output.split(separator: "\n").first(where: { $0.contains("edit /") }),
            let start = line.range(of: "edit ")?.upperBound, let end = line.range(of: " (reloaded")?.lowerBound
        else { return nil }
        return String(line[start..<end])
    }
}
