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

    /// Each sensitive name's skeleton length, first and last byte as one key (``key(_:_:_:)``), in the order of
    /// ``sensitive``: most names are ruled out on these integers alone, without touching the nested arrays (each
    /// access to them cost reference counts).
    private static let keys: [UInt32] = sensitive.map { key($0.skeleton.count, $0.skeleton.first!, $0.skeleton.last!) }

    @inline(__always)
    private static func key(_ count: Int, _ first: UInt8, _ last: UInt8) -> UInt32 {
        UInt32(count) << 16 | UInt32(first) << 8 | UInt32(last)
    }

    /// The longest skeleton (`transferencoding`): a name with more letters and digits imitates none.
    private static let longestSkeleton = 16

    /// The first field whose name looks like a sensitive field without being spelled as one.
    static func first(in head: RequestHead) -> String? {
        for index in head.fields.indices where head.fields.withNameBytes(at: index, isLookalike) {
            return head.fields[index].name
        }
        return nil
    }

    /// Whether `name` looks like a sensitive field name without being one.
    static func isLookalike(_ name: String) -> Bool {
        var name = name
        return name.withUTF8(isLookalike)
    }

    /// Byte comparisons only, and no allocation: runs for every field of every request. The skeleton's
    /// length, first and last bytes pick the candidates; most names match none and stop there.
    static func isLookalike(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var count = 0
        var first: UInt8 = 0
        var last: UInt8 = 0
        for raw in bytes {
            let byte = lowercased(raw)
            guard isAlphanumeric(byte) else { continue }
            if count == 0 { first = byte }
            last = byte
            count += 1
            if count > longestSkeleton { return false }
        }
        let wanted = key(count, first, last)
        for (index, candidateKey) in keys.enumerated() where candidateKey == wanted {
            let candidate = sensitive[index]
            if bytes.count == candidate.name.count, candidate.name.withUnsafeBufferPointer({ name in
                for index in 0..<name.count where lowercased(bytes[index]) != name[index] { return false }
                return true
            }) {
                return false  // the name itself, in any case
            }
            var skeletonIndex = 0
            var matches = true
            for raw in bytes {
                let byte = lowercased(raw)
                guard isAlphanumeric(byte) else { continue }
                if candidate.skeleton[skeletonIndex] != byte {
                    matches = false
                    break
                }
                skeletonIndex += 1
            }
            if matches { return true }
        }
        return false
    }

    @inline(__always)
    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte | (byte >= 0x41 && byte <= 0x5A ? 0x20 : 0)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
    }
}
