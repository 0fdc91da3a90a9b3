import CEventTLS
import Foundation
import ProxyEngine
import Synchronization
import Testing

/// TLS session resumption through ``TLSClientContext``'s per-name session cache.
@Suite("TLS session resumption")
struct TLSSessionResumptionTests {
    let fixture = TLSFixture.shared

    static func maxTLS12(_ ssl: OpaquePointer) {
        _ = cshim_SSL_set_max_proto_version(ssl, TLS1_2_VERSION)
    }

    @Test(arguments: [false, true])
    func secondConnectionResumes(tls12: Bool) throws {
        let server = try fixture.serverContext()
        let client = try fixture.clientContext()
        let setup: (OpaquePointer) -> Void = { ssl in if tls12 { Self.maxTLS12(ssl) } }
        let first = try TLSLoopback.run(server: server, client: client, serverName: "localhost", clientSetup: setup)
        #expect(first.client.succeeded, "\(first.client)")
        #expect(first.client.info?.sessionReused == false)
        #expect(client.hasCachedSession(serverName: "localhost"))
        let second = try TLSLoopback.run(server: server, client: client, serverName: "localhost", clientSetup: setup)
        #expect(second.client.succeeded, "\(second.client)")
        #expect(second.client.info?.sessionReused == true)
        #expect(second.server.info?.sessionReused == true)
        #expect(SSL_session_reused(second.clientEndpoint.ssl) == 1)
        #expect(second.client.info?.protocolVersion == (tls12 ? "TLSv1.2" : "TLSv1.3"))
    }

    @Test func sessionsAreKeptPerServerName() throws {
        let server = try fixture.serverContext()
        let client = try fixture.clientContext()
        let first = try TLSLoopback.run(server: server, client: client, serverName: "localhost")
        #expect(first.client.succeeded, "\(first.client)")
        let byIP = try TLSLoopback.run(server: server, client: client, serverName: "127.0.0.1")
        #expect(byIP.client.succeeded, "\(byIP.client)")
        #expect(byIP.client.info?.sessionReused == false)
        #expect(client.cachedSessionCount == 2)
    }

    @Test func sessionsAreNotSharedBetweenContexts() throws {
        let server = try fixture.serverContext()
        let first = try TLSLoopback.run(server: server, client: fixture.clientContext(), serverName: "localhost")
        #expect(first.client.succeeded, "\(first.client)")
        let other = try fixture.clientContext()
        let second = try TLSLoopback.run(server: server, client: other, serverName: "localhost")
        #expect(second.client.succeeded, "\(second.client)")
        #expect(second.client.info?.sessionReused == false)
    }

    @Test func failedHandshakeStoresNoSession() throws {
        let client = try fixture.clientContext()
        let run = try TLSLoopback.run(server: fixture.serverContext(), client: client, serverName: "wrong.example")
        #expect(run.client.handshakeError != nil)
        #expect(!client.hasCachedSession(serverName: "wrong.example"))
        #expect(client.cachedSessionCount == 0)
    }

    @Test func rememberStoresTheSessionExplicitly() throws {
        let server = try fixture.serverContext()
        let client = try fixture.clientContext()
        let first = try TLSLoopback.run(
            server: server, client: client, serverName: "localhost", clientSetup: Self.maxTLS12)
        #expect(first.client.succeeded, "\(first.client)")
        client.forgetSession(serverName: "localhost")
        #expect(!client.hasCachedSession(serverName: "localhost"))
        #expect(client.remember(ssl: first.clientEndpoint.ssl, serverName: "localhost"))
        #expect(client.hasCachedSession(serverName: "localhost"))
        let second = try TLSLoopback.run(
            server: server, client: client, serverName: "localhost", clientSetup: Self.maxTLS12)
        #expect(second.client.info?.sessionReused == true)
    }

    @Test func rememberRefusesAnSSLThatNeverHandshook() throws {
        let client = try fixture.clientContext()
        let ssl = try client.makeSSL(serverName: "localhost")
        defer { SSL_free(ssl) }
        #expect(!client.remember(ssl: ssl, serverName: "localhost"))
        #expect(client.cachedSessionCount == 0)
    }

    @Test func sessionFromARestartedServerFallsBackToAFullHandshake() throws {
        let client = try fixture.clientContext()
        let first = try TLSLoopback.run(server: fixture.serverContext(), client: client, serverName: "localhost")
        #expect(first.client.succeeded, "\(first.client)")
        // A new server context has new ticket keys: the old ticket cannot be opened, the handshake is a full one.
        let second = try TLSLoopback.run(server: fixture.serverContext(), client: client, serverName: "localhost")
        #expect(second.client.succeeded, "\(second.client)")
        #expect(second.client.info?.sessionReused == false)
        #expect(client.hasCachedSession(serverName: "localhost"))
    }

    @Test func expiredSessionIsDroppedInsteadOfOffered() throws {
        // 3 s, not 1: on a loaded machine the first handshake and the check after it can take over a second.
        let server = try TLSServerContext(identity: fixture.server.identity, sessionTimeout: 3)
        let client = try fixture.clientContext()
        let first = try TLSLoopback.run(server: server, client: client, serverName: "localhost")
        #expect(first.client.succeeded, "\(first.client)")
        #expect(client.hasCachedSession(serverName: "localhost"))
        Thread.sleep(forTimeInterval: 4.1)
        let ssl = try client.makeSSL(serverName: "localhost")
        SSL_free(ssl)
        #expect(!client.hasCachedSession(serverName: "localhost"))
    }

    /// One client context shared by several threads (as by the engine's workers): every handshake verifies, and
    /// sessions captured on one thread are resumed on others.
    @Test func oneClientContextServesConcurrentThreads() throws {
        let server = try fixture.serverContext()
        let client = try fixture.clientContext()
        let outcomes = Mutex<[(succeeded: Bool, reused: Bool)]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<5 {
                let run = try? TLSLoopback.run(server: server, client: client, serverName: "localhost")
                let outcome = (run?.client.succeeded ?? false, run?.client.info?.sessionReused ?? false)
                outcomes.withLock { $0.append(outcome) }
            }
        }
        let all = outcomes.withLock { $0 }
        #expect(all.count == 20)
        #expect(all.allSatisfy { $0.succeeded })
        #expect(all.filter { $0.reused }.count >= 10, "\(all)")
        #expect(client.cachedSessionCount == 1)
    }

    @Test func cacheKeepsAtMostTheConfiguredNumberOfNames() throws {
        let server = try fixture.serverContext()
        let client = try TLSClientContext(verify: false, maximumCachedSessions: 1)
        for name in ["localhost", "127.0.0.1"] {
            let run = try TLSLoopback.run(server: server, client: client, serverName: name)
            #expect(run.client.succeeded, "\(run.client)")
        }
        #expect(client.cachedSessionCount == 1)
        #expect(client.hasCachedSession(serverName: "127.0.0.1"))
        #expect(!client.hasCachedSession(serverName: "localhost"))
    }
}
