// Rule for Compound File Binary (OLE2) files: Word, Excel, PowerPoint, Outlook and MSI, when the first
// directory sector lies inside the window.

extension SniffScanner {
    /// Header fields (MS-CFB 2.2): sector shift and first directory sector.
    private static let sectorShiftField = 30
    private static let firstDirectorySectorField = 48
    /// Directory entry layout (MS-CFB 2.6): 128 bytes; name length at 0x40; CLSID at 0x50.
    private static let directoryEntrySize = 128
    private static let entryNameLengthField = 0x40
    private static let entryCLSIDField = 0x50
    /// Sector numbers from 0xFFFFFFFA up are markers, not sectors.
    private static let maximumSectorNumber = 0xFFFF_FFF9
    /// Root storage CLSIDs, in their on-disk (mixed-endian GUID) byte order.
    private static let rootCLSIDs: [(clsid: [UInt8], type: SniffedType)] = [
        // {00020906-0000-0000-C000-000000000046} Word document
        ([0x06, 0x09, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0xC0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46], .msWord),
        // {00020820-0000-0000-C000-000000000046} Excel 97+ workbook
        ([0x20, 0x08, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0xC0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46], .msExcel),
        // {00020810-0000-0000-C000-000000000046} Excel 5 workbook
        ([0x10, 0x08, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0xC0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46], .msExcel),
        // {64818D10-4F9B-11CF-86EA-00AA00B929E8} PowerPoint presentation
        (
            [0x10, 0x8D, 0x81, 0x64, 0x9B, 0x4F, 0xCF, 0x11, 0x86, 0xEA, 0x00, 0xAA, 0x00, 0xB9, 0x29, 0xE8],
            .msPowerPoint
        ),
        // {000C1084-0000-0000-C000-000000000046} Windows Installer package
        ([0x84, 0x10, 0x0C, 0x00, 0x00, 0x00, 0x00, 0x00, 0xC0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46], .msi),
        // {00020D0B-0000-0000-C000-000000000046} Outlook message
        ([0x0B, 0x0D, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0xC0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46], .msOutlook),
    ]
    /// Stream names that identify the application when the root CLSID is not set.
    private static let streamNames: [(name: StaticString, type: SniffedType)] = [
        ("WordDocument", .msWord), ("Workbook", .msExcel), ("Book", .msExcel),
        ("PowerPoint Document", .msPowerPoint),
    ]

    /// A CFB file, refined by the root entry's CLSID or by stream names in the first directory sector.
    mutating func matchCompoundFile() -> Match {
        guard let shift = uint16LE(Self.sectorShiftField), shift == 9 || shift == 12,
            let firstSector = uint32LE(Self.firstDirectorySectorField), firstSector <= Self.maximumSectorNumber
        else { return (.oleStorage, "cfb") }
        let sectorSize = 1 << shift
        let directory = (firstSector + 1) * sectorSize  // sector n starts after the one-sector header
        for (clsid, type) in Self.rootCLSIDs where matches(clsid, at: directory + Self.entryCLSIDField) {
            return (type, "cfb-clsid")
        }
        var entry = directory
        while entry < directory + sectorSize, let nameLength = uint16LE(entry + Self.entryNameLengthField) {
            for (name, type) in Self.streamNames where nameLength == (name.utf8CodeUnitCount + 1) * 2 {
                if matchesUTF16LE(name, at: entry) { return (type, "cfb-stream") }
            }
            if matchesUTF16LE("__substg1.0_", at: entry) { return (.msOutlook, "cfb-stream") }
            entry += Self.directoryEntrySize
        }
        return (.oleStorage, "cfb")
    }

    /// Whether the window holds the ASCII `text` as UTF-16LE at `offset`.
    private mutating func matchesUTF16LE(_ text: StaticString, at offset: Int) -> Bool {
        text.withUTF8Buffer { units in
            for (index, unit) in units.enumerated() {
                guard let low = byte(offset + 2 * index), low == unit, let high = byte(offset + 2 * index + 1),
                    high == 0
                else { return false }
            }
            return true
        }
    }
}
