import Foundation

/// A blocking HTTP/1.1 client over a POSIX socket: sends raw bytes, reads responses (Content-Length or
/// close-delimited, chunked decoded), for loopback tests. Every read waits at most `timeout`.
public final class TestHTTPClient {
    public let descriptor: Int32

    public struct Response {
        public var status: Int
        public var headers: [(String, String)]
        public var body: [UInt8]
        public func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
        public var json: [String: Any]? { try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] }
        /// The body as UTF-8 text.
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Whether the server closed the connection: a read returned end of stream or a reset (not a timeout).
    public private(set) var peerClosed = false

    /// Connects to `host:port`.
    /// - Parameter timeout: the longest any single read waits (SO_RCVTIMEO).
    /// - Throws: `ECONNREFUSED` when the connection fails.
    public init(port: UInt16, host: String = "127.0.0.1", timeout: Int = 20) throws {
        // The descriptor is stored only once connected: a class that throws after all its properties are set
        // still runs `deinit`, which closed a refused connection's descriptor a second time. By then another
        // thread of the test process could own that number (an in-process upstream's accepted connection: libevent
        // logged "Epoll ADD ... Bad file descriptor" and a CI run got 502 for it).
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    public func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return }
            offset += written
        }
    }

    public func send(_ text: String) { send(Array(text.utf8)) }

    /// Ends the request stream (the server reads EOF) while responses can still be read.
    public func shutdownWrite() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    private var buffer: [UInt8] = []

    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else {
            if count == 0 || errno == ECONNRESET { peerClosed = true }
            return false
        }
        buffer += chunk[0..<count]
        return true
    }

    /// Reads one interim (1xx) response head, such as `100 Continue`, and returns its status; nil when the
    /// next response is a final one (left unread) or the connection closed first.
    public func readInterimResponse() -> Int? {
        readInterimHead()?.status
    }

    /// Reads one interim (1xx) response head and returns its status and its fields (names lowercased, in order);
    /// nil when the next response is a final one (left unread) or the connection closed first.
    public func readInterimHead() -> (status: Int, fields: [(name: String, value: String)])? {
        while true {
            if let end = buffer.firstRange(of: Array("\r\n\r\n".utf8)) {
                let lines = String(decoding: buffer[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
                let words = lines[0].split(separator: " ")
                guard words.count > 1, let status = Int(words[1]), (100..<200).contains(status) else { return nil }
                buffer.removeSubrange(..<end.upperBound)
                let fields = lines.dropFirst().map { line in
                    let colon = line.firstIndex(of: ":") ?? line.endIndex
                    let value = colon == line.endIndex ? "" : line[line.index(after: colon)...]
                    return (
                        name: line[..<colon].lowercased(), value: value.trimmingCharacters(in: .whitespaces)
                    )
                }
                return (status, fields)
            }
            guard fill() else { return nil }
        }
    }

    /// Reads one final response (interim ones are skipped); nil when the connection closed (or the read
    /// timed out) first.
    /// - Parameter method: the request's method; a response to `HEAD` has no body whatever its framing says.
    public func readResponse(method: String = "GET") -> Response? {
        while true {
            if let end = buffer.firstRange(of: Array("\r\n\r\n".utf8)) {
                let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
                buffer.removeSubrange(..<end.upperBound)
                var lines = head.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst().split(separator: " ")
                let status = statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0
                let headers = lines.map { line -> (String, String) in
                    guard let colon = line.firstIndex(of: ":") else { return (line, "") }
                    return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
                }
                if status >= 100 && status < 200 { continue }
                var response = Response(status: status, headers: headers, body: [])
                if method == "HEAD" {
                    return response
                } else if let length = response.header("content-length").flatMap(Int.init) {
                    while buffer.count < length { guard fill() else { return nil } }
                    response.body = Array(buffer[0..<length])
                    buffer.removeSubrange(0..<length)
                } else if response.header("transfer-encoding")?.lowercased() == "chunked" {
                    while true {
                        while buffer.firstRange(of: Array("\r\n".utf8)) == nil { guard fill() else { return nil } }
                        let lineEnd = buffer.firstRange(of: Array("\r\n".utf8))!
                        let size = Int(String(decoding: buffer[..<lineEnd.lowerBound], as: UTF8.self), radix: 16) ?? 0
                        buffer.removeSubrange(..<lineEnd.upperBound)
                        while buffer.count < size + 2 { guard fill() else { return nil } }
                        response.body += buffer[0..<size]
                        buffer.removeSubrange(0..<(size + 2))
                        if size == 0 { break }
                    }
                } else if status != 204 && status != 304 {
                    while fill() {}
                    response.body = buffer
                    buffer = []
                }
                return response
            }
            guard fill() else { return nil }
        }
    }

    /// Every byte not read yet, up to the server's close (or a read timeout).
    public func readToClose() -> [UInt8] {
        while fill() {}
        defer { buffer = [] }
        return buffer
    }

    /// True once the server closed the connection (after everything buffered was read); false when a
    /// read timed out instead.
    public func isClosedByPeer() -> Bool {
        buffer.isEmpty && !fill() && peerClosed
    }
}
