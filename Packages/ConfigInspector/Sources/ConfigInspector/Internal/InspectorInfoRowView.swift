#if canImport(SwiftUI)
import SwiftUI

/// A label and its value on one line, read by VoiceOver as one element.
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
                .textSelection(.enabled)
        }
        .accessibilityElement(children: .combine)
    }
}
#endif
