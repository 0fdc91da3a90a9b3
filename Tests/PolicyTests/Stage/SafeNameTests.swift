import Multipart
import Testing

@testable import Policy

@Suite("SafeName")
struct SafeNameTests {
    @Test(arguments: [
        ("../../etc/passwd", "passwd"),
        ("..\\..\\win.ini", "win.ini"),
        ("C:\\x", "x"),
        ("C:x.txt", "x.txt"),
        ("/abs", "abs"),
        ("/", "unnamed"),
        ("..", "unnamed"),
        ("...", "unnamed"),
        ("a\0b.php.jpg", "a_b.php.jpg"),
        ("a\r\nX-Evil: 1", "a__X-Evil_ 1"),
        ("%22quoted%22.txt", "_22quoted_22.txt"),
        ("a%0d%0A.txt", "a_0d_0A.txt"),
        ("100%.txt", "100%.txt"),
        ("say \"hi\".txt", "say _hi_.txt"),
        ("report.pdf:evil.exe", "report.pdf_evil.exe"),
        ("a<b>|c?*.txt", "a_b__c__.txt"),
        (".htaccess", "htaccess"),
        ("  . hidden", "hidden"),
        ("evil.exe. . ", "evil.exe"),
        ("a...b....txt", "a.b.txt"),
        ("résumé — 履歴書.pdf", "résumé — 履歴書.pdf"),
        ("emoji 👩‍👩‍👧.png", "emoji 👩‍👩‍👧.png"),
        ("invoice\u{202E}fdp.exe", "invoice_fdp.exe"),
        ("zero\u{200B}width.txt", "zero_width.txt"),
        ("tab\there\u{7F}\u{85}.txt", "tab_here__.txt"),
        ("CON", "_CON"),
        ("nul.txt", "_nul.txt"),
        ("com1.tar.gz", "_com1.tar.gz"),
        ("console.log", "console.log"),
        ("", ""),
        ("photo.JPG", "photo.JPG"),
        // Names a backend rewrites after parsing (each was `shell.php` to one of them before):
        ("shell%2Ephp", "shell_2Ephp"),  // Rack percent-decodes a filename
        ("shell.ph%70", "shell.ph_70"),
        ("shell.php%00.txt", "shell.php_00.txt"),
        ("shell&period;php", "shell_period;php"),  // Django: html.unescape
        ("shell&#46;php", "shell_#46;php"),
        ("shell.ph&shyp", "shell.ph_shyp"),  // a legacy reference without `;`, then Django drops U+00AD
        ("AT&T 100%.txt", "AT&T 100%.txt"),
        ("shell.php\u{A0}", "shell.php_"),  // Django drops unprintable characters
        ("shell.ph\u{AD}p", "shell.ph_p"),
        ("shell.ph\u{200D}p", "shell.ph_p"),  // a joiner between ASCII letters
        ("shell.ph\u{3000}p", "shell.ph_p"),
        ("private\u{E000}.php", "private_.php"),
        ("COM\u{B9}.txt", "_COM\u{B9}.txt"),  // Windows reads ¹ ² ³ as device digits
        ("lpt\u{B3}", "_lpt\u{B3}"),
    ])
    func sanitises(input: String, expected: String) {
        let output = SafeName.sanitizeFilename(input)
        #expect(output == expected)
        #expect(SafeName.sanitizeFilename(output) == output, "a fixed point")
        #expect(SafeName.isEncodable(output))
        #expect(SafeName.isSafeFilename(output))
        #expect(SafeName.isSafeFilename(input) == (input == expected))
    }

