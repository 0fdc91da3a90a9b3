import HTTP1

/// Field names that are not, but could be read as, a field that decides framing or semantics:
/// `Content_-Type`, `content_type`, `ContentType`, `Transfer_Encoding`. Some stacks fold `_` into `-` or
/// drop punctuation when they map headers (CGI-style environments, some frameworks), so a backend could
/// read a multipart body partgate never parsed (the WAFFLED header-name corruption family). nginx drops
/// `_` headers by default for the same reason; partgate refuses the request (400 `ambiguous_header_name`).
enum HeaderLookalike {
    /// The sensitive names, lowercased (letters, digits and `-`).
    private static let names: [StaticString] = [
        "host", "content-type", "content-length", "transfer-encoding", "connection", "expect", "upgrade",
        "te", "trailer", "keep-alive", "proxy-connection",
    ]

    /// Each sensitive name's skeleton (its letters and digits) as one key of its length, first and last byte
    /// (``key(_:_:_:)``), in the order of ``names``: most names are ruled out on these integers alone.
    private static let keys: [UInt32] = names.map { name in
        let skeleton = bytes(of: name).filter(isAlphanumeric)
        return key(skeleton.count, skeleton.first!, skeleton.last!)
    }

    /// Bit `n` is set when some skeleton is `n` bytes long.
    private static let skeletonLengths: UInt32 = keys.reduce(0) { $0 | 1 << ($1 >> 16) }

    @inline(__always)
    private static func key(_ count: Int, _ first: UInt8, _ last: UInt8) -> UInt32 {
        UInt32(count) << 16 | UInt32(first) << 8 | UInt32(last)
    }

    @inline(__always)
    private static func bytes(of name: StaticString) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
    }

    /// The longest skeleton (`transferencoding`): a name with more letters and digits imitates none.
    private static let longestSkeleton = 16

    /// The first field whose name looks like a sensitive field without being spelled as one.
    static func first(in head: RequestHead) -> String? {
        head.fields.firstIndex(whereName: isLookalike).map { head.fields[$0].name }
    }

    /// Whether `name` looks like a sensitive field name without being one.
    static func isLookalike(_ name: String) -> Bool {
        var name = name
        return name.withUTF8(isLookalike)
    }

    /// Byte comparisons only, and no allocation or reference counting: runs for every field of every request.
    /// The skeleton's length, first and last bytes pick the candidates; most names match none and stop there.
    static func isLookalike(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // The names every request carries (Host, Content-Type, Content-Length) are sensitive names spelled right:
        // a word comparison settles them before the skeleton is walked.
        if KnownFieldName.of(bytes) != nil { return false }
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
        guard skeletonLengths & (1 << UInt32(count)) != 0 else { return false }
        let wanted = key(count, first, last)
        return keys.withUnsafeBufferPointer { keys in
            for index in keys.indices where keys[index] == wanted {
                let name = Self.bytes(of: names[index])
                if bytes.count == name.count, zip(bytes, name).allSatisfy({ lowercased($0) == $1 }) {
                    return false  // the name itself, in any case
                }
                if skeletonsMatch(bytes, name) { return true }
            }
            return false
        }
    }

    /// Whether the letters and digits of `bytes` (any case) are those of `name`, in order and no others.
    private static func skeletonsMatch(
        _ bytes: UnsafeBufferPointer<UInt8>, _ name: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        var at = 0
        for raw in bytes {
            let byte = lowercased(raw)
            guard isAlphanumeric(byte) else { continue }
            while at < name.count, !isAlphanumeric(name[at]) { at += 1 }
            guard at < name.count, name[at] == byte else { return false }
            at += 1
        }
        while at < name.count, !isAlphanumeric(name[at]) { at += 1 }
        return at == name.count
    }

    @inline(__always)
    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte | (byte >= 0x41 && byte <= 0x5A ? 0x20 : 0)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
    }
}
