import CEventTLS
import ProxyEngine
import Testing

/// Upstream certificate verification by ``TLSClientContext``: real handshakes over loopback.
@Suite("TLS verification")
struct TLSVerificationTests {
    let fixture = TLSFixture.shared

    @Test(arguments: ["localhost", "127.0.0.1"])
    func leafVerifiesAgainstItsAuthority(serverName: String) throws {
        let run = try TLSLoopback.run(
            server: fixture.serverContext(), client: fixture.clientContext(), serverName: serverName)
        #expect(run.client.succeeded, "\(run.client)")
        #expect(run.client.received == "pong")
        #expect(run.server.received == "ping")
        #expect(SSL_get_verify_result(run.clientEndpoint.ssl) == X509_V_OK)
        #expect(run.client.info?.peerCommonName == "localhost")
    }

    @Test func sendsSNIForDNSNamesButNotForIPLiterals() throws {
        let dns = try TLSLoopback.run(
            server: fixture.serverContext(), client: fixture.clientContext(), serverName: "LocalHost.")
        #expect(dns.client.succeeded, "\(dns.client)")
        #expect(dns.server.info?.serverName == "localhost")  // lower-cased, trailing dot dropped (RFC 6066)
        let ip = try TLSLoopback.run(
            server: fixture.serverContext(), client: fixture.clientContext(), serverName: "127.0.0.1")
        #expect(ip.client.succeeded, "\(ip.client)")
        #expect(ip.server.info != nil)
        #expect(ip.server.info?.serverName == nil)
    }

    @Test func wrongDNSNameFailsWithHostnameMismatch() throws {
        let run = try TLSLoopback.run(
            server: fixture.serverContext(), client: fixture.clientContext(), serverName: "upstream.example")
        let error = try #require(run.client.handshakeError)
        #expect(error.code == .handshake)
        #expect(error.reason == "TLS handshake failed: certificate verify failed: hostname mismatch")
        #expect(run.server.handshakeError != nil)  // the client's alert ends the server's handshake too
    }

    @Test func wrongIPAddressFailsWithIPAddressMismatch() throws {
        let run = try TLSLoopback.run(
            server: fixture.serverContext(), client: fixture.clientContext(), serverName: "127.0.0.2")
        let error = try #require(run.client.handshakeError)
        #expect(error.reason == "TLS handshake failed: certificate verify failed: IP address mismatch")
    }

    @Test func certificateFromAnotherAuthorityIsRejected() throws {
        let client = try TLSClientContext(trustRoots: .certificates([fixture.otherAuthority.certificate]))
        let run = try TLSLoopback.run(server: fixture.serverContext(), client: client, serverName: "localhost")
        let error = try #require(run.client.handshakeError)
        #expect(
            error.reason == "TLS handshake failed: certificate verify failed: unable to get local issuer certificate")
        #expect(run.client.received == nil)
    }

    @Test func systemTrustStoreDoesNotTrustTheTestAuthority() throws {
        let run = try TLSLoopback.run(
            server: fixture.serverContext(), client: TLSClientContext(), serverName: "localhost")
        let error = try #require(run.client.handshakeError)
        #expect(error.reason.contains("unable to get local issuer certificate"), "\(error)")
    }

    @Test func verifyFalseConnectsDespiteWrongAuthorityAndName() throws {
        let client = try TLSClientContext(
            trustRoots: .certificates([fixture.otherAuthority.certificate]), verify: false)
        #expect(!client.verifiesPeer)
        let run = try TLSLoopback.run(server: fixture.serverContext(), client: client, serverName: "wrong.example")
        #expect(run.client.succeeded, "\(run.client)")
        #expect(run.client.received == "pong")
        // The chain was still checked and failed; verify: false only ignores the result.
        #expect(SSL_get_verify_result(run.clientEndpoint.ssl) != X509_V_OK)
    }

    @Test(arguments: ["", "host:443", "bad name", "a/b", "a..b", ".", "https://x", "ex\u{e4}mple.test"])
    func rejectsMalformedServerNames(name: String) throws {
        let error = try #require(throws: TLSError.self) { try fixture.clientContext().makeSSL(serverName: name) }
        #expect(error.code == .serverName)
        #expect(error.reason.contains("invalid server name"))
    }

    @Test func bracketedIPv6LiteralGetsNoSNI() throws {
        let ssl = try fixture.clientContext().makeSSL(serverName: "[::1]")
        defer { SSL_free(ssl) }
        #expect(SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name) == nil)
        let dns = try fixture.clientContext().makeSSL(serverName: "upstream.internal")
        defer { SSL_free(dns) }
        #expect(SSL_get_servername(dns, TLSEXT_NAMETYPE_host_name).map { String(cString: $0) } == "upstream.internal")
    }

    @Test func bothContextsRequireTLS12OrNewer() throws {
        let client = try fixture.clientContext().makeSSL(serverName: "localhost")
        defer { SSL_free(client) }
        let server = try fixture.serverContext().makeSSL()
        defer { SSL_free(server) }
        #expect(cshim_SSL_get_min_proto_version(client) == TLS1_2_VERSION)
        #expect(cshim_SSL_get_min_proto_version(server) == TLS1_2_VERSION)
    }
}