    @Test func theLengthCapKeepsTheExtension() {
        let long = String(repeating: "a", count: 300) + ".png"
        let capped = SafeName.sanitizeFilename(long)
        #expect(capped.utf8.count == 255 && capped.hasSuffix(".png"))
        let wide = String(repeating: "日", count: 200) + ".jpeg"
        let cappedWide = SafeName.sanitizeFilename(wide)
        #expect(cappedWide.utf8.count <= 255 && cappedWide.hasSuffix(".jpeg"))
        #expect(cappedWide.unicodeScalars.allSatisfy { $0 == "日" || ".jpeg".unicodeScalars.contains($0) })
        let longExtension = "a." + String(repeating: "x", count: 300)
        #expect(SafeName.sanitizeFilename(longExtension).utf8.count == 255)
        let devices = "CON" + String(repeating: "x", count: 300) + ".png"
        #expect(SafeName.sanitizeFilename(devices, maxBytes: 20) == "CONxxxxxxxxxxxxx.png")
        #expect(SafeName.sanitizeFilename("CON" + String(repeating: ".", count: 2) + "png", maxBytes: 16) == "_CON.png")
        let cut = SafeName.sanitizeFilename("abc" + String(repeating: "d", count: 30) + ".txt", maxBytes: 16)
        #expect(cut == "abcddddddddd.txt")
    }

    @Test func aCutThatLeavesADeviceNameOverwritesItsFirstCharacter() {
        let name = "CON " + String(repeating: "x", count: 40) + ".txt"
        let capped = SafeName.sanitizeFilename(name, maxBytes: 16)
        #expect(capped.utf8.count <= 16)
        #expect(SafeName.sanitizeFilename(capped, maxBytes: 16) == capped)
    }

    @Test func randomNamesSanitiseToEncodableFixedPoints() {
        var generator = SplitMix(seed: 0x5EED)
        let alphabet: [String] = [
            "a", "Z", "0", ".", ".", " ", "/", "\\", ":", "\"", "%", "2", "d", "A", "\0", "\r", "\n", "\u{7F}",
            "é", "日", "👩‍👩‍👧", "\u{202E}", "<", "*", "C", "O", "N", "-", "_",
        ]
        for _ in 0..<3000 {
            let length = Int(generator.next() % 24)
            let name = (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }.joined()
            let output = SafeName.sanitizeFilename(name, maxBytes: 20)
            #expect(SafeName.sanitizeFilename(output, maxBytes: 20) == output, "\(name.debugDescription)")
            #expect(SafeName.isEncodable(output), "\(name.debugDescription)")
            #expect(output.utf8.count <= 20)
            #expect(!output.contains("/") && !output.contains("\\") && !output.contains(".."))
            #expect(!output.hasPrefix(".") && !output.hasSuffix(".") && !output.hasPrefix(" "))
            #expect(name.isEmpty == output.isEmpty)
        }
    }

    @Test(arguments: [
        ("files[]", "files[]"), ("a/b:c.d", "a/b:c.d"), ("x\"y", "x_y"), ("x\\y", "x_y"), ("x%22", "x_22"),
        ("a\r\nb", "a__b"), ("", "unnamed"), ("名前", "名前"),
    ])
    func fieldNamesKeepWhatIsNotUnsafe(input: String, expected: String) {
        #expect(SafeName.sanitizeFieldName(input) == expected)
        #expect(SafeName.isEncodable(SafeName.sanitizeFieldName(input)))
    }

    /// The one-pass plain-filename check never changes the result: wherever it answers "unchanged", the full
    /// scalar sanitiser returns the filename as it is. Filenames are drawn from an alphabet that mixes the plain
    /// bytes with dots, spaces, device names and unsafe characters.
    @Test func plainFilenameFastPathAgreesWithTheFullSanitiser() {
        let pieces = ["a", "Z", "0", "-", "_", " ", "(", ")", "+", ",", ".", "..", "CON", "con", "Lpt1", "nul",
                      "aux.", "com9", "&#", "=", "name", "%22", ":", "/", "\\", "é", "\u{202E}", "x.png"]
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        var fast = 0
        for _ in 0..<20_000 {
            var name = ""
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length = Int(state >> 60) + 1
            for _ in 0..<length {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                name += pieces[Int(state >> 33) % pieces.count]
            }
            for maxBytes in [8, SafeName.maxFilenameBytes] {
                let full = SafeName.sanitizedFilename(name, maxBytes: maxBytes)
                if SafeName.isPlainFilename(name, maxBytes: maxBytes) {
                    fast += 1
                    #expect(full == name, "\(name.debugDescription) (max \(maxBytes))")
                }
                #expect(SafeName.sanitizeFilename(name, maxBytes: maxBytes) == full)
            }
        }
        #expect(fast > 1000)  // the fast path is exercised, not just the fallback
    }
}

/// A small deterministic generator for property tests.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

}
