import HTTP1

/// Field names that are not, but could be read as, a field that decides framing or semantics:
/// `Content_-Type`, `content_type`, `ContentType`, `Transfer_Encoding`. Some stacks fold `_` into `-` or
/// drop punctuation when they map headers (CGI-style environments, some frameworks), so a backend could
/// read a multipart body partgate never parsed (the WAFFLED header-name corruption family). nginx drops
/// `_` headers by default for the same reason; partgate refuses the request (400 `ambiguous_header_name`).
enum HeaderLookalike {
    /// The sensitive names, lowercased, and their letters-and-digits skeletons.
    private static let sensitive: [(name: [UInt8], skeleton: [UInt8])] = [
        "host", "content-type", "content-length", "transfer-encoding", "connection", "expect", "upgrade",
        "te", "trailer", "keep-alive", "proxy-connection",
    ].map { name in (Array(name.utf8), Array(name.utf8).filter(isAlphanumeric)) }

    /// The first field whose name looks like a sensitive field without being spelled as one.
    static func first(in head: RequestHead) -> String? {
        for field in head.fields where isLookalike(field.name) {
            return field.name
        }
        return nil
    }

    /// Byte comparisons only: runs for every field of every request.
    static func isLookalike(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            for candidate in sensitive {
                var skeletonIndex = 0
                var exact = bytes.count == candidate.name.count
                var matches = true
                for (position, raw) in bytes.enumerated() {
                    let byte = raw | (raw >= 0x41 && raw <= 0x5A ? 0x20 : 0)
                    if exact && byte != candidate.name[position] { exact = false }
                    guard isAlphanumeric(byte) else { continue }
                    guard skeletonIndex < candidate.skeleton.count, candidate.skeleton[skeletonIndex] == byte else {
                        matches = false
                        break
                    }
                    skeletonIndex += 1
                }
                if matches && skeletonIndex == candidate.skeleton.count && !exact { return true }
            }
            return false
        }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
    }
}
