import Glibc
import Testing

@testable import ProxyEngine

/// A global the test writes: its page is private and dirty, so no mapping holding it may be advised.
nonisolated(unsafe) private var writtenGlobal = [UInt8](repeating: 1, count: 16)

/// Serialized: two tests call `StartupPages.release()`, which drops the resident pages of every read-only file mapping
/// of the process, the other test's own mapping included; run together, one saw its pages gone before it measured
/// them ("resident 0 KiB before", a fresh-clone CI run).
@Suite(.serialized) struct StartupPagesTests {
    /// The mappings chosen are read-only file mappings: one holds libc's code, none holds the heap, the stack or a
    /// written global.
    @Test func choosesCodeAndNeverWritableMemory() {
        let ranges = StartupPages.readOnlyFileMappings()
        #expect(!ranges.isEmpty)
        func chosen(_ address: UInt) -> Bool { ranges.contains { $0.start <= address && address < $0.end } }

        let code = UInt(bitPattern: dlsym(nil, "strlen"))
        #expect(code != 0 && chosen(code), "libc's strlen lies in no chosen mapping")

        writtenGlobal[0] = 2
        let heap = UInt(bitPattern: malloc(64))
        defer { free(UnsafeMutableRawPointer(bitPattern: heap)) }
        var local = 0
        let stack = withUnsafeMutablePointer(to: &local) { UInt(bitPattern: $0) }
        let global = writtenGlobal.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        let globalStorage = withUnsafePointer(to: &writtenGlobal) { UInt(bitPattern: $0) }
        for address in [heap, stack, global, globalStorage] {
            #expect(!chosen(address), "writable address \(String(address, radix: 16)) in a chosen mapping")
        }
    }

