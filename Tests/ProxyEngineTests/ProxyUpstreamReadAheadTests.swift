import Foundation
import LoopbackTestSupport
import Policy
import ProxyEngine
import Testing

/// TLS upstreams are read ahead: one `read` takes every record the socket holds. `epoll` does not see the records
/// left in the SSL's buffer, so a read pass decrypts them all (``UpstreamSocket``; libevent's OpenSSL bufferevent,
/// used until stop 49, stopped once the current record was consumed); nothing else would wake the connection while
/// the upstream stays silent.
@Suite("TLS upstream records read ahead", .serialized)
struct ProxyUpstreamReadAheadTests {
    /// A response whose head and body come as 1 + `records` TLS records in one TCP segment.
    static func respond(_ peer: FaultPeer, chunked: Bool, records: Int, tag: Character) {
        let piece = String(repeating: tag, count: 50)
        peer.corked {
            if chunked {
                peer.send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
                for _ in 0..<records { peer.send("32\r\n\(piece)\r\n") }
                peer.send("0\r\n\r\n")
            } else {
                peer.send("HTTP/1.1 200 OK\r\nContent-Length: \(records * piece.count)\r\n\r\n")
                for _ in 0..<records { peer.send(piece) }
            }
        }
    }

    /// Failed with read-ahead alone: the client got the head and the first record's bytes, then waited until
    /// the upstream closed. Two requests on one client connection: the second reuses the pooled upstream
    /// connection, whose read-ahead buffer must be empty (nothing of the first response left in it).
    @Test(arguments: [false, true])
    func aResponseOfManyRecordsInOneSegmentArrivesWhole(chunked: Bool) throws {
        let records = 200
        let upstream = try FaultUpstream(tls: true) { peer in
            for tag: Character in ["a", "b"] {
                guard peer.readHead() != nil else { return }
                Self.respond(peer, chunked: chunked, records: records, tag: tag)
            }
            peer.drain()  // silent and open until the proxy closes (bounded by the peer's 10 s timeout)
        }
        defer { upstream.stop() }
        let settings = EngineSettings(
            listeners: [ListenerSettings(address: SocketAddress("127.0.0.1:0")!)],
            upstreams: [
                "up": UpstreamSettings(
                    name: "up", address: SocketAddress("127.0.0.1:\(upstream.port)")!, serverName: "localhost",
                    tls: try TLSFixture.shared.clientContext())
            ],
            routes: [RouteConfiguration(name: "all", upstream: "up")])
        let proxy = ProxyServer(settings: settings)
        let port = try proxy.start()[0].port
        defer { proxy.stop(); proxy.wait() }
        let client = try TestHTTPClient(port: port, timeout: 5)
        for tag: Character in ["a", "b"] {
            client.send("GET /\(tag) HTTP/1.1\r\nHost: a\r\n\r\n")
            let response = try #require(client.readResponse(), "response \(tag)")
            #expect(response.status == 200)
            #expect(response.text == String(repeating: tag, count: records * 50))
        }
    }
}
