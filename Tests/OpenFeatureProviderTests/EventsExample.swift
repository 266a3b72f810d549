#if OpenFeature
import Combine
import OpenFeature

// "Events" (ConfigDirectorSetup.swift), verbatim, with the subscription returned so that it lives.
func eventsExample() -> AnyCancellable {
    let subscription = OpenFeatureAPI.shared.observe().sink { event in
        switch event {
        case let .configurationChanged(details):
            print("Configs updated: \(details?.flagsChanged ?? [])")
        case .ready:
            print("Config state is available")
        case let .error(details):
            print("ConfigDirector could not be reached: \(details?.message ?? "")")
        default:
            break
        }
    }
    return subscription
}
#endif
