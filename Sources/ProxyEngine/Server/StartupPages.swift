#if canImport(Glibc)
import Glibc
#endif

/// Hands the kernel back the clean, read-only file pages that only start-up touched.
///
/// A Swift executable maps Foundation, ICU and the Swift runtime; start-up (argument parsing, YAML,
/// Foundation's initialisers) touches ~15 MiB of their code and read-only data, which then stays in the
/// process's RSS although serving never uses it again. These pages are clean copies of files (the kernel can
/// drop and re-read them at any time), so dropping them from the page tables of the read-only file mappings after
/// start-up costs nothing but a few minor faults for the pages serving does touch, and makes RSS show the
/// serving working set. Writable and anonymous memory is never touched.
public enum StartupPages {
    /// Drops the page-table entries of read-only file mappings that hold no private (copied-on-write) pages:
    /// code and read-only data, which the kernel re-reads from the page cache on the next touch. Mappings
    /// with anonymous pages (RELRO: relocated data made read-only) are left alone, as is anything writable.
    ///
    /// Call it last, once start-up is over: code that runs after it faults its pages back in, and with the
    /// page cache's large folios a single touch maps 64–512 KiB of text. For the same reason the mappings are
    /// all found first and advised in one tight loop at the end (parsing smaps after the first advice re-touched
    /// ~4 MiB of string and regex code).
    /// - Returns: the bytes advised (for the log).
    @discardableResult
    public static func release() -> Int {
        let ranges = readOnlyFileMappings()
        var advised = 0
        for range in ranges
        where madvise(UnsafeMutableRawPointer(bitPattern: range.start), Int(range.end - range.start), MADV_DONTNEED) == 0 {
            advised += Int(range.end - range.start)
        }
        return advised
    }

    /// The read-only, private file mappings without anonymous pages, from `/proc/self/smaps`.
    static func readOnlyFileMappings() -> [(start: UInt, end: UInt)] {
        guard let file = fopen("/proc/self/smaps", "r") else { return [] }
        defer { fclose(file) }
        var ranges: [(start: UInt, end: UInt)] = []
        ranges.reserveCapacity(64)
        var candidate: (start: UInt, end: UInt)?
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let fields = text.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), fields.count >= 6, fields[1].count == 4 {
                candidate = nil
                guard !fields[1].contains("w"), fields[1].hasSuffix("p"), fields[5].hasPrefix("/"),
                    let dash = first.firstIndex(of: "-"),
                    let start = UInt(first[..<dash], radix: 16),
                    let end = UInt(first[first.index(after: dash)...], radix: 16), end > start
                else { continue }
                candidate = (start, end)
            } else if fields.first == "Anonymous:", let range = candidate {
                candidate = nil
                if fields.count >= 2, fields[1] == "0" { ranges.append(range) }
            }
        }
        return ranges
    }
}
