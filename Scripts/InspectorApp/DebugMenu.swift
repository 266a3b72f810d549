// README, "In-app inspector", verbatim: compiled by `make check-apple` (Scripts/check-apple.sh) as an iOS app
// module with Xcode 26's defaults (the main actor by default), in a debug build, warnings as errors.
#if DEBUG
import ConfigDirectorInspector
import SwiftUI

struct DebugMenu: View {
    let client: ConfigDirectorClient
    @State private var showsInspector = false

    var body: some View {
        Button("Inspect configs") { showsInspector = true }
            .sheet(isPresented: $showsInspector) {
                ConfigInspectorView(client: client)
            }
    }
}
#endif
