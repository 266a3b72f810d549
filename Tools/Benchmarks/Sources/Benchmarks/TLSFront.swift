#if os(Linux)
import Foundation
import TestSupport

/// Starts a TLS front on 127.0.0.1 for a plain server, for the https variants of benchmarks 8 and 14: the
/// tests' TLS peer (TestSupport's `TLSPeer`, a Python 3 script) relaying each connection to `targetPort`, with
/// a certificate for 127.0.0.1 signed by a root made for the run with the `openssl` command. The peer runs in
/// its own process, so its CPU time is not the benchmark's.
///
/// The client trusts the root through `SSL_CERT_FILE`, set here, which OpenSSL reads when the SDK makes its TLS
/// settings: the SDK has no other way to trust a root, by design. Stop the peer, then remove the certificates.
/// - Parameter targetPort: The plain server's port on 127.0.0.1.
/// - Returns: The front and its certificates; `nil` when `openssl` or Python fails.
func tlsFront(forwardingTo targetPort: Int) async -> (peer: TLSPeer, certificates: TLSTestCertificates)? {
    guard let certificates = try? await offThePool({ try TLSTestCertificates() }) else { return nil }
    guard let peer = try? await TLSPeer.start(.relay(to: targetPort), certificates: certificates) else {
        certificates.remove()
        return nil
    }
    setenv("SSL_CERT_FILE", certificates.rootPath, 1)
    return (peer, certificates)
}
#endif
