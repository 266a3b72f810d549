#if canImport(Glibc) || canImport(Darwin)
#if canImport(Glibc)
internal import Glibc
#else
internal import Darwin
#endif
internal import Foundation

/// A blocking TCP socket connected to `port` on 127.0.0.1, for tests that speak to a server byte by byte; on
/// Apple platforms it never raises `SIGPIPE`. The caller closes it.
/// - Parameter port: The server's port.
/// - Returns: The socket's descriptor.
/// - Throws: `POSIXError` with the failed call's `errno`.
public func connectedLoopbackSocket(port: Int) throws -> Int32 {
    #if canImport(Glibc)
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    #if canImport(Darwin)
    var one: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else {
        let failure = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        close(descriptor)
        throw failure
    }
    return descriptor
}
#endif
