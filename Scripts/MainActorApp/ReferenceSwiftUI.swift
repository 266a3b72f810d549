import ConfigDirector

#if canImport(SwiftUI)
import SwiftUI

// The reference page (Docs/configdirector-swift-sdk.md), "Initialize the client": the client owned by the
// `App`, verbatim but for `@main` (main.swift is this module's entry point).
struct MyApp: App {
    @State private var client = try? ConfigDirectorClient(clientSDKKey: "YOUR-CLIENT-SDK-KEY")

    var body: some Scene {
        WindowGroup {
            ContentView()
                .environment(\.configDirectorClient, client)
                .task {
                    await client?.initialize(context: ConfigDirectorContext(id: "user-123"))
                }
        }
    }
}

// The page declares the key with `extension EnvironmentValues { @Entry var configDirectorClient:
// ConfigDirectorClient? }`. The plugin that expands `@Entry` ships with Xcode alone, so the check on Linux
// compiles what it expands to: a key whose default is `nil`, and the property that reads and writes it.
extension EnvironmentValues {
    var configDirectorClient: ConfigDirectorClient? {
        get { self[ConfigDirectorClientKey.self] }
        set { self[ConfigDirectorClientKey.self] = newValue }
    }
}

private struct ConfigDirectorClientKey: EnvironmentKey {
    static let defaultValue: ConfigDirectorClient? = nil
}

// What the page leaves to the reader: a view that reads the client from the environment.
struct ContentView: View {
    @Environment(\.configDirectorClient) private var client

    var body: some View {
        if let client {
            DarkModeToggle(client: client)
        }
    }
}

// The reference page, "Reading configs in SwiftUI", verbatim.
struct DarkModeToggle: View {
    let client: ConfigDirectorClient

    @State private var isOn = false

    var body: some View {
        Toggle("Dark mode", isOn: $isOn)
            .task {
                for await value in client.values(for: "dark-mode", default: false) {
                    isOn = value
                }
            }
    }
}
#endif
