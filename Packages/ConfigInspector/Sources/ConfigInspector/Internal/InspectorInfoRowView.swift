#if canImport(SwiftUI)
import SwiftUI

/// A label and its value on one line, read by VoiceOver as one element.
@MainActor
struct InspectorInfoRowView: View {
    let label: String
    let value: String

    var body: some View {
        HStack(alignment: .firstTextBaseline) {
            Text(label)
            Spacer()
            Text(value)
                .foregroundColor(.secondary)
                .multilineTextAlignment(.trailing)
                #if !os(tvOS) && !os(watchOS)
            .textSelection(.enabled)
                #endif
        }
        .accessibilityElement(children: .combine)
    }
}
#endif
