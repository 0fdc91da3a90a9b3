import Foundation

/// What `partgate rewrite` printed, read back independently of partgate's own parsers: a request (what goes
/// upstream) or a response (the problem answer), with its body de-chunked.
struct PrintedMessage {
    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    /// `POST /upload HTTP/1.1` or `HTTP/1.1 415 Unsupported Media Type`.
    var startLine: String
    var fields: [(name: String, value: String)]
    /// The head's bytes through the blank line.
    var head: [UInt8]
    /// The body, de-chunked when the head says chunked.
    var body: [UInt8]
    /// The chunk sizes, in order (the last chunk's 0 included); nil for a Content-Length body.
    var chunkSizes: [Int]?

    /// Reads one message that must fill `bytes` exactly.
    init(_ bytes: [UInt8]) throws {
        guard let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { throw Malformed(description: "no head") }
        head = Array(bytes[..<end.upperBound])
        var lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        startLine = lines.removeFirst()
        fields = try lines.map { line in
            guard let colon = line.firstIndex(of: ":") else { throw Malformed(description: "field line \(line)") }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let rest = Array(bytes[end.upperBound...])
        body = []
        if fields.contains(where: { $0.name.lowercased() == "transfer-encoding" }) {
            var sizes: [Int] = []
            var offset = 0
            while true {
                guard let lineEnd = rest[offset...].firstRange(of: Array("\r\n".utf8)),
                    let size = Int(String(decoding: rest[offset..<lineEnd.lowerBound], as: UTF8.self), radix: 16)
                else { throw Malformed(description: "chunk size line at \(offset)") }
                sizes.append(size)
                offset = lineEnd.upperBound
                if size == 0 { break }
                guard offset + size + 2 <= rest.count,
                    rest[(offset + size)..<(offset + size + 2)].elementsEqual([13, 10])
                else { throw Malformed(description: "chunk of \(size) at \(offset)") }
                body += rest[offset..<(offset + size)]
                offset += size + 2
            }
            guard rest[offset...].elementsEqual([13, 10]) else {
                throw Malformed(description: "bytes after the last chunk")
            }
            chunkSizes = sizes
        } else {
            let length = field("content-length").flatMap(Int.init) ?? 0
            guard rest.count == length else {
                throw Malformed(description: "\(rest.count) body bytes, length \(length)")
            }
            body = rest
        }
    }

    func field(_ name: String) -> String? {
        fields.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The status of a response.
    var status: Int? { startLine.hasPrefix("HTTP/1.1 ") ? Int(startLine.split(separator: " ")[1]) : nil }

    /// The body as a JSON object (problem answers).
    var json: [String: Any]? { try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] }

    /// The boundary the Content-Type announces.
    var boundary: String? {
        field("content-type")?.components(separatedBy: "boundary=").last
    }

    /// The parts of a canonical multipart body (partgate's output form: CRLF lines, no preamble or epilogue).
    func parts() throws -> [FormPart] {
        guard let boundary else { throw Malformed(description: "no boundary") }
        let opening = Array("--\(boundary)\r\n".utf8)
        let close = Array("--\(boundary)--\r\n".utf8)
        if body == close { return [] }
        guard body.starts(with: opening), body.suffix(close.count + 2).elementsEqual([13, 10] + close) else {
            throw Malformed(description: "not a canonical body")
        }
        let inner = Array(body[opening.count..<(body.count - close.count - 2)])
        return try inner.pieces(splitAt: Array("\r\n--\(boundary)\r\n".utf8)).map { raw in
            guard let end = raw.firstRange(of: Array("\r\n\r\n".utf8)) else {
                throw Malformed(description: "part head")
            }
            let lines = String(decoding: raw[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
            var part = FormPart("", Array(raw[end.upperBound...]))
            for line in lines {
                if line.hasPrefix("Content-Disposition: form-data; name=\"") {
                    let quoted = line.components(separatedBy: "\"")
                    part.name = quoted[1]
                    if quoted.count > 3 { part.filename = quoted[3] }
                } else if line.hasPrefix("Content-Type: ") {
                    part.type = String(line.dropFirst("Content-Type: ".count))
                } else {
                    throw Malformed(description: "part header \(line)")
                }
            }
            return part
        }
    }
}

extension Array where Element == UInt8 {
    /// Splits at every occurrence of `separator` (which must not be empty).
    func pieces(splitAt separator: [UInt8]) -> [[UInt8]] {
        var pieces: [[UInt8]] = []
        var start = 0
        var index = 0
        while index + separator.count <= count {
            if self[index..<(index + separator.count)].elementsEqual(separator) {
                pieces.append(Array(self[start..<index]))
                index += separator.count
                start = index
            } else {
                index += 1
            }
        }
        pieces.append(Array(self[start...]))
        return pieces
    }
}
