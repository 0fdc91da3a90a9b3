/// A multipart/form-data body in partgate's canonical form, split by a reader written for the tests: the
/// body must start with the first delimiter and end with the close delimiter and a CRLF (no preamble, no
/// epilogue), and every part has a Content-Disposition.
struct CanonicalForm: Equatable {
    struct Part: Equatable {
        var name: String
        var filename: String?
        /// Header fields other than Content-Disposition, in order (Content-Type included).
        var headers: [String]
        var data: [UInt8]

        /// The value of the `Content-Type` header.
        var contentType: String? {
            headers.first { $0.lowercased().hasPrefix("content-type: ") }.map { String($0.dropFirst(14)) }
        }
    }

    var parts: [Part]

    /// Reads `body` with the boundary of `contentType`; nil when it is not canonical.
    init?(_ body: [UInt8], contentType: String?) {
        guard let contentType, contentType.hasPrefix("multipart/form-data; boundary=") else { return nil }
        let boundary = Array(contentType.dropFirst("multipart/form-data; boundary=".count).utf8)
        let first = [45, 45] + boundary + [13, 10]
        let close = [13, 10, 45, 45] + boundary + [45, 45, 13, 10]
        guard body.starts(with: first), body.count >= first.count + close.count - 2 else { return nil }
        if body == [45, 45] + boundary + [45, 45, 13, 10] {  // no parts at all
            parts = []
            return
        }
        guard body.suffix(close.count).elementsEqual(close) else { return nil }
        let inner = Array(body[first.count..<(body.count - close.count)])
        let separator = [13, 10, 45, 45] + boundary + [13, 10]
        var pieces: [[UInt8]] = []
        var start = 0
        while let found = ChunkedBody.find(separator, in: inner, from: start) {
            pieces.append(Array(inner[start..<found]))
            start = found + separator.count
        }
        pieces.append(Array(inner[start...]))
        var parts: [Part] = []
        for piece in pieces {
            guard let end = ChunkedBody.find([13, 10, 13, 10], in: piece, from: 0) else { return nil }
            let lines = String(decoding: piece[..<end], as: UTF8.self).components(separatedBy: "\r\n")
            guard let disposition = lines.first, disposition.hasPrefix("Content-Disposition: form-data; name=\"")
            else { return nil }
            guard let name = Self.quoted("name", in: disposition) else { return nil }
            parts.append(
                Part(
                    name: name, filename: Self.quoted("filename", in: disposition), headers: Array(lines.dropFirst()),
                    data: Array(piece[(end + 4)...])))
        }
        self.parts = parts
    }

    /// The quoted value of `parameter` in a Content-Disposition line (canonical output never escapes).
    static func quoted(_ parameter: String, in line: String) -> String? {
        guard let range = line.range(of: "; \(parameter)=\"") else { return nil }
        let rest = line[range.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }
}
