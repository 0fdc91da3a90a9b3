import Foundation
import LoopbackTestSupport

/// A loopback upstream that records every connection it accepts (the request head and the body bytes that
/// followed), answers a complete request (Content-Length, or chunked up to its last chunk) with 200, and
/// closes. Sees everything a proxy sends,
/// down to a connection that carries no bytes.
final class CountingUpstream: Sendable {
    struct Connection: Sendable {
        var head: String
        var bodyBytes: Int
    }

    /// What the connections brought, held by the server's handler threads as well as by the upstream: a handler
    /// thread outlives ``stop()`` (it ends when its connection does), and may still record after the test
    /// dropped the upstream. (An unowned reference to the upstream here crashed a test run: a handler that
    /// started late found it destroyed.)
    private final class Record: @unchecked Sendable {
        // @unchecked Sendable: `seen` and `accepted` are only touched while holding `lock`.
        private let lock = NSLock()
        private var seen: [Int: Connection] = [:]
        private var accepted = 0

        func accept() -> Int {
            lock.lock()
            defer { lock.unlock() }
            accepted += 1
            seen[accepted] = Connection(head: "", bodyBytes: 0)
            return accepted
        }

        func update(_ index: Int, _ change: (inout Connection) -> Void) {
            lock.lock()
            change(&seen[index]!)
            lock.unlock()
        }

        var connections: [Connection] {
            lock.lock()
            defer { lock.unlock() }
            return seen.keys.sorted().map { seen[$0]! }
        }
    }

    private let record: Record
    private let server: RawServer

    var port: UInt16 { server.port }

    init() throws {
        let record = Record()
        self.record = record
        server = try RawServer { fd in
            let index = record.accept()
            let head = String(decoding: RawServer.readHead(fd), as: UTF8.self)
            record.update(index) { $0.head = head }
            let length = head.split(separator: "\r\n").compactMap { line -> Int? in
                let pair = line.split(separator: ":", maxSplits: 1)
                guard pair.count == 2, pair[0].lowercased() == "content-length" else { return nil }
                return Int(pair[1].trimmingCharacters(in: .whitespaces))
            }.first
            let chunked = length == nil && head.lowercased().contains("transfer-encoding: chunked")
            var buffer = [UInt8](repeating: 0, count: 65536)
            var total = 0
            var tail: [UInt8] = []
            var complete = length == 0
            while !complete {
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count <= 0 { break }
                total += count
                record.update(index) { $0.bodyBytes = total }
                tail = Array((tail + buffer[0..<count]).suffix(5))
                complete = length.map { total >= $0 } ?? (chunked && tail == Array("0\r\n\r\n".utf8))
            }
            if complete, !head.isEmpty {
                RawServer.send(fd, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
            }
        }
    }

    func stop() { server.stop() }

    /// The connections accepted so far, in the order they were accepted.
    var connections: [Connection] { record.connections }
}
