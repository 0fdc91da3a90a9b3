import Foundation
import LoopbackTestSupport
import Multipart
import Policy
import ProxyEngine
import Testing

/// Upstream failures map to 502/504 with the reason logged, not sent; clients that abort abort the upstream.
@Suite("Upstream faults", .serialized)
struct ProxyUpstreamFaultTests {
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
    }

    static func proxy(to port: UInt16, log: Log, timeouts: Duration = .seconds(5)) throws -> (ProxyServer, UInt16) {
        let settings = EngineSettings(
            listeners: [ListenerSettings(address: SocketAddress("127.0.0.1:0")!)],
            upstreams: ["up": UpstreamSettings(name: "up", address: SocketAddress("127.0.0.1:\(port)")!, serverName: "localhost",
                                               tls: nil, connectTimeout: timeouts, responseTimeout: timeouts)],
            routes: [RouteConfiguration(name: "all", upstream: "up")])
        let proxy = ProxyServer(settings: settings, events: EngineEvents(onLog: { log.add($0) }))
        let port = try proxy.start()[0].port
        return (proxy, port)
    }

    static let upload = ProxyHarness.request(
        ProxyHarness.multipart("b", [(name: "f", filename: "x", type: nil, data: [UInt8](repeating: 7, count: 100_000))]),
        boundary: "b")

    @Test func refusedIs502WithTheReasonOnlyInTheLog() throws {
        let refusing = RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let port = refusing.port
        let log = Log()
        let (proxy, proxyPort) = try Self.proxy(to: port, log: log)
        defer { proxy.stop(); proxy.wait() }
        let client = try TestHTTPClient(port: proxyPort)
        client.send(Self.upload)
        let response = client.readResponse()
        #expect(response?.status == 502)
        #expect(response?.json?["flag"] as? String == "upstream_failed")
        let body = String(decoding: response?.body ?? [], as: UTF8.self)
        #expect(!body.contains("refused"))
        #expect(log.all.contains { $0.contains("refused") || $0.contains("connect failed") })
    }

    @Test func stalledUpstreamIs504() throws {
        let stall = try RawServer { fd in _ = RawServer.drain(fd) }
        defer { stall.stop() }
        let log = Log()
        let (proxy, port) = try Self.proxy(to: stall.port, log: log, timeouts: .milliseconds(500))
        defer { proxy.stop(); proxy.wait() }
        let client = try TestHTTPClient(port: port)
        client.send(Self.upload)
        let response = client.readResponse()
        #expect(response?.status == 504)
        #expect(response?.json?["flag"] as? String == "upstream_timeout")
    }

    /// An upstream that stops reading mid-body on a reused connection (already connected: no connect or
    /// handshake sets its timeouts) times out like a new one: the client gets 504 within the response timeout,
    /// not a connection held until the upstream closes.
    @Test func upstreamThatStopsReadingOnAReusedConnectionIs504() throws {
        let connections = Log()
        let upstream = try RawServer { fd in
            connections.add("connection")
            _ = RawServer.readHead(fd)  // GET, no body
            RawServer.send(fd, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            _ = RawServer.readHead(fd)  // the POST's head; its body is never read
            Thread.sleep(forTimeInterval: 3)
        }
        defer { upstream.stop() }
        let log = Log()
        let (proxy, port) = try Self.proxy(to: upstream.port, log: log, timeouts: .milliseconds(500))
        defer { proxy.stop(); proxy.wait() }
        let client = try TestHTTPClient(port: port, timeout: 5)
        client.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(client.readResponse()?.status == 200)
        // Far more than the sockets between them hold: the proxy's output backs up and the client is paused.
        let length = 64 << 20
        client.send("POST / HTTP/1.1\r\nHost: a\r\nContent-Type: application/octet-stream\r\n"
                    + "Content-Length: \(length)\r\n\r\n")
        // The body is sent from another thread while this one reads the answer: send touches only the socket,
        // the reader only its own buffer.
        nonisolated(unsafe) let writer = client
        let sender = Thread { writer.send([UInt8](repeating: 7, count: length)) }
        sender.start()
        let response = client.readResponse(method: "POST")
        #expect(response?.status == 504)
        #expect(response?.json?["flag"] as? String == "upstream_timeout")
        #expect(connections.all.count == 1, "both requests on one upstream connection")
    }

    @Test func resetMidBodyIs502() throws {
        let reset = try RawServer { fd in
            _ = RawServer.readHead(fd)
            var linger = linger(l_onoff: 1, l_linger: 0)
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
        }
        defer { reset.stop() }
        let log = Log()
        let (proxy, port) = try Self.proxy(to: reset.port, log: log)
        defer { proxy.stop(); proxy.wait() }
        let client = try TestHTTPClient(port: port)
        client.send(Self.upload)
        #expect(client.readResponse()?.status == 502)
    }

    @Test func malformedResponseIs502() throws {
        let bad = try RawServer { fd in
            _ = RawServer.readHead(fd)
            RawServer.send(fd, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\nok")
            _ = RawServer.drain(fd)
        }
        defer { bad.stop() }
        let log = Log()
        let (proxy, port) = try Self.proxy(to: bad.port, log: log)
        defer { proxy.stop(); proxy.wait() }
        let client = try TestHTTPClient(port: port)
        client.send(Self.upload)
        let response = client.readResponse()
        #expect(response?.status == 502)
        #expect(response?.json?["flag"] as? String == "upstream_invalid_response")
    }

    @Test func earlyAnswerIsRelayedAndTheConnectionCloses() throws {
        let early = try RawServer { fd in
            _ = RawServer.readHead(fd)
            RawServer.send(fd, "HTTP/1.1 413 Payload Too Large\r\nContent-Length: 4\r\n\r\nbig!")
            _ = RawServer.drain(fd)
        }
        defer { early.stop() }
        let log = Log()
        let (proxy, port) = try Self.proxy(to: early.port, log: log)
        defer { proxy.stop(); proxy.wait() }
        let client = try TestHTTPClient(port: port)
        let big = ProxyHarness.request(
            ProxyHarness.multipart("b", [(name: "f", filename: "x", type: nil, data: [UInt8](repeating: 7, count: 4_000_000))]),
            boundary: "b")
        client.send(Array(big.prefix(2_000_000)))
        let response = client.readResponse()
        #expect(response?.status == 413)
        let text = String(decoding: response?.body ?? [], as: UTF8.self)
        #expect(text == "big!")
        #expect(response?.header("connection") == "close")
    }

    @Test func clientAbortMidBodyNeverCompletesTheUpstreamBody() throws {
        let received = Log()
        let upstream = try RawServer { fd in
            let head = RawServer.readHead(fd)
            let total = RawServer.drain(fd)
            received.add("\(String(decoding: head, as: UTF8.self).contains("chunked")) \(total)")
        }
        defer { upstream.stop() }
        let log = Log()
        let (proxy, port) = try Self.proxy(to: upstream.port, log: log)
        defer { proxy.stop(); proxy.wait() }
        do {
            let client = try TestHTTPClient(port: port)
            client.send(Array(Self.upload.prefix(50_000)))
            Thread.sleep(forTimeInterval: 0.2)
        }  // the client closes here
        var waited = 0
        while received.all.isEmpty && waited < 50 { Thread.sleep(forTimeInterval: 0.1); waited += 1 }
        let line = try #require(received.all.first)
        #expect(line.hasPrefix("true "))
        // No final "0\r\n\r\n": the upstream saw a chunked body that never ended.
        let bytes = Int(line.split(separator: " ")[1]) ?? 0
        #expect(bytes > 0 && bytes < 60_000)
    }
}
