#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte comparisons and searches that stay fast in debug builds (the generic `==` on `[UInt8]` does not).
enum ByteSearch {
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { x in b.withUnsafeBytes { y in a.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, a.count) == 0 } }
    }

    /// The start of every occurrence of `pattern` in `data`, overlapping ones included.
    static func occurrences(of pattern: [UInt8], in data: [UInt8]) -> [Int] {
        guard !pattern.isEmpty, data.count >= pattern.count else { return [] }
        var found: [Int] = []
        data.withUnsafeBytes { haystack in
            pattern.withUnsafeBytes { needle in
                let base = haystack.baseAddress!
                var start = 0
                while start + pattern.count <= data.count,
                    let hit = memchr(base + start, Int32(pattern[0]), data.count - start - pattern.count + 1)
                {
                    let at = UnsafeRawPointer(hit) - base
                    if memcmp(hit, needle.baseAddress!, pattern.count) == 0 { found.append(at) }
                    start = at + 1
                }
            }
        }
        return found
    }
}
