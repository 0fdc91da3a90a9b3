#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Hands the kernel back the clean, read-only file pages that only start-up and first use touched.
///
/// A Swift executable maps Foundation, ICU and the Swift runtime; start-up (argument parsing, YAML,
/// Foundation's initialisers) touches ~15 MiB of their code and read-only data, which then stays in the
/// process's RSS although serving never uses it again. These pages are clean copies of files (the kernel can
/// drop and re-read them at any time), so dropping them from the page tables of the read-only file mappings after
/// start-up costs nothing but a few minor faults for the pages serving does touch, and makes RSS show the
/// serving working set. Anonymous memory and written pages are never touched; of the writable mappings, only the
/// executable's constant data (`.rodata`) is considered.
///
/// First use has the same kind of pages: the first exchanges instantiate the Swift runtime's generic metadata
/// (demangling names, scanning conformance records), run OpenSSL's first handshake and certificate verification,
/// and so on, once. `partgate serve` therefore releases again after each worker's 1st, 2nd, 4th, … 4,096th
/// completed exchange (``exchangesCompleted(_:)``); a 1 GiB upload after the first held 14.4 MiB without this and
/// 9.7–10.1 MiB with it (docs/memory.md).
public enum StartupPages {
    private static let releasingAfterFirstUse = Atomic<Bool>(false)

    /// The last exchange count after which a worker releases (``exchangesCompleted(_:)``).
    static let lastReleaseAfter = 4096

    /// Turns on the releases after first use (`partgate serve` does, after its start-up release).
    public static func releaseAfterFirstUse() {
        releasingAfterFirstUse.store(true, ordering: .relaxed)
    }

    /// Whether a worker that has completed `count` exchanges releases now: at powers of two up to
    /// ``lastReleaseAfter``, so a handful of times in a worker's life, the later ones rarely finding much.
    static func releases(after count: Int) -> Bool {
        count > 0 && count & (count - 1) == 0 && count <= lastReleaseAfter
    }

    /// A worker completed its `count`th exchange: releases when ``releases(after:)`` says so and serve turned it on.
    @inline(__always)
    static func exchangesCompleted(_ count: Int) {
        guard releases(after: count), releasingAfterFirstUse.load(ordering: .relaxed) else { return }
        release()
    }

