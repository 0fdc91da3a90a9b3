import Foundation
import LoopbackTestSupport
import Policy
import ProxyEngine
import Testing

/// The proxy's TLS connections to an upstream: kept alive for several requests, and new ones resuming the
/// session of earlier ones.
@Suite("Upstream TLS reuse", .serialized)
struct ProxyUpstreamTLSTests {
    /// A proxy in front of a TLS echo upstream whose certificate is verified against a CA made here.
    static func run(maxIdleConnections: Int, requests: Int) throws -> [EchoRecord] {
        let proxy = try TLSEchoProxy(maxIdleConnections: maxIdleConnections)
        defer { proxy.shutdown() }
        for index in 0..<requests {
            // A new client connection each time: only the upstream side can be reused.
            let client = try TestHTTPClient(port: proxy.port, timeout: 10)
            client.send("GET /\(index) HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(client.readResponse()?.status == 200)
        }
        return proxy.recorder.records
    }

    @Test func oneUpstreamConnectionCarriesSuccessiveRequests() throws {
        let records = try Self.run(maxIdleConnections: 32, requests: 3)
        #expect(records.map(\.connectionRequest) == [1, 2, 3])
        #expect(records.map(\.tlsSessionReused) == [false, false, false])
    }

    /// Failed before UpstreamConnection.close() recorded the shutdown: OpenSSL marked the session of an `SSL`
    /// freed without one as not resumable, so every handshake was a full one.
    @Test func newUpstreamConnectionsResumeTheSession() throws {
        let records = try Self.run(maxIdleConnections: 0, requests: 3)
        #expect(records.map(\.connectionRequest) == [1, 1, 1])
        #expect(records.map(\.tlsSessionReused) == [false, true, true])
    }
}
