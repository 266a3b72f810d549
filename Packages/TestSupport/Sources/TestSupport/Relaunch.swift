internal import Foundation

/// Runs the tests whose name matches `filter` again, in a new process of this test binary (swift-testing's
/// `--filter`), with `environment` added to this process's: a test that must run as a launch of its own (a
/// relaunched app, a process that reads an environment variable once, such as OpenSSL's `OPENSSL_CONF`) runs
/// its part there, told so by a variable of `environment`, and reports through a file. The wait never blocks a
/// thread of the cooperative pool, which the tests running meanwhile need; a process still running after
/// `timeout` seconds is terminated.
/// - Parameters:
///   - filter: The test function's name.
///   - environment: The variables to add or replace.
///   - timeout: How long the process may run.
///   - tracer: A command to run the test binary under, such as a debugger's (`gdb -batch -ex run --args`), with
///     the binary and its arguments appended; none by default.
/// - Returns: The process's exit status (the tracer's, under one).
/// - Throws: When the process cannot be started.
public func relaunchThisTestBinary(
    filter: String,
    environment: [String: String],
    timeout: Double = 60,
    under tracer: [String] = []
) async throws -> Int32 {
    let process = Process()
    let command = tracer + [CommandLine.arguments[0], "--testing-library", "swift-testing", "--filter", filter]
    process.executableURL = URL(fileURLWithPath: command[0])
    process.arguments = Array(command.dropFirst())
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let watchdog = Task {
        try await Task.sleep(nanoseconds: UInt64(timeout * 1_000_000_000))
        if process.isRunning { process.terminate() }
    }
    defer { watchdog.cancel() }
    let launch = await withCheckedContinuation { (exited: CheckedContinuation<Result<Void, any Error>, Never>) in
        process.terminationHandler = { _ in exited.resume(returning: .success(())) }
        do {
            try process.run()
        } catch {
            process.terminationHandler = nil
            exited.resume(returning: .failure(error))
        }
    }
    try launch.get()
    return process.terminationStatus
}
