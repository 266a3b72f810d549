#if canImport(Glibc)
@_spi(Internal) @_spi(Locking) internal import ConfigModel
internal import Foundation
internal import Glibc

/// The TLS client settings that every connection of a ``SocketHTTPClient`` shares: an OpenSSL `SSL_CTX`.
///
/// It verifies the server's certificate chain against the system's trust store (OpenSSL's default verify
/// paths, which honour `SSL_CERT_FILE` and `SSL_CERT_DIR`) and refuses TLS older than 1.2. Verification cannot
/// be turned off; tests may add one trusted root, a PEM file, for a server they start.
final class TLSContext: @unchecked Sendable {
    // `@unchecked`: the `SSL_CTX` pointer is not `Sendable`; `context`'s lock guards every use of it (and
    // OpenSSL locks the `SSL_CTX` itself), and `library` is `Sendable`.
    private let library: OpenSSLLibrary
    /// The `SSL_CTX`; OpenSSL locks it itself, the lock only keeps the pointer's accesses in one place.
    private let context: Locked<OpaquePointer>

    /// Makes the settings.
    /// - Parameters:
    ///   - library: The loaded OpenSSL.
    ///   - additionalTrustedRoot: The path of a PEM file of certificates to trust besides the system's, for tests.
    /// - Throws: `URLError(.secureConnectionFailed)` when OpenSSL refuses a setting.
    init(library: OpenSSLLibrary, additionalTrustedRoot: String? = nil) throws(URLError) {
        self.library = library
        library.clearErrors()
        guard let context = library.contextNew(library.clientMethod()) else {
            throw Self.failure("could not create a TLS context", library: library)
        }
        library.contextSetVerify(context, OpenSSLLibrary.verifyPeer, nil)
        _ = library.contextControl(context, OpenSSLLibrary.controlMode, OpenSSLLibrary.partialWriteMode, nil)
        guard
            library.contextControl(context, OpenSSLLibrary.controlMinimumVersion, OpenSSLLibrary.tls12Version, nil)
                == 1
        else {
            library.contextFree(context)
            throw Self.failure("could not require TLS 1.2", library: library)
        }
        // A missing default file or folder is not an error: the other one, or `SSL_CERT_FILE`, may be enough.
        _ = library.contextUseDefaultVerifyPaths(context)
        _ = library.drainErrors()
        if let additionalTrustedRoot {
            guard library.contextLoadVerifyLocations(context, additionalTrustedRoot, nil) == 1 else {
                library.contextFree(context)
                throw Self.failure("could not load the trusted root \(additionalTrustedRoot)", library: library)
            }
        }
        self.context = Locked(context)
    }

    deinit {
        let library = self.library
        context.withLock { library.contextFree($0) }
    }

    /// Starts a TLS connection over `socket`, a connected descriptor, for `host`; the handshake is the caller's.
    /// - Parameters:
    ///   - socket: The connected socket; the connection neither closes nor shuts it.
    ///   - host: The host name or IP address of the URL, which the certificate must match.
    /// - Returns: The connection, not yet shaken hands.
    /// - Throws: `URLError(.secureConnectionFailed)` when OpenSSL cannot set it up.
    func connection(over socket: Int32, host: String) throws(URLError) -> TLSConnection {
        let library = self.library
        library.clearErrors()
        guard let ssl = context.withLock({ library.sslNew($0) }) else {
            throw Self.failure("could not create a TLS connection", library: library)
        }
        let connection = TLSConnection(library: library, ssl: ssl, host: host)
        guard library.sslSetDescriptor(ssl, socket) == 1 else {
            throw Self.failure("could not attach TLS to the socket", library: library)
        }
        if Self.isIPAddress(host) {
            // No SNI for an address (RFC 6066); the certificate must name the address itself.
            guard library.parametersSetIPAddress(library.sslParameters(ssl), host) == 1 else {
                throw Self.failure("could not set the address to verify", library: library)
            }
        } else {
            library.sslSetHostFlags(ssl, OpenSSLLibrary.noPartialWildcards)
            let named = host.withCString { name in
                library.sslControl(
                    ssl,
                    OpenSSLLibrary.controlHostName,
                    OpenSSLLibrary.hostNameType,
                    UnsafeMutableRawPointer(mutating: name)
                )
            }
            guard named == 1, library.sslSetHost(ssl, host) == 1 else {
                throw Self.failure("could not set the host name to verify", library: library)
            }
        }
        return connection
    }

    /// Whether `host` is an IPv4 or IPv6 address rather than a name.
    static func isIPAddress(_ host: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET, host, &address) == 1 || inet_pton(AF_INET6, host, &address) == 1
    }

    /// A `secureConnectionFailed` error that says `what` went wrong, with OpenSSL's queued errors.
    private static func failure(_ what: String, library: OpenSSLLibrary) -> URLError {
        let queued = library.drainErrors().text
        return URLError(
            .secureConnectionFailed,
            userInfo: [NSLocalizedDescriptionKey: "OpenSSL \(what)" + (queued.isEmpty ? "." : ": \(queued).")]
        )
    }
}
#endif
