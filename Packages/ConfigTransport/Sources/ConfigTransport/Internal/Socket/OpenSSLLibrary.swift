#if canImport(Glibc)
internal import Glibc

/// The system's OpenSSL, loaded at run time with `dlopen`: the few functions that the socket client's TLS calls.
///
/// The SDK has no build-time dependency on OpenSSL: ``shared`` opens `libssl.so.3` and `libcrypto.so.3` (then the
/// `1.1` pair, then the unversioned development links) and looks each function up by name with `dlsym`. Macros
/// of the C API (`SSL_set_tlsext_host_name`, `SSL_CTX_set_min_proto_version`, `SSL_CTX_set_mode`) are calls to
/// ``sslControl`` and ``contextControl`` with the commands below. Nothing is unloaded: the handles live as long as
/// the process.
final class OpenSSLLibrary: Sendable {
    /// Why OpenSSL could not be used, for the one warning of ``PlatformHTTPClient``.
    struct LoadFailure: Error, Sendable, CustomStringConvertible {
        /// What was missing, in words.
        let description: String
    }

    /// `SSL_METHOD *TLS_client_method(void)`.
    typealias MethodFunction = @Sendable @convention(c) () -> OpaquePointer?
    /// `SSL_CTX *SSL_CTX_new(const SSL_METHOD *)` and `SSL *SSL_new(SSL_CTX *)`.
    typealias NewFunction = @Sendable @convention(c) (OpaquePointer?) -> OpaquePointer?
    /// `void SSL_CTX_free(SSL_CTX *)`, `void SSL_free(SSL *)` and `void X509_free(X509 *)`.
    typealias FreeFunction = @Sendable @convention(c) (OpaquePointer?) -> Void
    /// `int f(SSL_CTX *)` or `int f(SSL *)`: `SSL_CTX_set_default_verify_paths`, `SSL_connect`, `SSL_shutdown`.
    typealias StatusFunction = @Sendable @convention(c) (OpaquePointer?) -> Int32
    /// `int SSL_CTX_load_verify_locations(SSL_CTX *, const char *file, const char *dir)`.
    typealias LoadLocationsFunction =
        @Sendable @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
    /// `void SSL_CTX_set_verify(SSL_CTX *, int mode, SSL_verify_cb)`, always called without a callback.
    typealias SetVerifyFunction = @Sendable @convention(c) (OpaquePointer?, Int32, OpaquePointer?) -> Void
    /// `long SSL_CTX_ctrl(SSL_CTX *, int, long, void *)` and `long SSL_ctrl(SSL *, int, long, void *)`.
    typealias ControlFunction = @Sendable @convention(c) (OpaquePointer?, Int32, Int, UnsafeMutableRawPointer?) -> Int
    /// `int SSL_set_fd(SSL *, int)`.
    typealias SetDescriptorFunction = @Sendable @convention(c) (OpaquePointer?, Int32) -> Int32
    /// `int f(T *, const char *)`: `SSL_set1_host`, `X509_VERIFY_PARAM_set1_ip_asc`, `SSL_CTX_set_cipher_list`,
    /// `SSL_CTX_set_ciphersuites`.
    typealias SetTextFunction = @Sendable @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32
    /// `void SSL_set_hostflags(SSL *, unsigned int)`.
    typealias SetFlagsFunction = @Sendable @convention(c) (OpaquePointer?, UInt32) -> Void
    /// `void SSL_CTX_set_security_level(SSL_CTX *, int)`.
    typealias SetLevelFunction = @Sendable @convention(c) (OpaquePointer?, Int32) -> Void
    /// `X509_VERIFY_PARAM *SSL_get0_param(SSL *)` and `X509 *SSL_get1_peer_certificate(const SSL *)`.
    typealias ParameterFunction = @Sendable @convention(c) (OpaquePointer?) -> OpaquePointer?
    /// `int SSL_get_error(const SSL *, int ret)`.
    typealias GetErrorFunction = @Sendable @convention(c) (OpaquePointer?, Int32) -> Int32
    /// `int SSL_read(SSL *, void *, int)`.
    typealias ReadFunction = @Sendable @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int32) -> Int32
    /// `int SSL_write(SSL *, const void *, int)`.
    typealias WriteFunction = @Sendable @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int32) -> Int32
    /// `long SSL_get_verify_result(const SSL *)`.
    typealias VerifyResultFunction = @Sendable @convention(c) (OpaquePointer?) -> Int
    /// `const char *X509_verify_cert_error_string(long)`.
    typealias VerifyErrorTextFunction = @Sendable @convention(c) (Int) -> UnsafePointer<CChar>?
    /// `unsigned long ERR_get_error(void)`.
    typealias NextErrorFunction = @Sendable @convention(c) () -> UInt
    /// `void ERR_error_string_n(unsigned long, char *, size_t)`.
    typealias ErrorTextFunction = @Sendable @convention(c) (UInt, UnsafeMutablePointer<CChar>?, Int) -> Void
    /// `void ERR_clear_error(void)`.
    typealias ClearErrorsFunction = @Sendable @convention(c) () -> Void

    /// `SSL_CTRL_MODE`, the command behind `SSL_CTX_set_mode`.
    static let controlMode: Int32 = 33
    /// `SSL_CTRL_SET_TLSEXT_HOSTNAME`, the command behind `SSL_set_tlsext_host_name`.
    static let controlHostName: Int32 = 55
    /// `SSL_CTRL_SET_MIN_PROTO_VERSION`, the command behind `SSL_CTX_set_min_proto_version`.
    static let controlMinimumVersion: Int32 = 123
    /// `TLSEXT_NAMETYPE_host_name`.
    static let hostNameType = 0
    /// `TLS1_2_VERSION`.
    static let tls12Version = 0x0303
    /// `SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER`: `SSL_write` returns what it wrote.
    static let partialWriteMode = 0x1 | 0x2
    /// `X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS`: `*` matches a whole label only, as browsers match it.
    static let noPartialWildcards: UInt32 = 0x4
    /// `X509_CHECK_FLAG_NEVER_CHECK_SUBJECT`: a host name matches the subject alternative names only, never the
    /// subject's common name, as Apple's, Chrome's and Firefox's verifiers match it.
    static let neverCheckSubject: UInt32 = 0x20
    /// `SSL_VERIFY_PEER`.
    static let verifyPeer: Int32 = 1
    /// `SSL_ERROR_SSL`: a protocol or verification failure, described by the error queue.
    static let errorSSL: Int32 = 1
    /// `SSL_ERROR_WANT_READ`.
    static let errorWantRead: Int32 = 2
    /// `SSL_ERROR_WANT_WRITE`.
    static let errorWantWrite: Int32 = 3
    /// `SSL_ERROR_SYSCALL`: the socket failed, or (with an empty error queue) the peer closed it.
    static let errorSyscall: Int32 = 5
    /// `SSL_ERROR_ZERO_RETURN`: the peer closed the TLS connection with `close_notify`.
    static let errorZeroReturn: Int32 = 6
    /// `SSL_R_UNEXPECTED_EOF_WHILE_READING`: OpenSSL 3's reason for a peer that closed without `close_notify`.
    static let reasonUnexpectedEOF: UInt = 294

    /// The library, loaded once on first use, or why it could not be.
    static let shared: Result<OpenSSLLibrary, LoadFailure> = Result { () throws(LoadFailure) in try OpenSSLLibrary() }

    /// `TLS_client_method`.
    let clientMethod: MethodFunction
    /// `SSL_CTX_new`.
    let contextNew: NewFunction
    /// `SSL_CTX_free`.
    let contextFree: FreeFunction
    /// `SSL_CTX_set_default_verify_paths`: the system's trust store, or `SSL_CERT_FILE` and `SSL_CERT_DIR`.
    let contextUseDefaultVerifyPaths: StatusFunction
    /// `SSL_CTX_load_verify_locations`.
    let contextLoadVerifyLocations: LoadLocationsFunction
    /// `SSL_CTX_set_verify`.
    let contextSetVerify: SetVerifyFunction
    /// `SSL_CTX_set_security_level`.
    let contextSetSecurityLevel: SetLevelFunction
    /// `SSL_CTX_set_cipher_list`: the suites of TLS 1.2.
    let contextSetCipherList: SetTextFunction
    /// `SSL_CTX_set_ciphersuites`: the suites of TLS 1.3 (OpenSSL 1.1.1 and later).
    let contextSetCipherSuites: SetTextFunction
    /// `SSL_CTX_ctrl`.
    let contextControl: ControlFunction
    /// `SSL_new`.
    let sslNew: NewFunction
    /// `SSL_free`.
    let sslFree: FreeFunction
    /// `SSL_set_fd`.
    let sslSetDescriptor: SetDescriptorFunction
    /// `SSL_ctrl`.
    let sslControl: ControlFunction
    /// `SSL_set1_host`: the DNS name that the certificate must match.
    let sslSetHost: SetTextFunction
    /// `SSL_set_hostflags`.
    let sslSetHostFlags: SetFlagsFunction
    /// `SSL_get0_param`.
    let sslParameters: ParameterFunction
    /// `X509_VERIFY_PARAM_set1_ip_asc`: the IP address that the certificate must match.
    let parametersSetIPAddress: SetTextFunction
    /// `SSL_connect`.
    let sslConnect: StatusFunction
    /// `SSL_get_error`.
    let sslGetError: GetErrorFunction
    /// `SSL_read`.
    let sslRead: ReadFunction
    /// `SSL_write`.
    let sslWrite: WriteFunction
    /// `SSL_shutdown`.
    let sslShutdown: StatusFunction
    /// `SSL_get_verify_result`.
    let sslVerifyResult: VerifyResultFunction
    /// `SSL_get1_peer_certificate` (OpenSSL 3; `SSL_get_peer_certificate` in 1.1): the server's certificate, which
    /// the caller frees with ``certificateFree``; `NULL` when the server sent none.
    let sslPeerCertificate: ParameterFunction
    /// `X509_free`.
    let certificateFree: FreeFunction
    /// `X509_verify_cert_error_string`.
    let verifyErrorText: VerifyErrorTextFunction
    /// `ERR_get_error`.
    let nextError: NextErrorFunction
    /// `ERR_error_string_n`.
    let errorText: ErrorTextFunction
    /// `ERR_clear_error`.
    let clearErrors: ClearErrorsFunction
    /// The file names that were loaded, such as `libssl.so.3`, for the logs.
    let loadedNames: String

    /// Opens the first pair of libraries that loads and looks up every function.
    /// - Throws: ``LoadFailure`` when no pair loads or a function is missing.
    private init() throws(LoadFailure) {
        var failures: [String] = []
        var opened: (ssl: UnsafeMutableRawPointer, crypto: UnsafeMutableRawPointer, names: String)?
        for suffix in [".3", ".1.1", ""] {
            guard let crypto = dlopen("libcrypto.so" + suffix, RTLD_NOW | RTLD_LOCAL) else {
                failures.append(Self.lastLoadError())
                continue
            }
            guard let ssl = dlopen("libssl.so" + suffix, RTLD_NOW | RTLD_LOCAL) else {
                failures.append(Self.lastLoadError())
                dlclose(crypto)
                continue
            }
            opened = (ssl, crypto, "libssl.so\(suffix) and libcrypto.so\(suffix)")
            break
        }
        guard let (ssl, crypto, names) = opened else {
            throw LoadFailure(description: failures.joined(separator: "; "))
        }
        loadedNames = names
        clientMethod = try Self.function("TLS_client_method", in: ssl)
        contextNew = try Self.function("SSL_CTX_new", in: ssl)
        contextFree = try Self.function("SSL_CTX_free", in: ssl)
        contextUseDefaultVerifyPaths = try Self.function("SSL_CTX_set_default_verify_paths", in: ssl)
        contextLoadVerifyLocations = try Self.function("SSL_CTX_load_verify_locations", in: ssl)
        contextSetVerify = try Self.function("SSL_CTX_set_verify", in: ssl)
        contextSetSecurityLevel = try Self.function("SSL_CTX_set_security_level", in: ssl)
        contextSetCipherList = try Self.function("SSL_CTX_set_cipher_list", in: ssl)
        contextSetCipherSuites = try Self.function("SSL_CTX_set_ciphersuites", in: ssl)
        contextControl = try Self.function("SSL_CTX_ctrl", in: ssl)
        sslNew = try Self.function("SSL_new", in: ssl)
        sslFree = try Self.function("SSL_free", in: ssl)
        sslSetDescriptor = try Self.function("SSL_set_fd", in: ssl)
        sslControl = try Self.function("SSL_ctrl", in: ssl)
        sslSetHost = try Self.function("SSL_set1_host", in: ssl)
        sslSetHostFlags = try Self.function("SSL_set_hostflags", in: ssl)
        sslParameters = try Self.function("SSL_get0_param", in: ssl)
        parametersSetIPAddress = try Self.function("X509_VERIFY_PARAM_set1_ip_asc", in: crypto)
        sslConnect = try Self.function("SSL_connect", in: ssl)
        sslGetError = try Self.function("SSL_get_error", in: ssl)
        sslRead = try Self.function("SSL_read", in: ssl)
        sslWrite = try Self.function("SSL_write", in: ssl)
        sslShutdown = try Self.function("SSL_shutdown", in: ssl)
        sslVerifyResult = try Self.function("SSL_get_verify_result", in: ssl)
        sslPeerCertificate = try Self.function(
            "SSL_get1_peer_certificate", in: ssl, before3: "SSL_get_peer_certificate")
        certificateFree = try Self.function("X509_free", in: crypto)
        verifyErrorText = try Self.function("X509_verify_cert_error_string", in: crypto)
        nextError = try Self.function("ERR_get_error", in: crypto)
        errorText = try Self.function("ERR_error_string_n", in: crypto)
        clearErrors = try Self.function("ERR_clear_error", in: crypto)
    }

    /// Empties this thread's error queue and returns its entries, oldest first, joined for a message.
    /// - Returns: The texts of the queued errors, such as `error:0A000086:SSL routines::certificate verify failed`,
    ///   with the reason of the oldest; empty texts when the queue was empty.
    func drainErrors() -> (text: String, firstReason: UInt?) {
        var texts: [String] = []
        var firstReason: UInt?
        while case let code = nextError(), code != 0 {
            // The low 12 bits hold the reason in OpenSSL 1.1 and, for the reasons compared here, in OpenSSL 3.
            if firstReason == nil { firstReason = code & 0xFFF }
            var buffer = [CChar](repeating: 0, count: 256)
            buffer.withUnsafeMutableBufferPointer { errorText(code, $0.baseAddress, $0.count) }
            texts.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return (texts.joined(separator: "; "), firstReason)
    }

    /// Looks up `name` in `handle` as a function of type `Function`, or `older`, its name before OpenSSL 3.
    private static func function<Function>(
        _ name: String,
        in handle: UnsafeMutableRawPointer,
        before3 older: String? = nil
    ) throws(LoadFailure) -> Function {
        guard let address = dlsym(handle, name) ?? older.flatMap({ dlsym(handle, $0) }) else {
            throw LoadFailure(description: "\(name) is missing from the loaded OpenSSL")
        }
        return unsafeBitCast(address, to: Function.self)
    }

    /// The text of the last `dlopen` failure.
    private static func lastLoadError() -> String {
        dlerror().map { String(cString: $0) } ?? "dlopen failed"
    }
}
#endif
