import ConfigDirector

// README, "Typed keys": the JSON type as an app target isolated to the main actor declares it.
nonisolated struct Theme: Decodable, Equatable {
    let primary: String
    let cornerRadius: Double

    static let fallback = Theme(primary: "#101010", cornerRadius: 8)
}

// The reference page, "JSON configs", with README's `Theme`.
func readJSON(client: ConfigDirectorClient) async throws {
    let theme = client.value(
        for: "theme",
        as: Theme.self,
        default: Theme(primary: "#101010", cornerRadius: 8)
    )
    precondition(theme == .fallback)
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
