import ConfigDirector

// README, "Typed keys": the JSON type as an app target isolated to the main actor declares it.
nonisolated struct Theme: Decodable, Equatable {
    let primary: String
    let cornerRadius: Double

    static let fallback = Theme(primary: "#101010", cornerRadius: 8)
}

// The reference page, "JSON configs", verbatim: `Theme`'s `Decodable` conformance is isolated to the main
// actor here, and the synchronous read decodes it there.
enum ReferencePage {
    struct Theme: Decodable {
        let primary: String
        let cornerRadius: Double
    }

    static func read(client: ConfigDirectorClient) -> Theme {
        let theme = client.value(
            for: "theme",
            as: Theme.self,
            default: Theme(primary: "#101010", cornerRadius: 8)
        )
        return theme
    }
}

// The same read with README's `nonisolated` `Theme`, whose decode the client keeps between reads.
func readJSON(client: ConfigDirectorClient) async throws {
    let theme = client.value(
        for: "theme",
        as: Theme.self,
        default: Theme(primary: "#101010", cornerRadius: 8)
    )
    precondition(theme == .fallback && ReferencePage.read(client: client).primary == "#101010")
}

@MainActor
final class ThemeModel {
    var theme = Theme.fallback

    // The reference page, "JSON configs": the stream.
    func follow(_ client: ConfigDirectorClient) async {
        for await theme in client.values(for: "theme", as: Theme.self, default: .fallback) {
            self.theme = theme
        }
    }
}
