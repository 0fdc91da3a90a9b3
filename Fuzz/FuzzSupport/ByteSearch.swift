/// Byte-sequence helpers for the invariants.
public enum ByteSearch {
    /// The index of the first occurrence of `needle` in `haystack`, or nil.
    public static func firstRange(of needle: [UInt8], in haystack: some RandomAccessCollection<UInt8>) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        let bytes = Array(haystack)
        let first = needle[0]
        var index = 0
        while index + needle.count <= bytes.count {
            if bytes[index] == first, bytes[index..<(index + needle.count)].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }

    /// True if `bytes` at `offset` begins with `prefix`.
    public static func hasPrefix(_ prefix: [UInt8], in bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        guard offset >= 0, offset + prefix.count <= bytes.count else { return false }
        return bytes[offset..<(offset + prefix.count)].elementsEqual(prefix)
    }
}
