import Sniff

extension SignatureCase {
    /// The MSI root CLSID {000C1084-0000-0000-C000-000000000046} in on-disk order.
    static let msiCLSID: [UInt8] = [0x84, 0x10, 0x0C, 0x00, 0x00, 0x00, 0x00, 0x00, 0xC0, 0, 0, 0, 0, 0, 0, 0x46]
    /// The Word root CLSID {00020906-0000-0000-C000-000000000046} in on-disk order.
    static let wordCLSID: [UInt8] = [0x06, 0x09, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0xC0, 0, 0, 0, 0, 0, 0, 0x46]

    /// A 64-bit PE: DOS header with `e_lfanew` = 0x80, DOS stub, `PE\0\0` and a COFF header.
    static let peExecutable: [UInt8] = {
        typealias F = Fixture
        var dosHeader = F.ascii("MZ") + [0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0xFF, 0xFF]
        dosHeader = F.padded(dosHeader, to: 0x3C) + F.le32(0x80)
        let stub = F.padded(F.ascii("\u{0E}\u{1F}This program cannot be run in DOS mode.\r\r\n$"), to: 0x40)
        return dosHeader + stub + F.ascii("PE\0\0") + F.le16(0x8664) + F.le16(6) + F.le32(0x5F5E_1000)
    }()

    static let archives: [SignatureCase] = {
        typealias F = Fixture
        return [
            .init("gzip", [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0x03, 0x4B, 0x4C], .gzip, "gzip"),
            .init("zip", F.zipEntry("notes/readme.txt", F.ascii("compressed")), .zip, "zip"),
            .init("empty zip", [0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18), .octetStream, "binary"),
            .init("RAR 4", F.ascii("Rar!") + [0x1A, 0x07, 0x00, 0xCF, 0x90, 0x73, 0x00, 0x00, 0x0D], .rar, "rar"),
            .init(
                "RAR 5",
                F.ascii("Rar!") + [0x1A, 0x07, 0x01, 0x00, 0x33, 0x92, 0xB5, 0xE5, 0x0A, 0x01],
                .rar,
                "rar"
            ),
            .init("7z", [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C, 0x00, 0x04, 0x8D, 0x9B], .sevenZip, "7z"),
            .init("bzip2", F.ascii("BZh9") + [0x31, 0x41, 0x59, 0x26, 0x53, 0x59, 0x4E, 0xEC], .bzip2, "bzip2"),
            .init("empty bzip2", F.ascii("BZh9") + [0x17, 0x72, 0x45, 0x38, 0x50, 0x90, 0, 0, 0, 0], .bzip2, "bzip2"),
            .init("xz", [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0x00, 0x04, 0xE6, 0xD6, 0xB4, 0x46], .xz, "xz"),
            .init("zstd", [0x28, 0xB5, 0x2F, 0xFD, 0x24, 0x0B, 0x59, 0x00], .zstd, "zstd"),
            .init("cab", F.ascii("MSCF") + F.le32(0) + F.le32(1234) + F.le32(0) + F.le32(44), .cab, "cab"),
            .init(
                "ar",
                F.ascii("!<arch>\nlibfoo.o/       0           0     0     644     1024      `\n"),
                .arArchive,
                "ar"
            ),
            .init(
                "deb",
                F.ascii("!<arch>\ndebian-binary   1342943816  0     0     100644  4         `\n2.0\n"),
                .deb,
                "deb"
            ),
            .init(
                "RPM",
                [0xED, 0xAB, 0xEE, 0xDB, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01] + F.ascii("hello-1.0"),
                .rpm,
                "rpm"
            ),
            .init(
                "tar (POSIX)",
                F.tarHeader(name: "hello.txt") + F.padded(F.ascii("hello tar\n"), to: 512),
                .tar,
                "tar"
            ),
            .init("tar (GNU)", F.tarHeader(name: "dir/", gnu: true), .tar, "tar"),
            .init("CFB without a known CLSID", F.compoundFile(), .oleStorage, "cfb"),
            .init(
                "CFB Word by CLSID",
                F.compoundFile(rootCLSID: wordCLSID, streams: ["WordDocument"]),
                .msWord,
                "cfb-clsid"
            ),
            .init("CFB Excel by stream name", F.compoundFile(streams: ["Workbook"]), .msExcel, "cfb-stream"),
            .init(
                "CFB PowerPoint by stream name",
                F.compoundFile(streams: ["Pictures", "PowerPoint Document"]),
                .msPowerPoint,
                "cfb-stream"
            ),
            .init(
                "CFB Outlook by stream name",
                F.compoundFile(streams: ["__substg1.0_0037001F"]),
                .msOutlook,
                "cfb-stream"
            ),
            .init("MSI", F.compoundFile(rootCLSID: msiCLSID, directorySector: 1), .msi, "cfb-clsid"),
            .init(
                "SQLite",
                F.ascii("SQLite format 3\0") + [0x10, 0x00, 0x01, 0x01, 0x00, 0x40, 0x20, 0x20],
                .sqlite,
                "sqlite"
            ),
            .init(
                "ODT",
                F.zipEntry("mimetype", F.ascii("application/vnd.oasis.opendocument.text"), method: 0),
                .odt,
                "zip-odf"
            ),
            .init("EPUB", F.zipEntry("mimetype", F.ascii("application/epub+zip"), method: 0), .epub, "zip-epub"),
            .init(
                "DOCX",
                F.zipEntry("[Content_Types].xml", F.ascii("xx")) + F.zipEntry("word/document.xml"),
                .docx,
                "zip-ooxml"
            ),
        ]
    }()

