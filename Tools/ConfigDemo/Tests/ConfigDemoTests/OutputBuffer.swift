import ConfigDemoKit
import Foundation
import TestSupport

/// Collects what a ``DemoConsole`` prints, for the tests to read.
final class OutputBuffer: Sendable {
    private let text = Protected("")

    /// A plain console that writes here.
    var console: DemoConsole {
        DemoConsole(style: .plain) { [text] piece in
            text.withLock { $0 += piece }
        }
    }

    /// Everything printed so far.
    var output: String { text.current }
}
