import Sniff

/// One part of a test body.
struct FormPart: Sendable {
    var name: String
    var filename: String?
    var contentType: String?
    var headers: [(String, String)] = []
    var data: [UInt8]

    init(
        _ name: String, filename: String? = nil, type contentType: String? = nil, headers: [(String, String)] = [],
        _ data: [UInt8]
    ) {
        self.name = name
        self.filename = filename
        self.contentType = contentType
        self.headers = headers
        self.data = data
    }

    init(_ name: String, filename: String? = nil, type contentType: String? = nil, text: String) {
        self.init(name, filename: filename, type: contentType, Array(text.utf8))
    }
}

/// A body built from parts, with where each part's data lies (for cut points).
struct FormBody: Sendable {
    static let boundary = "policy-test-7Fq2xZ"

    var bytes: [UInt8]
    /// Offsets of each part's data start and end.
    var dataRanges: [Range<Int>]

    init(_ parts: [FormPart]) {
        var out: [UInt8] = []
        var ranges: [Range<Int>] = []
        for part in parts {
            var head = "--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\""
            if let filename = part.filename { head += "; filename=\"\(filename)\"" }
            head += "\r\n"
            if let type = part.contentType { head += "Content-Type: \(type)\r\n" }
            for (name, value) in part.headers { head += "\(name): \(value)\r\n" }
            head += "\r\n"
            out += Array(head.utf8)
            ranges.append(out.count..<(out.count + part.data.count))
            out += part.data
            out += Array("\r\n".utf8)
        }
        out += Array("--\(Self.boundary)--\r\n".utf8)
        bytes = out
        dataRanges = ranges
    }

    /// Where to cut the body in two: every offset of a small body; for a large one, the offsets around each part's
    /// data edges and sniff-window edge plus a spread of others.
    var cutPoints: [Int] {
        guard bytes.count > 1200 else { return Array(0...bytes.count) }
        var cuts = Set<Int>()
        for range in dataRanges {
            for edge in [range.lowerBound, range.upperBound, range.lowerBound + sniffWindowSize] {
                for delta in -3...3 where (0...bytes.count).contains(edge + delta) { cuts.insert(edge + delta) }
            }
        }
        for cut in stride(from: 0, through: bytes.count, by: max(1, bytes.count / 150)) { cuts.insert(cut) }
        return cuts.sorted()
    }
}
