#if canImport(SwiftUI) && canImport(Combine)
import Combine
import ConfigClient

/// The model as SwiftUI observes it on iOS 15 (Observation needs iOS 17): each change the model tells becomes
/// `objectWillChange`. It starts following the client when it is made, and stops when it is released.
@MainActor
final class InspectorStore: ObservableObject {
    let model: ConfigInspectorModel

    init(client: ConfigDirectorClient) {
        model = ConfigInspectorModel(client: client)
        model.onChange = { [weak self] in self?.objectWillChange.send() }
        model.start()
    }
}
#endif
