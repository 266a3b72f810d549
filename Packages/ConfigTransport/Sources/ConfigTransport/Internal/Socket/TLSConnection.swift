#if canImport(Glibc)
internal import Foundation
internal import Glibc

/// One TLS connection over a connected, non-blocking socket: an OpenSSL `SSL` that its exchange's thread drives.
///
/// It never blocks in OpenSSL: when a call needs the socket to become readable or writable
/// (`SSL_ERROR_WANT_READ`, `SSL_ERROR_WANT_WRITE`), it asks its caller to wait for that in `poll(2)`, so that the
/// caller's timeout and cancellation bound every wait, and an idle connection costs nothing. Certificate refusals
/// become `URLError(.serverCertificateHasBadDate)` or `URLError(.serverCertificateUntrusted)`, other TLS failures
/// `URLError(.secureConnectionFailed)`, and a peer that goes away `URLError(.networkConnectionLost)`, each with a
/// message that names the host. Not thread-safe: one thread uses it, then releases it.
final class TLSConnection {
    /// Waits until the socket is ready for the `poll(2)` events given (`POLLIN` or `POLLOUT`), or throws.
    typealias Wait = (_ events: Int16) throws -> Void

    private let library: OpenSSLLibrary
    private let ssl: OpaquePointer
    private let host: String
    /// Whether the handshake completed and nothing failed since, so that `close_notify` may still be sent.
    private var isUsable = false

    /// Wraps `ssl`, which the connection frees when it is released.
    init(library: OpenSSLLibrary, ssl: OpaquePointer, host: String) {
        self.library = library
        self.ssl = ssl
        self.host = host
    }

    deinit {
        library.sslFree(ssl)
    }

    /// Performs the handshake, verifying the certificate chain and the host.
    /// - Parameter wait: Waits for the socket; its deadline bounds the handshake.
    /// - Throws: `URLError`: a refused certificate, a failed handshake, a closed connection, or what `wait` throws.
    func handshake(waitingWith wait: Wait) throws {
        while true {
            library.clearErrors()
            let result = library.sslConnect(ssl)
            if result == 1 {
                try requirePeerCertificate()
                isUsable = true
                return
            }
            let error = library.sslGetError(ssl, result)
            switch error {
            case OpenSSLLibrary.errorWantRead: try wait(Int16(POLLIN))
            case OpenSSLLibrary.errorWantWrite: try wait(Int16(POLLOUT))
            default: throw handshakeFailure(result: result, error: error)
            }
        }
    }

    /// Writes some of `bytes`, waiting for the socket as needed.
    /// - Parameters:
    ///   - bytes: What to send; not empty.
    ///   - wait: Waits for the socket.
    /// - Returns: How many bytes were written, at least one.
    /// - Throws: `URLError(.networkConnectionLost)` or `URLError(.secureConnectionFailed)`, or what `wait` throws.
    func write(_ bytes: UnsafeRawBufferPointer, waitingWith wait: Wait) throws -> Int {
        while true {
            library.clearErrors()
            let result = library.sslWrite(ssl, bytes.baseAddress, Int32(clamping: bytes.count))
            if result > 0 { return Int(result) }
            let error = library.sslGetError(ssl, result)
            switch error {
            case OpenSSLLibrary.errorWantWrite: try wait(Int16(POLLOUT))
            case OpenSSLLibrary.errorWantRead: try wait(Int16(POLLIN))
            default: throw transferFailure(result: result, error: error, doing: "sending the request")
            }
        }
    }

    /// Reads the next decrypted bytes into `buffer`, waiting for the socket only when OpenSSL has none buffered.
    /// - Parameters:
    ///   - buffer: Where to put them; not empty.
    ///   - wait: Waits for the socket; its deadline bounds the wait for the next byte.
    /// - Returns: How many bytes were read; `0` when the server closed the connection with `close_notify`.
    /// - Throws: `URLError(.networkConnectionLost)` when the connection ends without `close_notify` (mid-record,
    ///   say), `URLError(.secureConnectionFailed)` on a TLS failure, or what `wait` throws.
    func read(into buffer: UnsafeMutableRawBufferPointer, waitingWith wait: Wait) throws -> Int {
        while true {
            library.clearErrors()
            let result = library.sslRead(ssl, buffer.baseAddress, Int32(clamping: buffer.count))
            if result > 0 { return Int(result) }
            let error = library.sslGetError(ssl, result)
            switch error {
            case OpenSSLLibrary.errorWantRead: try wait(Int16(POLLIN))
            case OpenSSLLibrary.errorWantWrite: try wait(Int16(POLLOUT))
            case OpenSSLLibrary.errorZeroReturn: return 0
            default: throw transferFailure(result: result, error: error, doing: "receiving the response")
            }
        }
    }

