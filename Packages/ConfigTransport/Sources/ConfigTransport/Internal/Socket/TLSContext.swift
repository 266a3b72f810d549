#if canImport(Glibc)
@_spi(Internal) @_spi(Locking) internal import ConfigModel
internal import Foundation
internal import Glibc

/// The TLS client settings that every connection of a ``SocketHTTPClient`` shares: an OpenSSL `SSL_CTX`.
///
/// It verifies the server's certificate chain against the system's trust store (OpenSSL's default verify
/// paths, which honour `SSL_CERT_FILE` and `SSL_CERT_DIR`) and refuses TLS older than 1.2. Verification cannot
/// be turned off; tests may add one trusted root, a PEM file, for a server they start.
///
/// Its policy is its own, whatever the system's OpenSSL configuration (`openssl.cnf`, `OPENSSL_CONF`) gave the
/// context when it was made: security level 2 (``securityLevel``: no anonymous suite, no key under 112 bits of
/// security, such as RSA-1024), the suites of ``tls12Ciphers`` and ``tls13Suites``, and host names matched against
/// the certificate's subject alternative names only, never its common name.
final class TLSContext: @unchecked Sendable {
    /// OpenSSL's security level 2: 112 bits of security (RSA and DH keys of 2,048 bits or more, elliptic curves
    /// of 224 bits or more), no anonymous suite, no SHA-1 signature; Debian's default, where upstream's is 1.
    static let securityLevel: Int32 = 2
    /// The suites of TLS 1.2: ephemeral ECDH and an AEAD cipher only (forward secrecy, no CBC, no SHA-1 MAC, no
    /// anonymous or static-RSA key exchange), as Mozilla's "intermediate" configuration has them.
    static let tls12Ciphers =
        "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
        + "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305"
    /// The suites of TLS 1.3: OpenSSL's defaults, stated so that no configuration can change them.
    static let tls13Suites = "TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256"

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
        // After the suites: a cipher string may carry a level of its own (`@SECLEVEL=0`).
        guard library.contextSetCipherList(context, Self.tls12Ciphers) == 1,
            library.contextSetCipherSuites(context, Self.tls13Suites) == 1
        else {
            library.contextFree(context)
            throw Self.failure("could not set the cipher suites", library: library)
        }
        library.contextSetSecurityLevel(context, Self.securityLevel)
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
    ///   - host: The host name or IP address of the URL, which the certificate must match; a name's trailing dot
    ///     (a fully qualified `localhost.`) is the same name without it, for SNI and for the match, as curl has it
    ///     (the resolver is given the name as written).
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
            let host = Self.nameWithoutRootDot(host)
            library.sslSetHostFlags(ssl, OpenSSLLibrary.noPartialWildcards | OpenSSLLibrary.neverCheckSubject)
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

    /// `name` without the trailing dot of a fully qualified name (`localhost.`); a name of dots alone is left as
    /// it is, for the match to refuse.
    static func nameWithoutRootDot(_ name: String) -> String {
        name.count > 1 && name.hasSuffix(".") && !name.hasSuffix("..") ? String(name.dropLast()) : name
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
