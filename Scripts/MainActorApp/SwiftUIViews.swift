import ConfigDirector

#if canImport(SwiftUI)
import SwiftUI

extension ConfigKeys {
    static let greeting = ConfigKey("greeting", default: "Hello")
}

// ConfigClient's DocC article, "Values SwiftUI re-renders from": an `ObservedConfig` in `@State`, then the
// `.task` loop it shows for iOS 15–16 (a fragment: the view around it is given).
enum ConfigClientArticle {
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
    struct DarkModeLabel: View {
        @State private var darkMode: ObservedConfig<Bool>

        init(client: ConfigDirectorClient) {
            _darkMode = State(initialValue: ObservedConfig(.darkMode, client: client))
        }

        var body: some View {
            Text(darkMode.value ? "Dark" : "Light")
        }
    }

    struct DarkModeToggle: View {
        let client: ConfigDirectorClient
        @State private var isOn = false

        var body: some View {
            Toggle("Dark mode", isOn: $isOn)
                .task {
                    for await value in client.values(for: .darkMode) { isOn = value }
                }
        }
    }
}

// The documentation of `ObservedConfig`, `ObservedConfigs` and `@ObservedConfigValue` (ObservedConfig.swift).
enum ObservedConfigDocumentation {
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
    struct DarkModeToggle: View {
        @State private var darkMode: ObservedConfig<Bool>

        init(client: ConfigDirectorClient) {
            _darkMode = State(initialValue: ObservedConfig(.darkMode, client: client))
        }

        var body: some View {
            Text(darkMode.value ? "Dark" : "Light")
        }
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
    struct Checkout: View {
        @State private var configs: ObservedConfigs

        init(client: ConfigDirectorClient) {
            _configs = State(initialValue: ObservedConfigs(client: client))
        }

        var body: some View {
            Text(configs[.greeting])
                .foregroundStyle(configs[.darkMode] ? .white : .black)
        }
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
    struct DarkModeLabel: View {
        @ObservedConfigValue private var darkMode: Bool

        init(client: ConfigDirectorClient) {
            _darkMode = ObservedConfigValue(.darkMode, client: client)
        }

        var body: some View {
            Text(darkMode ? "Dark" : "Light")
        }
    }
}
#endif