    /// After `release()` a chosen mapping holds none of the pages it held, and the code the chosen mappings hold
    /// still runs. Measured on a mapping of the test's own, which no other test touches: the libraries' and the
    /// executable's pages come back as soon as the tests running in parallel use them.
    @Test func releaseDropsResidentPagesOfTheChosenMappings() throws {
        try withPrivateFileMapping(pages: 16) { mapped, page in
            let bytes = mapped.assumingMemoryBound(to: UInt8.self)
            for index in 0..<16 { #expect(bytes[index * page] == 0x41) }  // every page read, none written
            #expect(mprotect(mapped, 16 * page, PROT_READ) == 0)
            let base = UInt(bitPattern: mapped)
            let range = [(start: base, end: base + UInt(16 * page))]
            #expect(StartupPages.readOnlyFileMappings().contains { $0.start == base })
            let before = residentKiB(of: range)
            #expect(StartupPages.release() > 0)
            let after = residentKiB(of: range)
            #expect(before >= 16 * page / 1024 && after == 0, "resident \(before) KiB before, \(after) KiB after")
            #expect(bytes[15 * page] == 0x41)
        }
        #expect(strlen("still runs") == 10)
    }

    /// The executable's sections are found where they lie in memory: `.text` holds a function of the test binary,
    /// `.rodata` a string literal of it; an unknown name gives nil.
    @Test func findsTheExecutablesSections() throws {
        let function: @convention(c) () -> Int32 = { 7 }
        let code = UInt(bitPattern: unsafeBitCast(function, to: UnsafeRawPointer.self))
        let text = try #require(ExecutableSection.range(named: ".text"))
        #expect(text.start <= code && code < text.end)
        let literal: StaticString = "a constant of the test binary"
        let constant = UInt(bitPattern: literal.utf8Start)
        let rodata = try #require(ExecutableSection.range(named: ".rodata"))
        #expect(rodata.start <= constant && constant < rodata.end)
        #expect(ExecutableSection.range(named: ".no-such-section") == nil)
        #expect(ExecutableSection.range(named: ".text", executable: "/nonexistent") == nil)
    }

    /// In a private, writable file mapping only the resident pages never written are chosen: the pages read are,
    /// the page written (copied on write) is not. Advising the chosen pages keeps the written byte and re-reads the
    /// file for the others.
    @Test func choosesOnlyUnwrittenResidentPagesOfAWritableMapping() throws {
        try withPrivateFileMapping(pages: 4) { mapped, page in
            let bytes = mapped.assumingMemoryBound(to: UInt8.self)
            #expect(bytes[0] == 0x41)  // page 0 read
            bytes[page] = 0x42  // page 1 written
            #expect(bytes[3 * page] == 0x41)  // page 3 read; page 2 untouched
            let base = UInt(bitPattern: mapped)
            let runs = StartupPages.unwrittenFilePages((base, base + UInt(4 * page)))
            let chosen = Set(runs.flatMap { Int($0.start - base) / page..<Int($0.end - base) / page })
            // Page 2 may be chosen too: the kernel maps neighbouring file pages around a fault (fault-around).
            #expect(chosen.contains(0) && chosen.contains(3) && !chosen.contains(1), "chosen pages \(chosen.sorted())")
            #expect(chosen.isSubset(of: 0..<4))
            for run in runs {
                let start = UnsafeMutableRawPointer(bitPattern: run.start)
                #expect(madvise(start, Int(run.end - run.start), MADV_DONTNEED) == 0)
            }
            #expect(bytes[page] == 0x42)
            #expect(bytes[0] == 0x41 && bytes[3 * page] == 0x41)
        }
    }

    /// A read-only file mapping holding a written page (as RELRO does: relocated, then made read-only) is among
    /// the chosen mappings, yet `release()` keeps the written page and drops only the file pages.
    @Test func releaseKeepsTheWrittenPagesOfAReadOnlyMapping() throws {
        try withPrivateFileMapping(pages: 2) { mapped, page in
            let bytes = mapped.assumingMemoryBound(to: UInt8.self)
            bytes[0] = 0x52  // page 0 written ("relocated")
            #expect(bytes[page] == 0x41)  // page 1 read
            #expect(mprotect(mapped, 2 * page, PROT_READ) == 0)
            let base = UInt(bitPattern: mapped)
            #expect(StartupPages.readOnlyFileMappings().contains { $0.start <= base && base < $0.end })
            #expect(StartupPages.release() > 0)
            #expect(bytes[0] == 0x52 && bytes[page] == 0x41)
        }
    }

    /// Runs `body` with a private, writable mapping of a temporary file of `pages` pages of 0x41 (the file is
    /// deleted and the mapping removed after).
    private func withPrivateFileMapping(
        pages: Int, _ body: (UnsafeMutableRawPointer, Int) throws -> Void
    ) throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var template = Array("/tmp/partgate-pages-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        try #require(fd >= 0)
        defer {
            close(fd)
            unlink(template)
        }
        let contents = [UInt8](repeating: 0x41, count: pages * page)
        #expect(write(fd, contents, contents.count) == contents.count)
        let mapped = try #require(mmap(nil, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0))
        try #require(mapped != MAP_FAILED)
        defer { munmap(mapped, pages * page) }
        try body(mapped, page)
    }

    /// After first use a worker releases at its 1st, 2nd, 4th, … 4,096th exchange and never again.
    @Test func releasesAfterFirstUseAtPowersOfTwo() {
        let counts = (0...20_000).filter(StartupPages.releases(after:))
        #expect(counts == (0...12).map { 1 << $0 })
    }

    /// The `Rss:` of the given mappings in /proc/self/smaps, summed.
    private func residentKiB(of ranges: [(start: UInt, end: UInt)]) -> Int {
        guard let file = fopen("/proc/self/smaps", "r") else { return -1 }
        defer { fclose(file) }
        let starts = Set(ranges.map(\.start))
        var counting = false
        var total = 0
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let dash = text.firstIndex(of: "-"), let start = UInt(text[..<dash], radix: 16) {
                counting = starts.contains(start)
            } else if counting, text.hasPrefix("Rss:") {
                total += Int(text.dropFirst(4).trimmingPrefix(while: { $0 == " " }).prefix { $0.isNumber }) ?? 0
            }
        }
        return total
    }
}
