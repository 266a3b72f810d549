#if os(Linux) || os(macOS)
public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process of a test or a benchmark: the `openssl` command that makes their certificates, or a helper
/// script that prints a line when it is ready (a TLS peer, a TLS front).
///
/// It is spawned with `posix_spawn` and waited for with `waitpid`, not through Foundation's `Process`: on
/// Linux, Foundation was seen never to notice the exit of a child whose launching thread had ended, and its
/// `waitUntilExit()` then spins a run loop for ever on the waiting thread. Starting a helper and running
/// `openssl` block: do both off the cooperative pool (``offThePool(_:)``). ``stop()`` blocks only while a
/// terminated child exits, a few milliseconds.
public final class ChildProcess: Sendable {
    /// The child's process id.
    private let pid: pid_t
    /// The write end of the child's standard input, or -1 when it was given none.
    private let input: Int32
    private let isReaped = Protected(false)

    /// Spawns `arguments[0]`, looked up in `PATH`, with `arguments`; its standard error goes nowhere.
    /// - Parameters:
    ///   - arguments: The command and its arguments.
    ///   - environment: Variables added to this process's environment for the child.
    ///   - folder: The child's working folder; this process's own when `nil`.
    ///   - standardInput: The descriptor the child reads as its standard input; nothing when -1.
    ///   - standardOutput: The descriptor the child writes as its standard output; nowhere when -1.
    ///   - input: The end of the child's input this process keeps, closed by ``stop()``; none when -1.
    /// - Throws: When the child cannot be spawned.
    private init(
        _ arguments: [String], environment: [String: String] = [:], in folder: URL? = nil,
        standardInput: Int32 = -1, standardOutput: Int32 = -1, input: Int32 = -1
    ) throws {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let nowhere = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { close(nowhere) }
        posix_spawn_file_actions_adddup2(&actions, standardInput >= 0 ? standardInput : nowhere, 0)
        posix_spawn_file_actions_adddup2(&actions, standardOutput >= 0 ? standardOutput : nowhere, 1)
        posix_spawn_file_actions_adddup2(&actions, nowhere, 2)
        // A shell changes folder first: `posix_spawn_file_actions_addchdir_np` is not imported on Linux.
        let command = (folder.map { ["/bin/sh", "-c", #"cd "$0" && exec "$@""#, $0.path] } ?? []) + arguments
        let variables = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        let argv = command.map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for string in argv + envp { free(string) } }
        // The child starts with no signal blocked: a thread of the cooperative pool blocks most of them, and a
        // child that inherited that mask would never see the SIGTERM of `stop()`.
        #if canImport(Darwin)
        var attributes: posix_spawnattr_t?
        #else
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, command[0], &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        self.pid = pid
        self.input = input
    }

    /// Whether every command is an executable file in a folder of `PATH`: the suites that spawn `python3`
    /// or `openssl` are enabled only when they are, and report themselves skipped with a message otherwise.
    /// - Parameter commands: The commands' names.
    /// - Returns: `true` when each of them is found.
    public static func areInstalled(_ commands: String...) -> Bool {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        return commands.allSatisfy { command in
            folders.contains { folder in access("\(folder)/\(command)", X_OK) == 0 }
        }
    }

    /// Runs `openssl` with `arguments` in `folder`, without the system's configuration file, and waits for it.
    /// - Throws: When it does not start or exits with a failure.
    public static func openssl(_ arguments: [String], in folder: URL) throws {
        let child = try ChildProcess(["openssl"] + arguments, environment: ["OPENSSL_CONF": "/dev/null"], in: folder)
        guard child.claim(), child.reap() == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "openssl \(arguments) failed"])
        }
    }

    /// Starts a helper that prints one line when it is ready (the port it listens on), with a pipe as its
    /// standard input, and waits up to `seconds` for that line.
    /// - Returns: The child and its line.
    /// - Throws: When it cannot be spawned, or ends or stays silent for `seconds` first (it is then stopped).
    public static func startHelper(_ arguments: [String], seconds: Double = 10) throws -> (ChildProcess, String) {
        let stdin = try Self.pipe()
        let stdout = try Self.pipe()
        let spawned = Result {
            try ChildProcess(arguments, standardInput: stdin.read, standardOutput: stdout.write, input: stdin.write)
        }
        // The child holds its own copies now; the write end of its output must close here, or its end is never seen.
        close(stdin.read)
        close(stdout.write)
        defer { close(stdout.read) }
        guard case .success(let child) = spawned else {
            close(stdin.write)
            _ = try spawned.get()
            throw POSIXError(.EIO)
        }
        guard let line = Self.readLine(from: stdout.read, seconds: seconds) else {
            child.stop()
            throw POSIXError(.EIO)
        }
        return (child, line)
    }

    /// Starts a server written in Python 3 that prints its port once it listens: writes `source` to `script`
    /// unless it is there, runs `python3 script arguments…`, and waits for the port as ``startHelper(_:seconds:)``
    /// does.
    /// - Returns: The child and its port.
    /// - Throws: When it cannot be written or started, or prints no port within ten seconds (it is then stopped).
    public static func startPythonServer(
        _ source: String, at script: URL, arguments: [String]
    ) throws -> (process: ChildProcess, port: Int) {
        if !FileManager.default.fileExists(atPath: script.path) { try Data(source.utf8).write(to: script) }
        let (process, line) = try startHelper(["python3", script.path] + arguments)
        guard let port = Int(line) else {
            process.stop()
            throw POSIXError(.EIO)
        }
        return (process, port)
    }

    /// Closes the child's standard input, ends it with `SIGTERM` and waits for it to exit; once. Closing its
    /// input alone is not enough: a child another test spawns meanwhile could hold the pipe open.
    public func stop() {
        guard claim() else { return }
        if input >= 0 { close(input) }
        kill(pid, SIGTERM)
        _ = reap()
    }

    /// Whether this call is the first to end the child: only the first may signal or reap its pid.
    private func claim() -> Bool {
        isReaped.withLock { reaped in
            defer { reaped = true }
            return !reaped
        }
    }

    /// Waits for the child to exit.
    /// - Returns: Its exit status, or -1 when a signal ended it.
    private func reap() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        // WIFEXITED and WEXITSTATUS, which Swift does not import.
        return status & 0x7f == 0 ? (status >> 8) & 0xff : -1
    }

    /// Reads one line from `descriptor`, waiting at most `seconds` in all.
    /// - Returns: The line without its line feed; `nil` when the descriptor ends or the time runs out first.
    private static func readLine(from descriptor: Int32, seconds: Double) -> String? {
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

    /// A pipe whose two ends are close-on-exec, so that no other child inherits them (`pipe2` is not
    /// imported on Linux; a child spawned between the two calls could still inherit them, which ``stop()``'s
    /// `SIGTERM` makes harmless).
    private static func pipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard systemPipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        return (ends[0], ends[1])
    }
}

#if canImport(Glibc)
private let systemPipe = Glibc.pipe
#else
private let systemPipe = Darwin.pipe
#endif
#endif
