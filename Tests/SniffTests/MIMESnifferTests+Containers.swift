import Sniff
import Testing

/// PE vs MZ, Mach-O vs Java, ISO-BMFF brands, zip-based and CFB-based formats.
extension MIMESnifferTests {
    @Test func peVersusPlainMZ() {
        #expect(sniff(SignatureCase.peExecutable).signature == "pe")
        // e_lfanew pointing past the end of a complete file: still an MZ executable.
        var truncated = SignatureCase.peExecutable.prefix(0x80)
        truncated.append(contentsOf: [0x50, 0x45])
        #expect(sniff(Array(truncated)) == SniffResult(type: .windowsExecutable, signature: "mz", isFinal: true))
        // While the PE header may still arrive, the answer is an executable either way but not yet final.
        let pending = sniff(Array(SignatureCase.peExecutable.prefix(0x70)), complete: false)
        #expect(pending.type == .windowsExecutable)
        #expect(!pending.isFinal)
        // "MZ" at the start of plain text is text.
        #expect(
            sniff(Fixture.ascii("MZ is the postal code of nothing in particular, nor a DOS header.\n")).type
                == .plainText
        )
    }

    @Test func machOFatVersusJavaClass() {
        func cafeBabe(_ next: [UInt8]) -> SniffResult { sniff([0xCA, 0xFE, 0xBA, 0xBE] + next + [0, 0, 0, 0]) }
        #expect(cafeBabe([0, 0, 0, 1]).type == .machO)
        #expect(cafeBabe([0, 0, 0, 44]).type == .machO, "44 architectures is still a fat count")
        #expect(cafeBabe([0, 0, 0, 45]).type == .javaClass, "JDK 1.1 class")
        #expect(cafeBabe([0, 0, 0, 69]).type == .javaClass, "Java 25 class")
        #expect(cafeBabe([0xFF, 0xFF, 0, 65]).type == .javaClass, "preview-feature class (minor 0xFFFF)")
        #expect(cafeBabe([0, 3, 0, 2]).type == .octetStream, "neither a small count nor a class version")
        #expect(cafeBabe([0, 0, 0, 0]).type == .octetStream)
        #expect(sniff([0xCA, 0xFE, 0xBA, 0xBE, 0, 0], complete: true).type == .octetStream)
    }

    @Test func isoBaseMediaBrands() {
        typealias F = Fixture
        #expect(sniff(F.ftyp("mp42", ["mp42", "mif1", "heic"])).type == .mp4, "an MP4 major brand keeps video")
        #expect(sniff(F.ftyp("crx ", ["crx ", "isom"])).type == .mp4, "unknown major, ISO compatible")
        #expect(sniff(F.ftyp("crx ", ["crx "])).type == .octetStream, "no known brand at all")
        #expect(sniff(F.ftyp("msf1", ["msf1", "heic"])).type == .heic)
        // Box size must be a multiple of 4 and at least 16.
        var odd = F.ftyp("isom", ["isom"])
        odd[3] = 21
        #expect(sniff(odd).type == .octetStream)
        // A box larger than a complete resource is malformed (WHATWG); in an incomplete window the brands
        // seen so far count, and the answer stays provisional.
        let box = F.be32(64) + F.ascii("ftypmif1") + F.be32(0) + F.ascii("mif1avif")
        #expect(sniff(box, complete: true).type == .octetStream)
        let partial = sniff(box, complete: false)
        #expect(partial.type == .avif)
        #expect(!partial.isFinal)
    }

    @Test func packageZipsAreTypedByTheirMimetypeEntry() {
        typealias F = Fixture
        for type in SniffedType.openDocumentTypes + [.epub] {
            let zip = F.zipEntry("mimetype", F.ascii(type.mimeType), method: 0) + F.zipEntry("content.xml", [1, 2])
            #expect(sniff(zip).type == type)
        }
        let deflated = F.zipEntry("mimetype", F.ascii("application/vnd.oasis.opendocument.text"), method: 8)
        #expect(sniff(deflated).type == .zip, "ODF requires the mimetype entry to be stored")
        let unknown = F.zipEntry("mimetype", F.ascii("application/x-evil"), method: 0)
        #expect(sniff(unknown).type == .zip, "only catalog types are taken from the file")
        let cut = Array(
            F.zipEntry("mimetype", F.ascii("application/vnd.oasis.opendocument.text"), method: 0).prefix(50)
        )
        #expect(sniff(cut, complete: false).type == .zip)
        #expect(!sniff(cut, complete: false).isFinal)
    }

    @Test func officeOpenXMLAndJavaZipsAreTypedByEntryNames() {
        typealias F = Fixture
        let contentTypes = F.zipEntry("[Content_Types].xml", [UInt8](repeating: 0x42, count: 300))
        let rels = F.zipEntry("_rels/.rels", [UInt8](repeating: 0x43, count: 200))
        #expect(sniff(contentTypes + rels + F.zipEntry("word/document.xml")).type == .docx)
        #expect(sniff(contentTypes + rels + F.zipEntry("xl/workbook.xml")).type == .xlsx)
        #expect(sniff(contentTypes + rels + F.zipEntry("ppt/presentation.xml")).type == .pptx)
        #expect(sniff(contentTypes + rels + F.zipEntry("docProps/app.xml")).type == .zip)
        #expect(sniff(contentTypes + F.zipEntry("wordy/x.xml")).type == .zip)
        // Sizes after the data (flag bit 3): the walk cannot find the next header.
        let streamed =
            F.zipEntry("[Content_Types].xml", [1, 2, 3], dataDescriptor: true) + F.zipEntry("word/document.xml")
        #expect(sniff(streamed) == SniffResult(type: .zip, signature: "zip", isFinal: true))
        // A signed APK lists META-INF first; the Android entry decides once it is in the window.
        let signedAPK = F.zipEntry("META-INF/MANIFEST.MF", [7, 7]) + F.zipEntry("AndroidManifest.xml", [8])
        #expect(sniff(signedAPK).type == .apk)
        #expect(sniff(Array(signedAPK.prefix(60)), complete: true).type == .jar)
        let pending = sniff(Array(signedAPK.prefix(60)), complete: false)
        #expect(pending.type == .jar)
        #expect(!pending.isFinal)
    }

    @Test func compoundFilesAreTypedWhenTheDirectoryIsInTheWindow() {
        typealias F = Fixture
        #expect(sniff(F.compoundFile(rootCLSID: SignatureCase.msiCLSID)).type == .msi)
        #expect(sniff(F.compoundFile(rootCLSID: SignatureCase.wordCLSID)).type == .msWord)
        #expect(sniff(F.compoundFile(streams: ["Book"])).type == .msExcel)
        #expect(sniff(F.compoundFile(streams: ["WordDocumentX"])).type == .oleStorage)
        // Directory sector 2 starts at 1536, past the window.
        let far = F.compoundFile(rootCLSID: SignatureCase.msiCLSID, directorySector: 2)
        #expect(sniff(far) == SniffResult(type: .oleStorage, signature: "cfb", isFinal: true))
    }
}
