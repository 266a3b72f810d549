import Foundation

/// The process's resident memory, where the system reports it.
enum ResidentMemory {
    /// Bytes resident now, from /proc/self/status on Linux; `nil` elsewhere.
    static func current() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024
    }
}
