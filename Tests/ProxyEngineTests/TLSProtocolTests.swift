import CEventTLS
import ProxyEngine
import Testing

/// ALPN and protocol versions negotiated between ``TLSClientContext`` and ``TLSServerContext``.
@Suite("TLS protocol negotiation")
struct TLSProtocolTests {
    let fixture = TLSFixture.shared

    /// Replaces the client's ALPN offer (wire format: length-prefixed names; empty sends no ALPN).
    static func offer(_ names: [String]) -> (OpaquePointer) -> Void {
        let wire = names.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) }
        return { ssl in _ = SSL_set_alpn_protos(ssl, wire.isEmpty ? nil : wire, UInt32(wire.count)) }
    }

    /// The client offers AES-128-GCM first, so a server following the client's order (OpenSSL's default, and
    /// partgate's own listener) picks it; OpenSSL's own client order would give TLS_AES_256_GCM_SHA384.
    @Test func negotiatesHTTP11TLS13AndAES128GCMByDefault() throws {
        let run = try TLSLoopback.run(
            server: fixture.serverContext(), client: fixture.clientContext(), serverName: "localhost")
        #expect(run.client.succeeded, "\(run.client)")
        #expect(run.client.info?.applicationProtocol == "http/1.1")
        #expect(run.server.info?.applicationProtocol == "http/1.1")
        #expect(run.client.info?.protocolVersion == "TLSv1.3")
        #expect((run.client.info?.protocolVersionNumber ?? 0) >= TLS1_2_VERSION)
        #expect(run.client.info?.cipher == "TLS_AES_128_GCM_SHA256")
        #expect(run.server.info?.cipher == "TLS_AES_128_GCM_SHA256")
    }

    /// The other two suites are still offered: a server that allows only one of them gets it.
    @Test(arguments: ["TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256"])
    func serverRestrictedToAnotherSuiteStillConnects(suite: String) throws {
        let run = try TLSLoopback.run(
            server: fixture.serverContext(), client: fixture.clientContext(), serverName: "localhost",
            serverSetup: { ssl in _ = SSL_set_ciphersuites(ssl, suite) })
        #expect(run.client.succeeded, "\(run.client)")
        #expect(run.client.info?.cipher == suite)
    }

    @Test(arguments: [
        (["h2", "http/1.1"], "http/1.1"),
        (["http/1.0"], "http/1.0"),
        (["http/1.0", "http/1.1"], "http/1.1"),
    ])
    func serverPicksHTTP1FromTheOffer(offer: [String], expected: String) throws {
        let run = try TLSLoopback.run(
            server: fixture.serverContext(), client: fixture.clientContext(), serverName: "localhost",
            clientSetup: Self.offer(offer))
        #expect(run.client.succeeded, "\(run.client)")
        #expect(run.server.info?.applicationProtocol == expected)
    }

    @Test func clientWithoutALPNIsAccepted() throws {
        let run = try TLSLoopback.run(
            server: fixture.serverContext(), client: fixture.clientContext(), serverName: "localhost",
            clientSetup: Self.offer([]))
        #expect(run.client.succeeded, "\(run.client)")
        #expect(run.server.info != nil)
        #expect(run.server.info?.applicationProtocol == nil)
    }

    @Test func clientOfferingOnlyH2GetsNoApplicationProtocol() throws {
        let run = try TLSLoopback.run(
            server: fixture.serverContext(), client: fixture.clientContext(), serverName: "localhost",
            clientSetup: Self.offer(["h2"]))
        let client = try #require(run.client.handshakeError)
        #expect(client.reason.contains("no application protocol"), "\(client)")
        let server = try #require(run.server.handshakeError)
        #expect(server.reason.contains("no application protocol"), "\(server)")
    }

    @Test func tls12ClientNegotiatesTLS12() throws {
        let run = try TLSLoopback.run(
            server: fixture.serverContext(), client: fixture.clientContext(), serverName: "localhost",
            clientSetup: { _ = cshim_SSL_set_max_proto_version($0, TLS1_2_VERSION) })
        #expect(run.client.succeeded, "\(run.client)")
        #expect(run.client.info?.protocolVersion == "TLSv1.2")
        #expect(run.server.info?.protocolVersionNumber == TLS1_2_VERSION)
        #expect(run.server.info?.applicationProtocol == "http/1.1")
    }

    /// A TLS 1.1-only client. OpenSSL 3 needs security level 0 for TLS 1.1 at all, so both sides get it: then the
    /// contexts' minimum version is the only thing that can refuse (the control below shows the same setup works
    /// when the server's minimum is lowered).
    static func tls11Only(_ ssl: OpaquePointer) {
        SSL_set_security_level(ssl, 0)
        _ = cshim_SSL_set_min_proto_version(ssl, TLS1_1_VERSION)
        _ = cshim_SSL_set_max_proto_version(ssl, TLS1_1_VERSION)
    }

    @Test func tls11ClientIsRefused() throws {
        let run = try TLSLoopback.run(
            server: fixture.serverContext(), client: TLSClientContext(verify: false), serverName: "localhost",
            serverSetup: { SSL_set_security_level($0, 0) }, clientSetup: Self.tls11Only)
        let server = try #require(run.server.handshakeError)
        #expect(server.reason.contains("unsupported protocol"), "\(server)")
        #expect(run.client.handshakeError != nil)
    }

    @Test func tls11ControlSucceedsWhenTheServerMinimumIsLowered() throws {
        let run = try TLSLoopback.run(
            server: fixture.serverContext(), client: TLSClientContext(verify: false), serverName: "localhost",
            serverSetup: {
                SSL_set_security_level($0, 0)
                _ = cshim_SSL_set_min_proto_version($0, TLS1_1_VERSION)
            },
            clientSetup: Self.tls11Only)
        #expect(run.client.succeeded, "\(run.client)")
        #expect(run.server.info?.protocolVersion == "TLSv1.1")
    }
}