    /// Drops the page-table entries of the clean file pages of read-only file mappings: code and read-only data,
    /// which the kernel re-reads from the page cache on the next touch. Only pages that are still copies of their
    /// file are chosen (``unwrittenFilePages(_:into:pagemap:)``): a page written (relocated data made read-only
    /// afterwards, RELRO) is anonymous and kept, as is every writable mapping but the executable's `.rodata`,
    /// which one of the statically linked Swift libraries marks writable and which nothing writes.
    ///
    /// Code run after the advice faults its pages back in, and with the page cache's large folios a single touch
    /// maps 64–512 KiB of text. So the pages are all found first, with byte-level reads of `/proc/self/maps` and
    /// `/proc/self/pagemap` (no string code: parsing smaps with `String` once re-touched ~4 MiB of string and
    /// regex code, which also raised the peak each later release), and advised in one tight loop at the end.
    /// Without `/proc/self/pagemap` nothing is advised.
    /// - Returns: the bytes advised (for the log).
    @discardableResult
    public static func release() -> Int {
        let pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)
        guard pagemap >= 0 else { return 0 }
        defer { close(pagemap) }
        var runs: [(start: UInt, end: UInt)] = []
        runs.reserveCapacity(1024)
        for mapping in readOnlyFileMappings() { unwrittenFilePages(mapping, into: &runs, pagemap: pagemap) }
        if let constants = constantData { unwrittenFilePages(constants, into: &runs, pagemap: pagemap) }
        var advised = 0
        for run in runs
        where madvise(UnsafeMutableRawPointer(bitPattern: run.start), Int(run.end - run.start), MADV_DONTNEED) == 0 {
            advised += Int(run.end - run.start)
        }
        return advised
    }

    /// The executable's `.rodata`, found once.
    private static let constantData = ExecutableSection.range(named: ".rodata")

    /// The runs of whole pages in `range` that are resident copies of their file, never written (a written private
    /// page is anonymous), from `/proc/self/pagemap` (bit 63: present; bit 61: file page). Pages not resident need
    /// no advice; partial pages at the ends are left out.
    static func unwrittenFilePages(_ range: (start: UInt, end: UInt)) -> [(start: UInt, end: UInt)] {
        let pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)
        guard pagemap >= 0 else { return [] }
        defer { close(pagemap) }
        var runs: [(start: UInt, end: UInt)] = []
        unwrittenFilePages(range, into: &runs, pagemap: pagemap)
        return runs
    }

    private static func unwrittenFilePages(
        _ range: (start: UInt, end: UInt), into runs: inout [(start: UInt, end: UInt)], pagemap: Int32
    ) {
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        let first = (range.start + page - 1) / page, last = range.end / page
        guard last > first else { return }
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 4096) { entries in
            var index = first
            while index < last {
                let count = Int(min(UInt(entries.count), last - index))
                guard pread(pagemap, entries.baseAddress, count * 8, off_t(index * 8)) == count * 8 else { return }
                for offset in 0..<count where entries[offset] >> 63 & 1 == 1 && entries[offset] >> 61 & 1 == 1 {
                    let start = (index + UInt(offset)) * page
                    if let lastRun = runs.last, lastRun.end == start {
                        runs[runs.count - 1].end = start + page
                    } else {
                        runs.append((start, start + page))
                    }
                }
                index += UInt(count)
            }
        }
    }

    /// The private file mappings that are not writable (`r--p`, `r-xp`, `---p` …), from `/proc/self/maps`, read
    /// and parsed as bytes.
    static func readOnlyFileMappings() -> [(start: UInt, end: UInt)] {
        let fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var text = [UInt8](repeating: 0, count: 64 * 1024)
        var length = 0
        while true {
            if length == text.count { text += [UInt8](repeating: 0, count: text.count) }
            let got = text.withUnsafeMutableBytes { read(fd, $0.baseAddress! + length, $0.count - length) }
            guard got > 0 else { break }
            length += got
        }
        var mappings: [(start: UInt, end: UInt)] = []
        mappings.reserveCapacity(128)
        var line = 0
        while line < length {
            var end = line
            while end < length, text[end] != UInt8(ascii: "\n") { end += 1 }
            if let mapping = readOnlyFileMapping(text[line..<end]) { mappings.append(mapping) }
            line = end + 1
        }
        return mappings
    }

    /// One line of `/proc/self/maps`: `start-end perms offset dev inode [path]`; the range when the mapping is
    /// private, not writable and of a file (its path starts with `/`).
    private static func readOnlyFileMapping(_ line: ArraySlice<UInt8>) -> (start: UInt, end: UInt)? {
        var index = line.startIndex
        func hex() -> UInt? {
            var value: UInt = 0, digits = 0
            while index < line.endIndex {
                let byte = line[index]
                let digit: UInt
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt(byte - UInt8(ascii: "a") + 10)
                default: return digits > 0 && digits <= 16 ? value : nil
                }
                value = value << 4 | digit
                digits += 1
                index += 1
            }
            return nil
        }
        guard let start = hex(), index < line.endIndex, line[index] == UInt8(ascii: "-") else { return nil }
        index += 1
        guard let end = hex(), end > start, line.endIndex - index >= 5, line[index] == UInt8(ascii: " ") else {
            return nil
        }
        let permissions = line[(index + 1)..<(index + 5)]
        guard permissions[permissions.startIndex + 1] != UInt8(ascii: "w"),
            permissions[permissions.startIndex + 3] == UInt8(ascii: "p"),
            line[(index + 5)...].contains(UInt8(ascii: "/"))
        else { return nil }
        return (start, end)
    }
}
