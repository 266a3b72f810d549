#if OpenFeature && canImport(SwiftUI)
import ConfigDirectorOpenFeatureProvider
import OpenFeature
import SwiftUI

// "Configure and initialize the client" (MyApp.swift), verbatim but for `@main`, which a test bundle
// cannot declare.
struct MyApp: App {
    var body: some Scene {
        WindowGroup {
            ContentView()
                .task {
                    guard let provider = try? ConfigDirectorProvider(clientSDKKey: "YOUR-CLIENT-SDK-KEY") else {
                        return
                    }
                    await OpenFeatureAPI.shared.setProviderAndWait(
                        provider: provider,
                        initialContext: ImmutableContext(targetingKey: "user-123")
                    )
                }
        }
    }
}

/// The view MyApp shows.
struct ContentView: View {
    var body: some View { DarkModeToggle() }
}

// "Reading configs in SwiftUI" (DarkModeToggle.swift), verbatim.
struct DarkModeToggle: View {
    @State private var isOn = false

    var body: some View {
        Toggle("Dark mode", isOn: $isOn)
            .onReceive(OpenFeatureAPI.shared.observe().receive(on: DispatchQueue.main)) { _ in
                isOn = OpenFeatureAPI.shared.getClient().getBooleanValue(key: "dark-mode", defaultValue: false)
            }
    }
}
#endif
