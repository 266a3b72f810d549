#if os(Linux) || os(macOS)
public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The child processes of tests and benchmarks: the `openssl` command that makes their certificates, and the
/// line a helper script prints when it is ready. Both block: call them off the cooperative pool
/// (``offThePool(_:)``).
public enum ChildProcess {
    /// Runs `openssl` with `arguments` in `folder`, without the system's configuration file, and waits for it.
    /// - Throws: When it does not start or exits with a failure.
    public static func openssl(_ arguments: [String], in folder: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["OPENSSL_CONF"] = "/dev/null"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "openssl \(arguments) failed"])
        }
    }

    /// Reads one line from `descriptor`, waiting at most `seconds` in all.
    /// - Returns: The line without its line feed; `nil` when the descriptor ends or the time runs out first.
    public static func readLine(from descriptor: Int32, seconds: Double) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        var line: [UInt8] = []
        while Date() < deadline {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 50) > 0 else { continue }
            var byte: UInt8 = 0
            guard read(descriptor, &byte, 1) == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
        return nil
    }
}
#endif
