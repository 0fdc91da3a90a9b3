import Foundation
import LoopbackTestSupport

/// A plain-HTTP upstream that keeps the raw bytes of every request it receives (head and framed body) and
/// answers each with `200` and an empty body: what `partgate serve` really sent, to compare with `rewrite`.
final class UpstreamCapture: @unchecked Sendable {
    // @unchecked Sendable: `requests` is only touched while holding `lock`.
    private let lock = NSLock()
    private var requests: [[UInt8]] = []
    private var server: RawServer?

    /// The port on 127.0.0.1.
    var port: UInt16 { server!.port }

    init() throws {
        server = try RawServer { [weak self] descriptor in self?.serve(descriptor) }
    }

    func stop() { server?.stop() }

    /// The raw requests received so far.
    var received: [[UInt8]] {
        lock.lock()
        defer { lock.unlock() }
        return requests
    }

    /// Reads requests (Content-Length or chunked bodies) until the connection closes.
    private func serve(_ descriptor: Int32) {
        var buffer: [UInt8] = []
        while let request = Self.nextRequest(descriptor, &buffer) {
            lock.lock()
            requests.append(request)
            lock.unlock()
            RawServer.send(descriptor, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
        }
    }

    private static func nextRequest(_ descriptor: Int32, _ buffer: inout [UInt8]) -> [UInt8]? {
        var headEnd: Range<Int>?
        while true {
            headEnd = headEnd ?? buffer.firstRange(of: Array("\r\n\r\n".utf8))
            if let headEnd, let end = requestEnd(buffer, headEnd: headEnd.upperBound) {
                defer { buffer.removeSubrange(..<end) }
                return Array(buffer[..<end])
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            buffer += chunk[0..<count]
        }
    }

    /// Where the request that starts `buffer` ends, once it is complete.
    private static func requestEnd(_ buffer: [UInt8], headEnd: Int) -> Int? {
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self).lowercased()
        if head.contains("\r\ntransfer-encoding: chunked\r\n") {
            var offset = headEnd
            while let lineEnd = buffer[offset...].firstRange(of: Array("\r\n".utf8)) {
                guard let size = Int(String(decoding: buffer[offset..<lineEnd.lowerBound], as: UTF8.self), radix: 16)
                else { return nil }
                let next = lineEnd.upperBound + size + 2
                guard next <= buffer.count else { return nil }
                if size == 0 { return next }
                offset = next
            }
            return nil
        }
        let length =
            head.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        return headEnd + length <= buffer.count ? headEnd + length : nil
    }
}
