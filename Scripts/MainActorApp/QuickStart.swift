import ConfigDirector

// README, "Quick start".
func quickStart() async throws {
    // Creating the client makes no network calls. It throws only when the SDK key is
    // blank or a custom base URL is invalid.
    let client = try ConfigDirectorClient(clientSDKKey: "YOUR-CLIENT-SDK-KEY")

    // Connects and waits until config values are received, or until it times out.
    // After a timeout the client keeps trying to connect in the background.
    await client.initialize(context: ConfigDirectorContext(id: "user-123"))

    let darkMode = client.value(for: "dark-mode", default: false)

    for await darkMode in client.values(for: "dark-mode", default: false) {
        print("Value updated: \(darkMode)")
    }
    _ = darkMode
}