    /// Sends `close_notify` if the connection is still usable, without waiting for the server's; the socket
    /// stays open for its owner to close.
    func close() {
        guard isUsable else { return }
        isUsable = false
        library.clearErrors()
        _ = library.sslShutdown(ssl)
        library.clearErrors()
    }

    /// Refuses a handshake in which the server sent no certificate: verification passes when there is nothing to
    /// verify, so an anonymous suite (which ``TLSContext``'s policy does not offer) would otherwise be accepted.
    private func requirePeerCertificate() throws(URLError) {
        guard let certificate = library.sslPeerCertificate(ssl) else {
            throw URLError(
                .serverCertificateUntrusted,
                message: "The TLS server \(host) presented no certificate, so it could not be verified."
            )
        }
        library.certificateFree(certificate)
    }

    // MARK: Errors

    /// The error for a handshake that ended with `SSL_get_error` code `error`.
    private func handshakeFailure(result: Int32, error: Int32) -> URLError {
        let systemError = errno
        let verifyResult = library.sslVerifyResult(ssl)
        let queued = library.drainErrors()
        if verifyResult != 0 {
            let reason = library.verifyErrorText(verifyResult).map { String(cString: $0) } ?? "unknown reason"
            let message = "The TLS certificate of \(host) was refused: \(reason) (X509 error \(verifyResult))."
            return URLError(Self.certificateErrorCode(forVerifyResult: verifyResult), message: message)
        }
        if Self.isClosedByPeer(error: error, result: result, queued: queued) {
            return URLError(
                .networkConnectionLost,
                message: "The server \(host) closed the connection during the TLS handshake."
            )
        }
        if error == OpenSSLLibrary.errorSyscall {
            return URLError(
                .networkConnectionLost,
                message: "The TLS handshake with \(host) failed: \(String(cString: strerror(systemError)))."
            )
        }
        let detail = queued.text.isEmpty ? "SSL_get_error \(error)" : queued.text
        return URLError(.secureConnectionFailed, message: "The TLS handshake with \(host) failed: \(detail).")
    }

    /// The error for a read or write that ended with `SSL_get_error` code `error`; the connection is unusable.
    private func transferFailure(result: Int32, error: Int32, doing activity: String) -> URLError {
        let systemError = errno
        isUsable = false
        let queued = library.drainErrors()
        if Self.isClosedByPeer(error: error, result: result, queued: queued) {
            return URLError(
                .networkConnectionLost,
                message: "The server \(host) closed the connection mid-record or without a TLS close_notify "
                    + "while \(activity)."
            )
        }
        if error == OpenSSLLibrary.errorSyscall {
            return URLError(
                .networkConnectionLost,
                message:
                    "The TLS connection to \(host) failed while \(activity): \(String(cString: strerror(systemError)))."
            )
        }
        let detail = queued.text.isEmpty ? "SSL_get_error \(error)" : queued.text
        return URLError(.secureConnectionFailed, message: "TLS failed with \(host) while \(activity): \(detail).")
    }

    /// Whether a failure means that the peer closed the socket without `close_notify`: `SSL_ERROR_SYSCALL` with
    /// an empty queue in OpenSSL 1.1, an `SSL_R_UNEXPECTED_EOF_WHILE_READING` in OpenSSL 3.
    private static func isClosedByPeer(error: Int32, result: Int32, queued: (text: String, firstReason: UInt?)) -> Bool
    {
        if error == OpenSSLLibrary.errorSyscall, queued.firstReason == nil, result == 0 { return true }
        return error == OpenSSLLibrary.errorSSL && queued.firstReason == OpenSSLLibrary.reasonUnexpectedEOF
    }

    /// The URL error for an X509 verification result: a bad date, or a certificate that is not trusted.
    static func certificateErrorCode(forVerifyResult result: Int) -> URLError.Code {
        switch result {
        // X509_V_ERR_CERT_NOT_YET_VALID, _CERT_HAS_EXPIRED, _ERROR_IN_CERT_NOT_BEFORE_FIELD, _NOT_AFTER_FIELD.
        case 9, 10, 13, 14: .serverCertificateHasBadDate
        default: .serverCertificateUntrusted
        }
    }
}

extension URLError {
    /// A URL error with a message for the logs.
    fileprivate init(_ code: Code, message: String) {
        self.init(code, userInfo: [NSLocalizedDescriptionKey: message])
    }
}
#endif
