@_spi(Locking) internal import ConfigModel
internal import Foundation

/// Proves healthy the launch of every client alive when the process exits normally (`exit`, or the end of
/// `main`): a process that exits ran well. An abort, a crash, a fatal signal or a kill never run it.
enum ProcessExit {
    private struct WeakGuard: Sendable {
        weak var value: LaunchGuard?
    }

    private static let guards = Locked<[ObjectIdentifier: WeakGuard]>([:])
    /// The `atexit` handler, registered once, with the first guard.
    private static let handler: Void = {
        atexit { ProcessExit.exiting() }
    }()

    /// Proves `launchGuard` healthy if the process exits normally while it is registered.
    static func register(_ launchGuard: LaunchGuard) {
        _ = handler
        guards.withLock { $0[ObjectIdentifier(launchGuard)] = WeakGuard(value: launchGuard) }
    }

    /// Stops proving `launchGuard` at exit.
    static func unregister(_ launchGuard: LaunchGuard) {
        _ = guards.withLock { $0.removeValue(forKey: ObjectIdentifier(launchGuard)) }
    }

    private static func exiting() {
        for launchGuard in guards.withLock({ $0.values.compactMap(\.value) }) {
            launchGuard.markHealthy(why: "the process exited")
        }
    }
}
