// Rules for native and managed executables, and for `#!` scripts.

extension SniffScanner {
    private static let elfMagic: [UInt8] = [0x7F, 0x45, 0x4C, 0x46]
    /// Thin Mach-O (32/64-bit, big/little endian) and the 64-bit fat header; `CAFEBABE` is handled apart.
    private static let machOMagics: [[UInt8]] = [
        [0xFE, 0xED, 0xFA, 0xCE], [0xFE, 0xED, 0xFA, 0xCF], [0xCE, 0xFA, 0xED, 0xFE], [0xCF, 0xFA, 0xED, 0xFE],
        [0xCA, 0xFE, 0xBA, 0xBF],
    ]
    private static let cafeBabe: [UInt8] = [0xCA, 0xFE, 0xBA, 0xBE]
    private static let peSignature: [UInt8] = [0x50, 0x45, 0x00, 0x00]
    /// `\0asm` followed by binary format version 1.
    private static let wasmMagic: [UInt8] = [0x00, 0x61, 0x73, 0x6D, 0x01, 0x00, 0x00, 0x00]
    /// Java class files start at major version 45 (JDK 1.0/1.1).
    private static let firstJavaMajorVersion = 45

    /// ELF, Mach-O, Java class, PE/MZ and WebAssembly.
    mutating func matchExecutable() -> Match? {
        if matches(Self.elfMagic, at: 0) { return (.elf, "elf") }
        for magic in Self.machOMagics where matches(magic, at: 0) { return (.machO, "macho") }
        if matches(Self.cafeBabe, at: 0), let match = matchFatMachOOrJavaClass() { return match }
        if let match = matchWindowsExecutable() { return match }
        if matches(Self.wasmMagic, at: 0) { return (.wasm, "wasm") }
        return nil
    }

    /// `CAFEBABE` opens both a fat Mach-O and a Java class file. The next 32 bits are the architecture count
    /// in a fat header (small) but the minor and major version in a class file (major >= 45).
    private mutating func matchFatMachOOrJavaClass() -> Match? {
        guard let field = uint32BE(4) else { return nil }
        if field > 0 && field < Self.firstJavaMajorVersion { return (.machO, "macho-fat") }
        if let major = uint16BE(6), major >= Self.firstJavaMajorVersion { return (.javaClass, "java-class") }
        return nil
    }

    /// `MZ` followed by a PE header where `e_lfanew` points ("pe"), or by a DOS header holding binary fields
    /// ("mz": DOS, NE and LE executables, and PE files whose header lies past the window). Both are reported as
    /// `application/x-msdownload`, erring towards blocking. `MZ` followed by text only is left to later rules, so
    /// a text file that happens to start with "MZ" is not called an executable.
    private mutating func matchWindowsExecutable() -> Match? {
        guard matches("MZ", at: 0) else { return nil }
        if let headerOffset = uint32LE(0x3C), headerOffset >= 2, matches(Self.peSignature, at: headerOffset) {
            return (.windowsExecutable, "pe")
        }
        if containsBinaryDataByte(in: 2..<64) == true { return (.windowsExecutable, "mz") }
        return nil
    }

    /// AMR (`#!AMR`) and `#!` scripts, typed by interpreter: python, perl, ruby, node/deno/bun, php; any other
    /// interpreter (sh, bash, zsh, ...) is reported as `text/x-shellscript`.
    mutating func matchShebang() -> Match? {
        if matches("#!AMR-WB\n", at: 0) { return (.amrWB, "amr-wb") }
        if matches("#!AMR\n", at: 0) { return (.amr, "amr") }
        guard matches("#!", at: 0) else { return nil }
        guard var command = nextToken(from: 2) else { return (.shellScript, "shebang") }
        if tokenBasename(command, equals: "env") {
            // `#!/usr/bin/env [-S] [-i] [NAME=value ...] interpreter`: skip options and assignments.
            while let next = nextToken(from: command.upperBound) {
                command = next
                if bytes[next.lowerBound] != UInt8(ascii: "-") && !token(next, contains: UInt8(ascii: "=")) { break }
            }
        }
        return (interpreterType(command), "shebang")
    }

    /// The script type for an interpreter path token.
    private mutating func interpreterType(_ command: Range<Int>) -> SniffedType {
        if tokenBasename(command, hasPrefix: "python") { return .python }
        if tokenBasename(command, hasPrefix: "perl") { return .perl }
        if tokenBasename(command, hasPrefix: "ruby") { return .ruby }
        if tokenBasename(command, hasPrefix: "node") || tokenBasename(command, equals: "deno")
            || tokenBasename(command, equals: "bun")
        {
            return .javaScript
        }
        if tokenBasename(command, hasPrefix: "php") { return .php }
        return .shellScript
    }

    /// The next run of bytes on the first line, after spaces and tabs; nil at the end of the line or window.
    private mutating func nextToken(from offset: Int) -> Range<Int>? {
        var start = offset
        while let value = byte(start), value == 0x20 || value == 0x09 { start += 1 }
        var end = start
        while let value = byte(end), value != 0x20, value != 0x09, value != 0x0A, value != 0x0D { end += 1 }
        return end > start ? start..<end : nil
    }

    /// Whether a token (inside the window) contains `value`.
    private func token(_ token: Range<Int>, contains value: UInt8) -> Bool {
        token.contains { bytes[$0] == value }
    }

    /// The part of a path token after its last `/`.
    private func basename(_ token: Range<Int>) -> Range<Int> {
        var start = token.upperBound
        while start > token.lowerBound && bytes[start - 1] != UInt8(ascii: "/") { start -= 1 }
        return start..<token.upperBound
    }

    /// Whether the basename of a token begins with `prefix`.
    private func tokenBasename(_ token: Range<Int>, hasPrefix prefix: StaticString) -> Bool {
        let name = basename(token)
        return prefix.withUTF8Buffer { text in
            text.count <= name.count && text.indices.allSatisfy { bytes[name.lowerBound + $0] == text[$0] }
        }
    }

    /// Whether the basename of a token is exactly `text`.
    private func tokenBasename(_ token: Range<Int>, equals text: StaticString) -> Bool {
        basename(token).count == text.utf8CodeUnitCount && tokenBasename(token, hasPrefix: text)
    }
}
