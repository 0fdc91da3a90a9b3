import Glibc
import Testing

@testable import ProxyEngine

/// A global the test writes: its page is private and dirty, so no mapping holding it may be advised.
nonisolated(unsafe) private var writtenGlobal = [UInt8](repeating: 1, count: 16)

@Suite struct StartupPagesTests {
    /// The mappings chosen are read-only file mappings: one holds this process's code (the address of a
    /// function of the test binary), none holds the heap, the stack or a written global.
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

    /// After `release()` the chosen mappings hold fewer resident pages than before (only those touched since),
    /// and the code they hold still runs.
    @Test func releaseDropsResidentPagesOfTheChosenMappings() {
        let before = residentKiB(of: StartupPages.readOnlyFileMappings())
        let advised = StartupPages.release()
        let after = residentKiB(of: StartupPages.readOnlyFileMappings())
        #expect(advised > 0)
        #expect(after < before, "resident \(before) KiB before, \(after) KiB after")
        #expect(strlen("still runs") == 10)
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
