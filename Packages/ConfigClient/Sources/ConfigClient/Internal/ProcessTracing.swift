internal import Foundation

#if canImport(Darwin)
internal import Darwin
#endif

/// Whether this process runs under a debugger (or another tracer): on Linux, a `TracerPid` other than 0 in
/// `/proc/self/status`; on Apple platforms, `P_TRACED` in the process's flags from `sysctl`.
enum ProcessTracing {
    /// Whether the process is traced now.
    static func isTraced() -> Bool {
        #if canImport(Darwin)
        var info = kinfo_proc()
        var size = MemoryLayout<kinfo_proc>.stride
        var name: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, getpid()]
        guard sysctl(&name, u_int(name.count), &info, &size, nil, 0) == 0 else { return false }
        return info.kp_proc.p_flag & P_TRACED != 0
        #else
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return false }
        return tracerID(inStatus: status).map { $0 != 0 } ?? false
        #endif
    }

    /// The `TracerPid` of a `/proc/<pid>/status` text, or `nil` when it has none.
    static func tracerID(inStatus status: String) -> Int? {
        for line in status.split(separator: "\n") where line.hasPrefix("TracerPid:") {
            return Int(line.dropFirst("TracerPid:".count).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
