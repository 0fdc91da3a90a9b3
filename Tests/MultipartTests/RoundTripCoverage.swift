import Multipart

/// What the random forms of a round-trip run contained, so that a generator that stopped producing the
/// hard cases makes the property fail instead of passing vacuously.
struct RoundTripCoverage {
    var emptyForms = 0
    var largestPartCount = 0
    var largestPart = 0
    var quotedBoundaries = 0
    var shortBoundaries = 0
    var fourByteNames = 0
    var emptyFilenames = 0
    var contentTypes = 0
    var keptHeaders = 0
    /// Parts whose data holds the delimiter minus its last byte (the longest look-alike).
    var nearDelimiters = 0
    var byteByByteFeedings = 0

    mutating func record(_ parts: [FormPart], boundary: Boundary) {
        if parts.isEmpty { emptyForms += 1 }
        largestPartCount = max(largestPartCount, parts.count)
        if !boundary.isToken { quotedBoundaries += 1 }
        if boundary.bytes.count <= 3 { shortBoundaries += 1 }
        let nearDelimiter = Array([13, 10] + Array("--".utf8) + boundary.bytes.dropLast())
        for part in parts {
            largestPart = max(largestPart, part.data.count)
            if part.head.name.unicodeScalars.contains(where: { $0.value > 0xFFFF }) { fourByteNames += 1 }
            if part.head.filename == "" { emptyFilenames += 1 }
            if part.head.contentType != nil { contentTypes += 1 }
            if !part.head.headers.isEmpty { keptHeaders += 1 }
            if !ByteSearch.occurrences(of: nearDelimiter, in: part.data).isEmpty { nearDelimiters += 1 }
        }
    }

    /// nil if every hard case came up, else which did not.
    var shortfall: String? {
        let checks: [(String, Bool)] = [
            ("empty forms", emptyForms > 0), ("a form of 100+ parts", largestPartCount >= 100),
            ("a part of 100+ KiB", largestPart >= 100 * 1024), ("quoted boundaries", quotedBoundaries > 0),
            ("1-3 byte boundaries", shortBoundaries > 0), ("names with 4-byte UTF-8", fourByteNames > 0),
            ("empty filenames", emptyFilenames > 0), ("content types", contentTypes > 0),
            ("kept headers", keptHeaders > 0), ("near-delimiters in data", nearDelimiters > 0),
            ("byte-by-byte feedings", byteByByteFeedings > 0),
        ]
        let missing = checks.filter { !$0.1 }.map(\.0)
        return missing.isEmpty ? nil : "no \(missing.joined(separator: ", ")) in \(self)"
    }
}
