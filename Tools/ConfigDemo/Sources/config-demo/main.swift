import ConfigDemoKit
import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Writes to a closed pipe (`config-demo | head`) must not kill the process.
signal(SIGPIPE, SIG_IGN)

/// Returns when the user presses Ctrl-C, so that the demo can close its clients and remove its files.
@Sendable func untilInterrupted() async {
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .main)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        source.setEventHandler {
            source.cancel()
            continuation.resume()
        }
        source.resume()
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
let status = await DemoRunner.run(arguments: arguments, untilInterrupted: untilInterrupted)
exit(status)
