import CEventTLS  // owns <sys/socket.h>'s enums (SOCK_STREAM, SHUT_WR) when its module loads first
import Foundation
import LoopbackTestSupport

/// A loopback upstream that records, per accepted connection, exactly the bytes it received: the request
/// head, the raw body bytes (chunk framing included) and whether the connection ended. It answers 200 and
/// closes once a request is complete (Content-Length reached, or the last chunk of a chunked body and the
/// empty trailer), and never otherwise.
final class RecordingUpstream: Sendable {
    struct Connection: Sendable {
        var head = ""
        var body: [UInt8] = []
        /// The request was complete (and was answered).
        var complete = false
        /// The proxy closed or reset the connection (or the upstream did, after answering).
        var ended = false

        /// A head field's value (case-insensitive name).
        func field(_ name: String) -> String? {
            for line in head.split(separator: "\r\n").dropFirst() {
                let pair = line.split(separator: ":", maxSplits: 1)
                if pair.count == 2, pair[0].lowercased() == name.lowercased() {
                    return pair[1].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }

        /// The body after de-chunking (chunked) or as sent (Content-Length); nil when the chunk framing is
        /// broken.
        var decodedBody: [UInt8]? {
            guard field("transfer-encoding")?.lowercased() == "chunked" else { return body }
            return ChunkedBody.decode(body)?.data
        }
    }

    /// What the connections brought, held by the server's handler threads as well as by the upstream: a handler
    /// thread outlives ``stop()`` (it records the end of its connection when the proxy closes it, which a
    /// pooled connection does as the proxy stops), and may still record after the test dropped the upstream.
    /// (An unowned reference to the upstream here crashed test runs: a handler found it destroyed.)
    private final class Record: @unchecked Sendable {
        // @unchecked Sendable: `seen` and `accepted` are only touched while holding `lock`.
        private let lock = NSLock()
        private var seen: [Int: Connection] = [:]
        private var accepted = 0

        func accept() -> Int {
            lock.lock()
            defer { lock.unlock() }
            accepted += 1
            seen[accepted] = Connection()
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
            var buffer = [UInt8](repeating: 0, count: 65536)
            var complete = false
            while !complete {
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count <= 0 { break }
                record.update(index) { connection in
                    connection.body += buffer[0..<count]
                    complete = Self.isComplete(connection)
                    connection.complete = complete
                }
            }
            if !complete {
                record.update(index) { connection in
                    connection.complete = !head.isEmpty && Self.isComplete(connection)
                    connection.ended = true
                }
                return
            }
            RawServer.send(fd, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
            shutdown(fd, Int32(SHUT_WR))
            _ = RawServer.drain(fd)
            record.update(index) { $0.ended = true }
        }
    }

    private static func isComplete(_ connection: Connection) -> Bool {
        if let length = connection.field("content-length").flatMap(Int.init) {
            return connection.body.count >= length
        }
        if connection.field("transfer-encoding")?.lowercased() == "chunked" {
            return ChunkedBody.decode(connection.body)?.complete == true
        }
        return !connection.head.isEmpty
    }

    func stop() { server.stop() }

    /// The connections accepted so far, in order.
    var connections: [Connection] { record.connections }

    /// Waits up to `seconds` for `condition` on the connections; returns whether it held.
    func wait(seconds: Double = 10, until condition: ([Connection]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition(connections) {
            if Date() > deadline { return false }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return true
    }
}

/// A chunked body decoder written for the tests (independent of HTTP1's).
enum ChunkedBody {
    /// The data so far, and whether the last chunk and the (empty) trailer section arrived; nil when the
    /// framing is broken.
    static func decode(_ bytes: [UInt8]) -> (data: [UInt8], complete: Bool)? {
        var data: [UInt8] = []
        var index = 0
        while true {
            guard let lineEnd = find([13, 10], in: bytes, from: index) else { return (data, false) }
            guard let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self), radix: 16) else {
                return nil
            }
            index = lineEnd + 2
            if size == 0 {
                guard bytes.count >= index + 2 else { return (data, false) }
                return bytes[index..<(index + 2)] == [13, 10] ? (data, true) : nil
            }
            guard bytes.count >= index + size + 2 else {
                data += bytes[index..<min(bytes.count, index + size)]
                return (data, false)
            }
            data += bytes[index..<(index + size)]
            guard bytes[(index + size)..<(index + size + 2)] == [13, 10] else { return nil }
            index += size + 2
        }
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        for index in start...(bytes.count - needle.count)
        where bytes[index..<(index + needle.count)].elementsEqual(needle) {
            return index
        }
        return nil
    }
}
