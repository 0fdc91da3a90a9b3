import Foundation
import LoopbackTestSupport
import ProxyEngine
import Testing

/// An upstream that says how long it keeps idle connections (`Keep-Alive: timeout=N`, as Node.js, Apache and
/// Gunicorn do): the pool keeps such a connection a second less, so a later request (a POST, which is never
/// retried) goes on a new connection instead of one the upstream is closing.
@Suite("Proxy upstream Keep-Alive timeout", .serialized)
struct ProxyUpstreamKeepAliveTests {
    /// What the upstream saw on each connection: requests read, and whether the proxy closed it afterwards.
    final class Record: @unchecked Sendable {
        // @unchecked Sendable: every access holds `lock`.
        private let lock = NSLock()
        private var connections: [(requests: Int, closedByProxy: Bool)] = []
        func opened() -> Int { lock.withLock { connections.append((0, false)); return connections.count - 1 } }
        func request(_ index: Int) { lock.withLock { connections[index].requests += 1 } }
        func closed(_ index: Int) { lock.withLock { connections[index].closedByProxy = true } }
        var value: [(requests: Int, closedByProxy: Bool)] { lock.withLock { connections } }
    }

    /// Answers every request on a connection with `keepAlive` as its Keep-Alive field (none when nil), and notes
    /// when the proxy closes the connection. It never closes a connection itself.
    static func upstream(keepAlive: String?, record: Record) throws -> RawServer {
        try RawServer { fd in
            let index = record.opened()
            while true {
                let head = RawServer.readHead(fd)
                guard !head.isEmpty else {
                    record.closed(index)
                    return
                }
                record.request(index)
                if let length = Self.contentLength(head), length > 0 {
                    var body = [UInt8](repeating: 0, count: length)
                    _ = recv(fd, &body, length, Int32(MSG_WAITALL))
                }
                let field = keepAlive.map { "Connection: keep-alive\r\nKeep-Alive: \($0)\r\n" } ?? ""
                RawServer.send(fd, "HTTP/1.1 200 OK\r\n\(field)Content-Length: 2\r\n\r\nok")
            }
        }
    }

    static func contentLength(_ head: [UInt8]) -> Int? {
        let text = String(decoding: head, as: UTF8.self).lowercased()
        guard let range = text.range(of: "content-length: ") else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }

    /// A GET, a pause of `pause` seconds, then a POST, through a proxy to the upstream above.
    static func exchange(keepAlive: String?, pause: TimeInterval) throws -> [(requests: Int, closedByProxy: Bool)] {
        let record = Record()
        let upstream = try Self.upstream(keepAlive: keepAlive, record: record)
        defer { upstream.stop() }
        let (proxy, port) = try ProxyServer.started(toPlainUpstream: upstream.port)
        defer { proxy.stop(); proxy.wait() }
        let client = try TestHTTPClient(port: port, timeout: 10)
        client.send("GET /one HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(client.readResponse()?.text == "ok")
        Thread.sleep(forTimeInterval: pause)
        client.send("POST /two HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhi")
        #expect(client.readResponse()?.status == 200)
        Thread.sleep(forTimeInterval: 0.1)  // the upstream's threads note what they saw
        return record.value
    }

    /// `timeout=2`: kept 1 s, closed by the proxy before the POST at 1.6 s, which takes a new connection.
    @Test func theProxyClosesAnIdleConnectionBeforeTheUpstreamsTimeout() throws {
        let seen = try Self.exchange(keepAlive: "timeout=2, max=100", pause: 1.6)
        #expect(seen.count == 2, "\(seen)")
        #expect(seen.first?.requests == 1 && seen.first?.closedByProxy == true, "\(seen)")
        #expect(seen.last?.requests == 1, "\(seen)")
    }

    /// `timeout=1` leaves nothing to keep: the connection is closed after its response.
    @Test func aOneSecondTimeoutIsNotPooled() throws {
        let seen = try Self.exchange(keepAlive: "timeout=1", pause: 0.3)
        #expect(seen.count == 2, "\(seen)")
        #expect(seen.first?.closedByProxy == true, "\(seen)")
    }

    /// Without the field (or with a longer timeout than the pool's own 30 s) the connection is reused.
    @Test(arguments: [nil, "timeout=75"])
    func otherwiseTheConnectionIsReused(keepAlive: String?) throws {
        let seen = try Self.exchange(keepAlive: keepAlive, pause: 1.6)
        #expect(seen.count == 1, "\(seen)")
        #expect(seen.first?.requests == 2, "\(seen)")
    }
}
