// The provider page (Docs/configdirector-openfeature-provider.md), "Initialize the provider": the provider
// registered from the `App`, verbatim. An app module of Xcode 26's template that imports OpenFeature, which
// only the trait OpenFeature brings: `make check-apple` compiles it for iOS against the modules built with the
// traits (it is Apple-only: SwiftUI).
import ConfigDirectorOpenFeatureProvider
import OpenFeature
import SwiftUI

// The page's `guard` line is longer than the project's limit and is kept as it is.
// swift-format-ignore
@main
struct MyApp: App {
    var body: some Scene {
        WindowGroup {
            ContentView()
                .task {
                    guard let provider = try? ConfigDirectorProvider(clientSDKKey: "YOUR-CLIENT-SDK-KEY") else { return }
                    await OpenFeatureAPI.shared.setProviderAndWait(
                        provider: provider,
                        initialContext: ImmutableContext(targetingKey: "user-123")
                    )
                }
        }
    }
}
