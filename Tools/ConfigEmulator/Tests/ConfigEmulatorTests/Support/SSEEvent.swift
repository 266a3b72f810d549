@_spi(Internal) import ConfigModel
import Foundation

/// One event of a text/event-stream, parsed simply: the emulator writes `id:` and `data:` lines and
/// `:` comments, each event ending in a blank line.
struct SSEEvent: Equatable {
    var id: String?
    var data: String

    /// The data decoded as a config set, if it is one.
    var configSet: ConfigSet? { try? JSONDecoder().decode(ConfigSet.self, from: Data(data.utf8)) }

    /// The complete events in `text`; comments and an unfinished last event are left out.
    static func parse(_ text: String) -> [SSEEvent] {
        var events: [SSEEvent] = []
        var blocks = text.components(separatedBy: "\n\n")
        blocks.removeLast()
        for block in blocks {
            var id: String?
            var data: [String] = []
            for line in block.split(separator: "\n") {
                if line.hasPrefix("id: ") { id = String(line.dropFirst(4)) }
                if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
            }
            if !data.isEmpty { events.append(SSEEvent(id: id, data: data.joined(separator: "\n"))) }
        }
        return events
    }
}
