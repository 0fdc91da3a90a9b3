// Catalog: archives and documents.

extension SniffedType {
    /// gzip (canonical "application/gzip", RFC 6713; WHATWG says application/x-gzip).
    public static let gzip = SniffedType("application/gzip", .archive)
    /// Zip of no more specific kind.
    public static let zip = SniffedType("application/zip", .archive)
    /// RAR 4 and RAR 5 (canonical "application/vnd.rar", IANA; WHATWG says application/x-rar-compressed).
    public static let rar = SniffedType("application/vnd.rar", .archive)
    /// 7-Zip.
    public static let sevenZip = SniffedType("application/x-7z-compressed", .archive)
    /// bzip2.
    public static let bzip2 = SniffedType("application/x-bzip2", .archive)
    /// xz.
    public static let xz = SniffedType("application/x-xz", .archive)
    /// Zstandard.
    public static let zstd = SniffedType("application/zstd", .archive)
    /// POSIX or GNU tar (ustar magic at offset 257 and a valid header checksum).
    public static let tar = SniffedType("application/x-tar", .archive)
    /// Microsoft Cabinet.
    public static let cab = SniffedType("application/vnd.ms-cab-compressed", .archive)
    /// Unix `ar` archive (static libraries).
    public static let arArchive = SniffedType("application/x-archive", .archive)
    /// Debian package.
    public static let deb = SniffedType("application/vnd.debian.binary-package", .archive)
    /// RPM package.
    public static let rpm = SniffedType("application/x-rpm", .archive)

    /// PDF; scriptable, see `isScriptable`.
    public static let pdf = SniffedType("application/pdf", .document)
    /// PostScript and EPS.
    public static let postScript = SniffedType("application/postscript", .document)
    /// Rich Text Format.
    public static let rtf = SniffedType("application/rtf", .document)
    /// Compound File Binary (OLE2) whose kind the window does not tell.
    public static let oleStorage = SniffedType("application/x-ole-storage", .document)
    /// Word 97-2003 (CFB).
    public static let msWord = SniffedType("application/msword", .document)
    /// Excel 97-2003 (CFB).
    public static let msExcel = SniffedType("application/vnd.ms-excel", .document)
    /// PowerPoint 97-2003 (CFB).
    public static let msPowerPoint = SniffedType("application/vnd.ms-powerpoint", .document)
    /// Outlook message (CFB).
    public static let msOutlook = SniffedType("application/vnd.ms-outlook", .document)
    /// Word (OOXML).
    public static let docx = SniffedType(
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        .document
    )
    /// Excel (OOXML).
    public static let xlsx = SniffedType("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", .document)
    /// PowerPoint (OOXML).
    public static let pptx = SniffedType(
        "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        .document
    )
    /// EPUB (zip whose first entry is `mimetype`).
    public static let epub = SniffedType("application/epub+zip", .document)
    /// ODF text.
    public static let odt = SniffedType("application/vnd.oasis.opendocument.text", .document)
    /// ODF text template.
    public static let ott = SniffedType("application/vnd.oasis.opendocument.text-template", .document)
    /// ODF master document.
    public static let odm = SniffedType("application/vnd.oasis.opendocument.text-master", .document)
    /// ODF spreadsheet.
    public static let ods = SniffedType("application/vnd.oasis.opendocument.spreadsheet", .document)
    /// ODF spreadsheet template.
    public static let ots = SniffedType("application/vnd.oasis.opendocument.spreadsheet-template", .document)
    /// ODF presentation.
    public static let odp = SniffedType("application/vnd.oasis.opendocument.presentation", .document)
    /// ODF presentation template.
    public static let otp = SniffedType("application/vnd.oasis.opendocument.presentation-template", .document)
    /// ODF drawing.
    public static let odg = SniffedType("application/vnd.oasis.opendocument.graphics", .document)
    /// ODF drawing template.
    public static let otg = SniffedType("application/vnd.oasis.opendocument.graphics-template", .document)
    /// ODF formula.
    public static let odf = SniffedType("application/vnd.oasis.opendocument.formula", .document)
    /// ODF chart.
    public static let odc = SniffedType("application/vnd.oasis.opendocument.chart", .document)
    /// ODF database.
    public static let odb = SniffedType("application/vnd.oasis.opendocument.base", .document)

    /// Every archive type.
    public static let archives: [SniffedType] = [
        .gzip, .zip, .rar, .sevenZip, .bzip2, .xz, .zstd, .tar, .cab, .arArchive, .deb, .rpm,
    ]
    /// Every document type.
    public static let documents: [SniffedType] =
        [
            .pdf, .postScript, .rtf, .oleStorage, .msWord, .msExcel, .msPowerPoint, .msOutlook,
            .docx, .xlsx, .pptx, .epub,
        ] + openDocumentTypes
    /// The ODF types, recognised from the `mimetype` first entry of the zip.
    public static let openDocumentTypes: [SniffedType] = [
        .odt, .ott, .odm, .ods, .ots, .odp, .otp, .odg, .otg, .odf, .odc, .odb,
    ]
}
