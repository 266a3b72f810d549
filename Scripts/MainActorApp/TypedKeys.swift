import ConfigDirector

func apply(_ theme: Theme) {}

// README, "Typed keys".
extension ConfigKeys {
    static let darkMode = ConfigKey("dark-mode", default: false)
    static let maxItems = ConfigKey("max-items", default: 20)
    static let theme = JSONConfigKey("theme", as: Theme.self, default: .fallback)
}

func typedKeys(client: ConfigDirectorClient) async {
    let darkMode = client.value(for: .darkMode)  // Bool
    let maxItems = client[.maxItems]  // Int
    for await theme in client.values(for: .theme) { apply(theme) }
    _ = (darkMode, maxItems)
}
