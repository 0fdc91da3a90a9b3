import Foundation
import LoopbackTestSupport
import Policy
import ProxyEngine
import Testing

/// A large body to a TLS upstream goes out in batched records (``TLSWriteBatch``): whole and in order to an upstream
/// that reads slowly (flushes the socket refuses wait for it), within the write timeout to one that stops reading
/// (bytes held in the batch count as unwritten), and on a connection reused afterwards (the batch is taken out
/// before the connection goes idle).
@Suite("TLS write batches", .serialized)
struct ProxyTLSWriteBatchTests {
    static let length = 16 << 20

    /// The proxy for these cases: one TLS upstream, bodies relayed unchanged.
    static func proxy(to port: UInt16, timeout: Duration) throws -> (ProxyServer, UInt16) {
        let settings = EngineSettings(
            listeners: [ListenerSettings(address: SocketAddress("127.0.0.1:0")!)],
            upstreams: [
                "up": UpstreamSettings(
                    name: "up", address: SocketAddress("127.0.0.1:\(port)")!, serverName: "localhost",
                    tls: try TLSFixture.shared.clientContext(), connectTimeout: timeout, responseTimeout: timeout)
            ],
            routes: [RouteConfiguration(name: "all", upstream: "up")])
        let proxy = ProxyServer(settings: settings, events: FaultLog().events)
        return (proxy, try proxy.start()[0].port)
    }

    /// Byte `index` of the body: a pattern whose sum shows any byte lost, doubled or reordered.
    static func byte(_ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: index &* 31 &+ index >> 16) }

    static func checksum(_ range: Range<Int>, of bytes: [UInt8], from offset: Int) -> UInt64 {
        var sum: UInt64 = 0
        for index in range { sum = sum &* 33 &+ UInt64(bytes[index - offset]) }
        return sum
    }

    @Test func aSlowUpstreamGetsTheWholeBodyAndTheConnectionIsReused() throws {
        let body = (0..<Self.length).map(Self.byte)
        let expected = Self.checksum(0..<Self.length, of: body, from: 0)
        let upstream = try FaultUpstream(tls: true) { peer in
            guard let head = peer.readHead(), head.contains("Content-Length: \(Self.length)") else { return }
            var sum: UInt64 = 0
            var received = 0
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while received < Self.length {
                let count = peer.read(into: &buffer, count: min(buffer.count, Self.length - received))
                guard count > 0 else { return }
                for index in 0..<count { sum = sum &* 33 &+ UInt64(buffer[index]) }
                received += count
                // A slow reader: the proxy's socket stays full, so its flushes are refused, the last one included
                // (no other write comes to this connection then: only a flush retried once the socket drains
                // delivers the last bytes).
                Thread.sleep(forTimeInterval: 0.001)
            }
            let answer = "\(received) \(sum)"
            peer.send("HTTP/1.1 200 OK\r\nContent-Length: \(answer.utf8.count)\r\n\r\n\(answer)")
            // The next request comes on the same connection.
            guard peer.readHead() != nil else { return }
            peer.send("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nagain")
            _ = peer.drain()
        }
        defer { upstream.stop() }
        let (proxy, port) = try Self.proxy(to: upstream.port, timeout: .seconds(10))
        defer { proxy.stop(); proxy.wait() }
        let client = try TestHTTPClient(port: port, timeout: 20)
        client.send(
            "POST /upload HTTP/1.1\r\nHost: a\r\nContent-Type: application/octet-stream\r\n"
                + "Content-Length: \(Self.length)\r\n\r\n")
        nonisolated(unsafe) let writer = client
        let sender = Thread { writer.send(body) }
        sender.start()
        let response = client.readResponse(method: "POST")
        #expect(response?.status == 200)
        #expect(response.map { String(decoding: $0.body, as: UTF8.self) } == "\(Self.length) \(expected)")
        client.send("GET /after HTTP/1.1\r\nHost: a\r\n\r\n")
        let after = client.readResponse()
        #expect(after?.status == 200)
        #expect(after.map { String(decoding: $0.body, as: UTF8.self) } == "again")
        #expect(upstream.acceptedConnections == 1, "the upstream connection was reused")
    }

    /// An upstream that stops reading mid-body: once the socket is full, bytes wait in the batch and in the output,
    /// and the write timeout (the response timeout here) ends the exchange with 504.
    @Test func anUpstreamThatStopsReadingIs504() throws {
        let upstream = try FaultUpstream(tls: true) { peer in
            _ = peer.readHead()
            peer.read(atLeast: 1 << 20)
            Thread.sleep(forTimeInterval: 4)
        }
        defer { upstream.stop() }
        let (proxy, port) = try Self.proxy(to: upstream.port, timeout: .milliseconds(500))
        defer { proxy.stop(); proxy.wait() }
        let client = try TestHTTPClient(port: port, timeout: 5)
        let length = 64 << 20
        client.send(
            "POST /upload HTTP/1.1\r\nHost: a\r\nContent-Type: application/octet-stream\r\n"
                + "Content-Length: \(length)\r\n\r\n")
        nonisolated(unsafe) let writer = client
        let sender = Thread { writer.send([UInt8](repeating: 7, count: length)) }
        sender.start()
        let started = Date()
        let response = client.readResponse(method: "POST")
        #expect(response?.status == 504)
        #expect(response?.json?["flag"] as? String == "upstream_timeout")
        #expect(Date().timeIntervalSince(started) < 3.5, "within the timeout, not when the upstream gives up")
    }
}
