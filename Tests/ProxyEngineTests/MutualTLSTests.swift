import ProxyEngine
import Testing

/// Client certificates: a ``TLSServerContext`` that requires them, a ``TLSClientContext`` that presents one.
@Suite("Mutual TLS")
struct MutualTLSTests {
    let fixture = TLSFixture.shared

    func requiringServer() throws -> TLSServerContext {
        try fixture.serverContext(clientAuthentication: .required(.certificates([fixture.authority.certificate])))
    }

    @Test func acceptsTheConfiguredClientCertificate() throws {
        let client = try fixture.clientContext(identity: fixture.client.identity)
        let run = try TLSLoopback.run(server: requiringServer(), client: client, serverName: "localhost")
        #expect(run.client.succeeded, "\(run.client)")
        #expect(run.server.succeeded, "\(run.server)")
        #expect(run.server.info?.peerCommonName == "partgate-client")
    }

    @Test func resumesWithAClientCertificate() throws {
        let server = try requiringServer()
        let client = try fixture.clientContext(identity: fixture.client.identity)
        _ = try TLSLoopback.run(server: server, client: client, serverName: "localhost")
        let second = try TLSLoopback.run(server: server, client: client, serverName: "localhost")
        #expect(second.server.succeeded, "\(second.server)")
        #expect(second.server.info?.sessionReused == true)
    }

    @Test func refusesAClientWithoutCertificate() throws {
        let run = try TLSLoopback.run(
            server: requiringServer(), client: fixture.clientContext(), serverName: "localhost")
        let server = try #require(run.server.handshakeError)
        #expect(server.reason.contains("peer did not return a certificate"), "\(server)")
        // TLS 1.3: the client finishes first and learns of the refusal from the alert on its next read.
        let client = try #require(run.client.handshakeError ?? run.client.exchangeError)
        #expect(client.reason.contains("certificate required"), "\(client)")
        #expect(run.client.received == nil)
    }

    @Test func refusesAClientCertificateFromAnotherAuthority() throws {
        let stranger = try fixture.otherAuthority.issue(dnsNames: ["stranger"], usage: .client)
        let client = try fixture.clientContext(identity: stranger.identity)
        let run = try TLSLoopback.run(server: requiringServer(), client: client, serverName: "localhost")
        let server = try #require(run.server.handshakeError)
        #expect(
            server.reason.contains("certificate verify failed: unable to get local issuer certificate"), "\(server)")
        #expect(run.client.received == nil)
    }

    @Test func refusesACertificateNotMadeForClientAuthentication() throws {
        let serverOnly = try fixture.authority.issue(dnsNames: ["not-a-client"], usage: .server)
        let client = try fixture.clientContext(identity: serverOnly.identity)
        let run = try TLSLoopback.run(server: requiringServer(), client: client, serverName: "localhost")
        let server = try #require(run.server.handshakeError)
        #expect(server.reason.contains("certificate verify failed: unsuitable certificate purpose"), "\(server)")
    }
}
