#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A failed socket call, with the call's name and `errno`.
struct SocketError: Error, CustomStringConvertible {
    let call: String
    let code: Int32

    init(_ call: String, code: Int32 = errno) {
        self.call = call
        self.code = code
    }

    var description: String { "\(call) failed: \(String(cString: strerror(code))) (\(code))" }
}
