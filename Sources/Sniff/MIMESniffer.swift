/// Detects the type of a resource from its first `sniffWindowSize` bytes.
///
/// The rules are the WHATWG MIME Sniffing "unknown type" algorithm (with the font table, which WHATWG leaves
/// out of it) extended with what an upload policy needs: executables (PE, ELF, Mach-O, Java, wasm), scripts
/// (`#!`, PHP), SVG and XHTML (found by walking the XML prolog to the root element), AVIF/HEIC/HEIF (ISO-BMFF
/// brands), zip-based formats (OOXML, ODF, EPUB, JAR, APK), CFB-based formats (legacy Office, MSI) and more
/// archives (tar, 7z, bzip2, xz, zstd, cab, ar/deb, RPM). The rule order, first match wins:
///
/// 1. an empty complete resource is `text/plain` ("empty");
/// 2. tar (a header may begin with any file name);
/// 3. executables: ELF, Mach-O, Java class, PE/MZ, wasm;
/// 4. markup after whitespace and an optional UTF-8 BOM: PHP, then SVG/XHTML/HTML by root element, then the
///    WHATWG HTML tag table, then `<?xml`;
/// 5. PDF, PostScript, RTF; 6. byte order marks (`text/plain`); 7. AMR and `#!` scripts;
/// 8. images; 9. audio and video; 10. fonts; 11. archives and other binary formats;
/// 12. `text/plain` when no binary data byte occurs, else `application/octet-stream`.
///
/// Where a WHATWG pattern is a short tag that also starts ordinary text ("BM", "OTTO", "ID3", ".snd", "wOFF",
/// "MZ"), the rule also checks a binary header field, so text is not misread as a binary format.
///
/// The sniffer reads at most `sniffWindowSize` bytes, allocates nothing, and runs in time linear in the window.
public enum MIMESniffer {
    /// Sniffs the leading bytes of a resource.
    /// - Parameters:
    ///   - bytes: the first bytes of the resource; only the first `sniffWindowSize` are read.
    ///   - complete: true when `bytes` is the whole resource (the part ended before the window filled).
    ///     A rule whose signature needs bytes past the end of a complete resource does not match, and the
    ///     result is final. With `complete: false`, the result is final only if the window is full or no
    ///     rule depended on a missing byte.
    /// - Returns: the detected type, the rule that decided, and whether more bytes could change it.
    public static func sniff(_ bytes: UnsafeRawBufferPointer, complete: Bool) -> SniffResult {
        var scanner = SniffScanner(bytes, complete: complete)
        return scanner.run()
    }

    /// Sniffs the leading bytes of a resource held in any collection of bytes (`[UInt8]`, `ArraySlice`, ...).
    ///
    /// Contiguous collections are read in place; others have their first `sniffWindowSize` bytes copied once.
    /// - Parameters:
    ///   - bytes: the first bytes of the resource; only the first `sniffWindowSize` are read.
    ///   - complete: true when `bytes` is the whole resource.
    /// - Returns: the detected type, the rule that decided, and whether more bytes could change it.
    public static func sniff(_ bytes: some Collection<UInt8>, complete: Bool) -> SniffResult {
        if let result = bytes.withContiguousStorageIfAvailable({ sniff(UnsafeRawBufferPointer($0), complete: complete) }
        ) {
            return result
        }
        let window = Array(bytes.prefix(sniffWindowSize))
        let resourceEnds = complete && bytes.dropFirst(sniffWindowSize).isEmpty
        return window.withUnsafeBytes { sniff($0, complete: resourceEnds) }
    }
}
