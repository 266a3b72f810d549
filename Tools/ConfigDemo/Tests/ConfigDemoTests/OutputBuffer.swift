import ConfigDemoKit
import Foundation

/// Collects what a ``DemoConsole`` prints, for the tests to read.
final class OutputBuffer: @unchecked Sendable {  // `text` is only touched while holding `lock`
    private let lock = NSLock()
    private var text = ""

    /// A plain console that writes here.
    var console: DemoConsole {
        DemoConsole(style: .plain) { [self] piece in
            lock.lock()
            defer { lock.unlock() }
            text += piece
        }
    }

    /// Everything printed so far.
    var output: String {
        lock.lock()
        defer { lock.unlock() }
        return text
    }
}
