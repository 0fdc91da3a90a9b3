#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte-sequence helpers for the invariants (memchr + memcmp: the checks must not dominate a fuzz run).
public enum ByteSearch {
    /// The index of the first occurrence of `needle` in `haystack`, or nil.
    public static func firstRange(of needle: [UInt8], in haystack: UnsafeRawBufferPointer) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, let base = haystack.baseAddress else { return nil }
        return needle.withUnsafeBytes { needle in
            let last = haystack.count - needle.count
            var index = 0
            while index <= last {
                guard let hit = memchr(base + index, Int32(needle[0]), last - index + 1) else { return nil }
                let at = UnsafeRawPointer(hit) - base
                if memcmp(base + at, needle.baseAddress!, needle.count) == 0 { return at }
                index = at + 1
            }
            return nil
        }
    }

    /// The index of the first occurrence of `needle` in `haystack`, or nil.
    public static func firstRange(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        haystack.withUnsafeBytes { firstRange(of: needle, in: $0) }
    }

    /// True if `bytes` at `offset` begins with `prefix`.
    public static func hasPrefix(_ prefix: [UInt8], in bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        guard offset >= 0, offset + prefix.count <= bytes.count else { return false }
        return equal(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + prefix.count)]), prefix)
    }

    /// True if two byte runs are equal.
    public static func equal(_ a: UnsafeRawBufferPointer, _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !b.isEmpty else { return true }
        return b.withUnsafeBytes { memcmp(a.baseAddress!, $0.baseAddress!, a.count) == 0 }
    }

    /// True if two byte runs are equal.
    public static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
    }
}
