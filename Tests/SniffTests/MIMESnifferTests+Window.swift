import Sniff
import Testing

/// Window truncation, `complete:` semantics and the 1445-byte limit.
extension MIMESnifferTests {
    @Test func truncatedSignatureDoesNotMatch() {
        let png = SignatureCase.images.first { $0.type == .png }!.bytes
        let cut = Array(png.prefix(5))
        // The whole resource is these five bytes: not a PNG; 0x89 is not a binary data byte, so text.
        let whole = sniff(cut, complete: true)
        #expect(whole.type == .plainText)
        #expect(whole.isFinal)
        // Only the start of a longer resource: the same guess, but provisional.
        let start = sniff(cut, complete: false)
        #expect(start.type == .plainText)
        #expect(!start.isFinal)
        // Once the signature is in and every outranking rule is settled (tar needs 263 bytes), it is final.
        let longer = Fixture.padded(png, to: 300)
        #expect(sniff(Array(longer.prefix(8)), complete: false).type == .png)
        #expect(!sniff(Array(longer.prefix(8)), complete: false).isFinal)
        #expect(sniff(Array(longer.prefix(263)), complete: false).isFinal)
    }

    @Test func shortTextAndBinaryDependOnCompleteness() {
        let text = Fixture.ascii("hello\r\n\tworld\u{0C}")
        #expect(sniff(text, complete: true) == SniffResult(type: .plainText, signature: "text", isFinal: true))
        #expect(sniff(text, complete: false) == SniffResult(type: .plainText, signature: "text", isFinal: false))
        // A binary byte decides "binary" for good, but only once the rules that outrank it are settled.
        let binary: [UInt8] = [0x41, 0x00, 0x42]
        #expect(sniff(binary, complete: true) == SniffResult(type: .octetStream, signature: "binary", isFinal: true))
        let pending = sniff(binary, complete: false)
        #expect(pending.type == .octetStream)
        #expect(!pending.isFinal)
        let settled = sniff(Fixture.padded(binary, to: 300, with: 0x41), complete: false)
        #expect(settled == SniffResult(type: .octetStream, signature: "binary", isFinal: true))
    }

    /// An `ftyp` box longer than the bytes so far matches only if the resource runs past the box (or fills the
    /// window), so the answer is provisional until it does or ends. Found by FuzzFileStructure: 336 bytes were
    /// "final" AVIF, the whole 430-byte resource binary. A caller deciding on a final result, as `isFinal`
    /// allows, would have decided on the split; partgate's policy stage waits for a full window or the part's
    /// end, so its decisions were not affected.
    @Test func anFtypBoxPastTheBytesSoFarIsProvisional() {
        let box = [0x00, 0x00, 0x08, 0x00] + Fixture.ascii("ftypavif") + [0, 0, 0, 0] + Fixture.ascii("mif1miaf")
        let resource = Fixture.padded(box, to: 600, with: 0x00)  // a 2,048-byte box in a 600-byte resource
        let start = sniff(Array(resource.prefix(336)), complete: false)
        #expect(start.type == .avif)
        #expect(!start.isFinal, "the resource may end before the box")
        #expect(sniff(resource, complete: true) == SniffResult(type: .octetStream, signature: "binary", isFinal: true))
        // Past the window the box can no longer end in the resource: a full window decides AVIF for good.
        let long = Fixture.padded(box, to: sniffWindowSize + 10, with: 0x00)
        #expect(sniff(long, complete: false) == SniffResult(type: .avif, signature: "ftyp-avif", isFinal: true))
        // A box that ends inside the bytes so far is settled at once.
        let small = [0x00, 0x00, 0x00, 0x18] + Array(box[4...]) + Fixture.ascii("avif")
        let settled = sniff(Fixture.padded(small, to: 300, with: 0x00), complete: false)
        #expect(settled == SniffResult(type: .avif, signature: "ftyp-avif", isFinal: true))
    }

    @Test func secondMP3FrameHeaderIsRequiredUnlessTheResourceIsOneFrame() {
        let frame = Fixture.mp3Frame
        #expect(sniff(frame, complete: true).signature == "mp3-frames", "one whole frame")
        #expect(sniff(Array(frame.prefix(416)), complete: true).type == .octetStream, "a frame cut short")
        let partial = sniff(Array(frame.prefix(200)), complete: false)
        #expect(partial.type != .mpegAudio)
        #expect(!partial.isFinal, "the second header may still come")
        #expect(sniff(frame + [0x00, 0x00, 0x00, 0x00], complete: true).type == .octetStream, "no second header")
        // The largest frame (MPEG-1, 320 kbit/s, 32 kHz, padded) is 1441 bytes: its successor's header ends
        // exactly at the window's end.
        let largest = Fixture.padded([0xFF, 0xFB, 0xEA, 0x64], to: 1441, with: 0x55) + [0xFF, 0xFB, 0xEA, 0x64]
        #expect(largest.count == sniffWindowSize)
        #expect(
            sniff(largest + [0x55], complete: false)
                == SniffResult(type: .mpegAudio, signature: "mp3-frames", isFinal: true)
        )
    }

    @Test func neverLooksPastTheWindow() {
        // Text for 1445 bytes, then a NUL: past the window, so still text, and final.
        let text = [UInt8](repeating: 0x61, count: sniffWindowSize) + [0x00]
        #expect(sniff(text, complete: true) == SniffResult(type: .plainText, signature: "text", isFinal: true))

        // A PE header at e_lfanew = 1442 would need bytes 1442...1445; the last one is outside the window.
        var pe = Fixture.padded(Fixture.ascii("MZ"), to: 0x3C) + Fixture.le32(1442)
        pe = Fixture.padded(pe, to: 1442) + Fixture.ascii("PE\0\0")
        #expect(sniff(pe, complete: true).signature == "mz")
        var fits = Fixture.padded(Fixture.ascii("MZ"), to: 0x3C) + Fixture.le32(1441)
        fits = Fixture.padded(fits, to: 1441) + Fixture.ascii("PE\0\0")
        #expect(sniff(fits, complete: true).signature == "pe")

        // An OOXML entry whose header starts past the window leaves a plain zip.
        let padding = Fixture.zipEntry("[Content_Types].xml", [UInt8](repeating: 0x33, count: 1500))
        let docx = padding + Fixture.zipEntry("word/document.xml")
        #expect(sniff(docx, complete: true) == SniffResult(type: .zip, signature: "zip", isFinal: true))

        // The window is all that counts: a long buffer and its first 1445 bytes give the same result.
        for fixture in SignatureCase.all {
            let long = Fixture.padded(fixture.bytes, to: 3000, with: 0x01)
            let window = Array(long.prefix(sniffWindowSize))
            #expect(sniff(long, complete: true) == sniff(window, complete: false), "\(fixture.name)")
        }
    }

    @Test func tarOutranksWhatItsMemberNameLooksLike() {
        for name in ["%PDF-1.4 report.pdf", "<html>.txt", "#!/bin/sh", "MZ.exe", "BM"] {
            let tar = Fixture.tarHeader(name: name)
            #expect(sniff(tar, complete: false).type == .tar, "\(name)")
        }
        let corrupt = Fixture.tarHeader(name: "%PDF-1.4", corruptChecksum: true)
        #expect(sniff(corrupt, complete: false).type == .pdf)
        // ustar magic but only 300 bytes of header in a complete resource: the checksum cannot be verified.
        let short = Array(Fixture.tarHeader(name: "a.txt").prefix(300))
        #expect(sniff(short, complete: true).type == .octetStream)
    }
}
