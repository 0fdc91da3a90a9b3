#if canImport(Glibc)
import Glibc
#endif
import CEventTLS  // getauxval (sys/auxv.h)

/// Where a section of the running executable lies in memory, read from the ELF headers of `/proc/self/exe`.
///
/// Section headers are not loaded with the program, so they are read from the file; the load bias comes from the
/// program headers' address in memory (`AT_PHDR`), which works for position-independent and fixed executables
/// alike.
enum ExecutableSection {
    /// The memory range of the section `name` of the running executable (64-bit little-endian ELF), or nil.
    static func range(named name: String, executable path: String = "/proc/self/exe") -> (start: UInt, end: UInt)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        func read(_ count: Int, at offset: UInt64) -> [UInt8]? {
            guard count > 0, count <= 1 << 24 else { return nil }
            let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
                let got = pread(fd, buffer.baseAddress, count, off_t(offset))
                filled = got == count ? count : 0
            }
            return bytes.isEmpty ? nil : bytes
        }
        guard let header = read(64, at: 0), header[0..<4].elementsEqual([0x7F, 0x45, 0x4C, 0x46]),
            header[4] == 2, header[5] == 1  // ELFCLASS64, little-endian
        else { return nil }
        let phoff = header.load64(32), shoff = header.load64(40)
        let phentsize = Int(header.load16(54)), phnum = Int(header.load16(56))
        let shentsize = Int(header.load16(58)), shnum = Int(header.load16(60)), shstrndx = Int(header.load16(62))
        guard phentsize >= 56, shentsize >= 64, shstrndx < shnum,
            let programHeaders = read(phentsize * phnum, at: phoff),
            let sections = read(shentsize * shnum, at: shoff)
        else { return nil }
        guard let bias = loadBias(programHeaders, entrySize: phentsize, count: phnum, phoff: phoff) else { return nil }
        let names = shstrndx * shentsize
        guard let table = read(Int(sections.load64(names + 32)), at: sections.load64(names + 24)) else { return nil }
        let wanted = Array(name.utf8)
        for index in 0..<shnum {
            let entry = index * shentsize
            let nameOffset = Int(sections.load32(entry))
            guard nameOffset + wanted.count < table.count,
                table[nameOffset..<nameOffset + wanted.count].elementsEqual(wanted),
                table[nameOffset + wanted.count] == 0
            else { continue }
            let address = sections.load64(entry + 16), size = sections.load64(entry + 32)
            guard address != 0, size > 0 else { return nil }  // not loaded
            let start = UInt(bitPattern: bias &+ Int(address))
            return (start, start + UInt(size))
        }
        return nil
    }

    /// Memory address minus link-time address: `AT_PHDR` against the link-time address of the program headers
    /// (found through the loadable segment whose file range holds them).
    private static func loadBias(_ headers: [UInt8], entrySize: Int, count: Int, phoff: UInt64) -> Int? {
        let inMemory = UInt64(getauxval(UInt(AT_PHDR)))
        guard inMemory != 0 else { return nil }
        for index in 0..<count {
            let entry = index * entrySize
            guard headers.load32(entry) == 1 else { continue }  // PT_LOAD
            let offset = headers.load64(entry + 8), address = headers.load64(entry + 16)
            let fileSize = headers.load64(entry + 32)
            if offset <= phoff, phoff < offset + fileSize {
                return Int(bitPattern: UInt(inMemory &- (address &+ (phoff - offset))))
            }
        }
        return nil
    }
}

extension [UInt8] {
    fileprivate func load16(_ at: Int) -> UInt16 { UInt16(self[at]) | UInt16(self[at + 1]) << 8 }
    fileprivate func load32(_ at: Int) -> UInt32 { UInt32(load16(at)) | UInt32(load16(at + 2)) << 16 }
    fileprivate func load64(_ at: Int) -> UInt64 { UInt64(load32(at)) | UInt64(load32(at + 4)) << 32 }
}
