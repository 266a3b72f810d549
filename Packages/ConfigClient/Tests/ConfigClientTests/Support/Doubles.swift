@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigTransport
import Foundation
import Testing

/// A logger that keeps every message.
final class RecordingLogger: ConfigDirectorLogger, @unchecked Sendable {
    // `entries` is guarded by `lock`.
    private let lock = NSLock()
    private var entries: [(level: ConfigDirectorLogLevel, message: String, error: (any Error)?)] = []
    let level: ConfigDirectorLogLevel = .debug

    /// The SDK keys the suite's clients are made with: no log line may carry one (issue 18).
    static let sdkKeys = [ClientFixture.sdkKey, "test-key"]

    func log(_ level: ConfigDirectorLogLevel, message: String, error: (any Error)?) {
        // Every line any test of the suite logs is scanned for the SDK key.
        let line = message + (error.map { " \($0)" } ?? "")
        for key in Self.sdkKeys where line.contains(key) {
            Issue.record("A \(level) log line carries the SDK key: \(line)")
        }
        lock.withLock { entries.append((level, message, error)) }
    }

    /// The messages logged at `level`, each with its error argument.
    func entries(at level: ConfigDirectorLogLevel) -> [(message: String, error: (any Error)?)] {
        lock.withLock { entries.filter { $0.level == level }.map { ($0.message, $0.error) } }
    }

    func messages(at level: ConfigDirectorLogLevel) -> [String] {
        lock.withLock { entries.filter { $0.level == level }.map(\.message) }
    }
}

/// A telemetry sink that keeps every batch.
final class RecordingTelemetrySink: TelemetrySink, @unchecked Sendable {
    // `sent` and `keepsGoing` are guarded by `lock`.
    private let lock = NSLock()
    private var sent: [TelemetryBatch] = []
    private var keepsGoing = true

    func send(_ batch: TelemetryBatch) async -> Bool {
        lock.withLock {
            sent.append(batch)
            return keepsGoing
        }
    }

    var batches: [TelemetryBatch] { lock.withLock { sent } }

    /// Makes every later send answer that telemetry must stop.
    func refuseFromNowOn() {
        lock.withLock { keepsGoing = false }
    }
}

/// A lifecycle a test drives.
final class ManualLifecycleObserver: AppLifecycleObserver, @unchecked Sendable {
    // `handler` and `stopped` are guarded by `lock`.
    private let lock = NSLock()
    private var handler: (@Sendable (AppLifecycleEvent) -> Void)?
    private var stopped = false

    func start(_ handler: @escaping @Sendable (AppLifecycleEvent) -> Void) {
        lock.withLock { self.handler = handler }
    }

    func stop() {
        lock.withLock {
            handler = nil
            stopped = true
        }
    }

    var isStopped: Bool { lock.withLock { stopped } }

    func send(_ event: AppLifecycleEvent) {
        let handler = lock.withLock { self.handler }
        handler?(event)
    }
}
