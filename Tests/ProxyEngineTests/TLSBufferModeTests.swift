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

    /// Upstream connections free them too: a freshly freed chunk is reused warm, where kept buffers of many
    /// pooled connections are written cold (more cache misses than the allocations saved; see
    /// `TLSContextDefaults`).
    @Test func upstreamContextReleasesBuffers() throws {
        #expect(Self.releasesBuffers(try fixture.clientContext().context))
        #expect(Self.releasesBuffers(try TLSClientContext(trustRoots: .system).context))
    }
}
