import Foundation
import LoopbackTestSupport
import ProxyEngine
import Testing

/// Client faults through the real engine: a client that aborts mid-body, stalls mid-head, or goes away while
/// the response streams. Each is logged, and afterwards the proxy holds no socket, bufferevent, `SSL` object
/// or spool file of it, with plain and TLS upstreams.
@Suite("Client faults release everything", .serialized)
struct ProxyClientFaultTests {
    /// The client sends half the upload and closes. Streamed, the upstream saw a chunked body that never
    /// ended; spooled, it saw no connection at all.
    @Test(arguments: FaultVariant.all)
    func abortMidBody(_ variant: FaultVariant) throws {
        let received = FaultLog()
        let upstream = try FaultUpstream(tls: variant.tls) { peer in
            let head = peer.readHead() ?? ""
            received.add("\(head.contains("chunked")) \(peer.drain())")
        }
        defer { upstream.stop() }
        let proxy = try FaultProxy(upstreamPort: upstream.port, variant: variant)
        defer { proxy.shutdown() }
        do {
            let client = try TestHTTPClient(port: proxy.port)
            client.send(Array(FaultProxy.upload.prefix(1 << 20)))
            if variant.forward == .spool {
                #expect(proxy.directory.wait { $0.openDeletedFiles.count == 1 })
            } else {
                #expect(upstream.waitUntil { upstream.acceptedConnections == 1 })
            }
        }  // the client closes here
        #expect(proxy.log.wait(for: "log: client", "closed the connection mid-request") != nil, "\(proxy.log.all)")
        proxy.expectReleased()
        #expect(upstream.waitForHandlers())
        if variant.forward == .stream {
            let line = try #require(received.all.first)
            #expect(line.hasPrefix("true "))  // chunked, and cut short: no last chunk
            #expect((Int(line.split(separator: " ")[1]) ?? .max) < FaultProxy.body.count)
        } else {
            #expect(received.all.isEmpty)
        }
    }

    /// The client sends part of a head and stops: 408 after the header timeout, then the connection closes.
    @Test(arguments: [false, true])
    func stallMidHeadIs408(_ afterRequestLine: Bool) throws {
        let upstream = try FaultUpstream(tls: false) { _ in }
        defer { upstream.stop() }
        let proxy = try FaultProxy(
            upstreamPort: upstream.port, variant: FaultVariant(tls: false, forward: .stream),
            headerTimeout: .milliseconds(300))
        defer { proxy.shutdown() }
        let client = try TestHTTPClient(port: proxy.port, timeout: 5)
        client.send(afterRequestLine ? "POST /upload HTTP/1.1\r\nHost: a\r\nContent-Le" : "POS")
        let started = Date()
        let response = client.readResponse()
        #expect(response?.status == 408)
        #expect(response?.json?["flag"] as? String == "header_timeout")
        #expect(Date().timeIntervalSince(started) < 3)
        #expect(client.isClosedByPeer())
        #expect(proxy.log.wait(for: "problem: 408 header_timeout") != nil, "\(proxy.log.all)")
        proxy.expectReleased()
        #expect(upstream.acceptedConnections == 0)
    }

    /// A dribbling head (a byte every 50 ms) does not extend the header timeout: it covers the whole head.
    @Test func dribbledHeadIs408() throws {
        let upstream = try FaultUpstream(tls: false) { _ in }
        defer { upstream.stop() }
        let proxy = try FaultProxy(
            upstreamPort: upstream.port, variant: FaultVariant(tls: false, forward: .stream),
            headerTimeout: .milliseconds(500))
        defer { proxy.shutdown() }
        let client = try TestHTTPClient(port: proxy.port, timeout: 5)
        let head = Array("POST /upload HTTP/1.1\r\nHost: example.test\r\nX-Slow: ".utf8)
            + [UInt8](repeating: 97, count: 100)
        let started = Date()
        for byte in head where client.isOpenForWriting && Date().timeIntervalSince(started) < 3 {
            client.send([byte])
            Thread.sleep(forTimeInterval: 0.05)
        }
        let response = client.readResponse()
        #expect(response?.status == 408)
        #expect(Date().timeIntervalSince(started) < 4)
        proxy.expectReleased()
    }

    /// The client reads part of a large response and closes: the proxy closes the upstream connection (the
    /// upstream's writes fail long before its 64 MiB are out) and logs it.
    @Test(arguments: FaultVariant.all)
    func disconnectWhileTheResponseStreams(_ variant: FaultVariant) throws {
        let total = 64 << 20
        let sent = FaultLog()
        let upstream = try FaultUpstream(tls: variant.tls) { peer in
            _ = peer.readHead()
            var count = 0
            let block = [UInt8](repeating: 120, count: 64 * 1024)
            if peer.send("HTTP/1.1 200 OK\r\nContent-Length: \(total)\r\n\r\n") {
                while count < total, peer.send(block) { count += block.count }
            }
            sent.add("\(count)")
        }
        defer { upstream.stop() }
        let proxy = try FaultProxy(upstreamPort: upstream.port, variant: variant)
        defer { proxy.shutdown() }
        do {
            let client = try TestHTTPClient(port: proxy.port)
            client.send("GET /big HTTP/1.1\r\nHost: example.test\r\n\r\n")
            #expect(client.readBytes(atLeast: 256 * 1024) >= 256 * 1024)
        }  // the client closes here, with response bytes unread (a reset)
        #expect(
            proxy.log.wait(for: "log: client", "the connection while the response streamed") != nil, "\(proxy.log.all)")
        proxy.expectReleased()
        #expect(upstream.waitForHandlers(seconds: 15))
        let count = try #require(sent.all.first.flatMap { Int($0) })
        #expect(count < total)
    }
}

extension FaultUpstream {
    /// Connections accepted so far (handlers running or finished).
    var acceptedConnections: Int { finishedConnections + runningConnections }

    /// Waits up to `seconds` for `condition`; whether it held.
    func waitUntil(seconds: TimeInterval = 5, _ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !condition() {
            if Date() > deadline { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }
}

extension TestHTTPClient {
    /// Whether a zero-length probe finds the connection still writable (no error pending).
    var isOpenForWriting: Bool {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0
    }

    /// Reads raw bytes until `count` arrived or the connection ended; the count read.
    func readBytes(atLeast count: Int) -> Int {
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        while total < count {
            let got = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if got <= 0 { break }
            total += got
        }
        return total
    }
}
