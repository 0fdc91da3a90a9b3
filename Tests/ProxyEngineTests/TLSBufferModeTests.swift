import CEventTLS
@testable import ProxyEngine
import Testing

/// Which contexts free a connection's record buffers whenever they are empty (`SSL_MODE_RELEASE_BUFFERS`).
@Suite("TLS record buffer mode")
struct TLSBufferModeTests {
    let fixture = TLSFixture.shared

    static func releasesBuffers(_ context: OpaquePointer) -> Bool {
        SSL_CTX_ctrl(context, SSL_CTRL_MODE, 0, nil) & Int(SSL_MODE_RELEASE_BUFFERS) != 0
    }

    /// Listeners free them: thousands of keep-alive clients may sit idle, ~34 KiB each otherwise.
    @Test func listenerContextReleasesBuffers() throws {
        #expect(Self.releasesBuffers(try fixture.serverContext().context))
    }

    /// Upstream connections keep them: the pool bounds how many there are, and they go idle between every two
    /// requests (freeing and allocating both buffers each time cost 2 % of a small proxied request).
    @Test func upstreamContextKeepsBuffers() throws {
        #expect(!Self.releasesBuffers(try fixture.clientContext().context))
        #expect(!Self.releasesBuffers(try TLSClientContext(trustRoots: .system).context))
    }
}
