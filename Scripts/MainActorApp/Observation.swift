import ConfigDirector

#if canImport(SwiftUI)
import SwiftUI
#endif

extension ConfigKeys {
    static let newCheckout = ConfigKey("new-checkout", default: false)
}

#if canImport(SwiftUI)
// README, "Values SwiftUI re-renders from" (SwiftUI exists on Apple platforms only).
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
struct CheckoutButton: View {
    @State private var configs: ObservedConfigs

    init(client: ConfigDirectorClient) {
        _configs = State(initialValue: ObservedConfigs(client: client))
    }

    var body: some View {
        Button(configs[.newCheckout] ? "Pay" : "Checkout") {}
    }
}
#else
// The same reads without SwiftUI, as a view model on the main actor.
final class CheckoutModel {
    private let configs: ObservedConfigs

    init(client: ConfigDirectorClient) {
        configs = ObservedConfigs(client: client)
    }

    var title: String { configs[.newCheckout] ? "Pay" : "Checkout" }
}
#endif