    static let executables: [SignatureCase] = {
        typealias F = Fixture
        return [
            .init(
                "ELF",
                [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0] + [UInt8](repeating: 0, count: 8) + F.le16(3),
                .elf,
                "elf"
            ),
            .init("Mach-O 32 BE", [0xFE, 0xED, 0xFA, 0xCE, 0, 0, 0, 0x12], .machO, "macho"),
            .init("Mach-O 64 BE", [0xFE, 0xED, 0xFA, 0xCF, 0, 0, 0, 0x12], .machO, "macho"),
            .init("Mach-O 32 LE", [0xCE, 0xFA, 0xED, 0xFE, 7, 0, 0, 0], .machO, "macho"),
            .init("Mach-O 64 LE", [0xCF, 0xFA, 0xED, 0xFE, 7, 0, 0, 1, 3, 0, 0, 0], .machO, "macho"),
            .init("Mach-O fat64", [0xCA, 0xFE, 0xBA, 0xBF, 0, 0, 0, 2], .machO, "macho"),
            .init("Mach-O fat", [0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 2, 0x01, 0, 0, 7, 0, 0, 0, 3], .machO, "macho-fat"),
            .init(
                "Java class",
                [0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 0x34, 0, 0x1D, 0x0A, 0, 6],
                .javaClass,
                "java-class"
            ),
            .init("PE", peExecutable, .windowsExecutable, "pe"),
            .init(
                "MZ without PE",
                F.ascii("MZ") + F.le16(0x1E) + F.le16(1) + F.le16(0) + F.le16(2) + F.padded([], to: 56),
                .windowsExecutable,
                "mz"
            ),
            .init("WebAssembly", [0x00, 0x61, 0x73, 0x6D, 0x01, 0x00, 0x00, 0x00, 0x01, 0x05], .wasm, "wasm"),
            .init("SWF", F.ascii("FWS") + [0x0A] + F.le32(0x120) + [0x78, 0x00, 0x05], .flash, "swf"),
            .init("SWF zlib", F.ascii("CWS") + [0x20] + F.le32(0x4000) + [0x78, 0x9C], .flash, "swf"),
            .init("SWF LZMA", F.ascii("ZWS") + [0x0D] + F.le32(0x4000) + F.le32(0x100), .flash, "swf"),
            .init(
                "JAR",
                F.zipEntry("META-INF/", method: 0) + F.zipEntry("META-INF/MANIFEST.MF", F.ascii("Manifest")),
                .jar,
                "zip-jar"
            ),
            .init(
                "APK",
                F.zipEntry("AndroidManifest.xml", F.ascii("bin")) + F.zipEntry("classes.dex"),
                .apk,
                "zip-apk"
            ),
        ]
    }()
}
