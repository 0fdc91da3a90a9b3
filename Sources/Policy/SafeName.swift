import Multipart

/// Makes client-chosen filenames and field names safe to forward (`unsafe_filenames: sanitize`, and every
/// name a `rename:` template produces).
///
/// ``sanitizeFilename(_:maxBytes:)`` applies, in order:
/// 1. **path components**: only the text after the last `/` or `\` is kept (`../../etc/passwd` → `passwd`,
///    `C:\x` → `x`), then a leading drive letter (`C:x` → `x`) is dropped;
/// 2. **characters**: control characters (C0, DEL, C1), every other character Python's `str.isprintable` calls
///    unprintable (format characters and bidi marks included: the `evil\u{202E}gpj.exe` trick; the joiners U+200C
///    and U+200D stay only between two non-ASCII characters, where emoji and several scripts need them; spaces
///    other than U+0020 such as U+00A0; line and paragraph separators; private-use and unassigned code points:
///    Django drops them, so `shell.ph\u{AD}p` would be `shell.php` to it), the Windows-reserved
///    `" : < > | ? *` (`:` also names NTFS streams), the `%` of any `%XX` (Rack decodes `shell%2Ephp` to
///    `shell.php`), the `&` of a character reference (`&#`, `&name;`, or one of HTML's legacy names that need no
///    `;` such as `&shy`: Django unescapes `&period;`, `&#46;`, `&shy`) and the `=` of
///    `name=` in any case (``UnsafeName``) each become `_`; every other character, non-ASCII ones included, is
///    kept;
/// 3. **dots and spaces**: a run of dots becomes one dot (no `..` survives), and leading and trailing dots and
///    spaces are removed (no hidden files; Windows drops trailing ones anyway);
/// 4. **device names**: a name whose part before the first dot is a Windows device (`CON`, `NUL`, `COM1`, …)
///    gets a `_` prefix;
/// 5. **length**: a name longer than `maxBytes` UTF-8 bytes loses characters from the end of its stem, so the
///    extension survives (`{very long}.png` stays a `.png`);
/// 6. a non-empty name that ends up empty becomes ``fallbackName``. The empty filename (`filename=""`, which
///    browsers send for "no file chosen") stays empty.
///
/// The result is a fixed point (sanitising it again changes nothing), and the canonical encoder can always
/// write it. A filename is *unsafe* exactly when sanitising would change it (``isSafeFilename(_:)``).
public enum SafeName {
    /// The default filename length cap in UTF-8 bytes (what common file systems allow).
    public static let maxFilenameBytes = 255
    /// What a name that sanitises to nothing becomes.
    public static let fallbackName = "unnamed"
    /// The longest extension (dot included, UTF-8 bytes) the length cap keeps whole.
    static let maxKeptExtensionBytes = 32

    /// The safe form of a client filename; see the type's documentation for the steps.
    /// - Parameters:
    ///   - filename: the filename as the client sent it.
    ///   - maxBytes: the UTF-8 length cap (default ``maxFilenameBytes``; at least 16).
    /// - Returns: a filename without path components, `..`, control characters or unsafe characters.
    public static func sanitizeFilename(_ filename: String, maxBytes: Int = maxFilenameBytes) -> String {
        guard !filename.isEmpty else { return "" }
        if isPlainFilename(filename, maxBytes: maxBytes) { return filename }
        return sanitizedFilename(filename, maxBytes: maxBytes)
    }

    /// Whether `filename` is one the full sanitiser returns unchanged, decided over its UTF-8 in one pass: only
    /// ASCII letters, digits and `-_. ()+,`, no `..`, no dot or space at either end, no device-name prefix, at
    /// most `maxBytes` long. (The usual upload's filename; the scalar-array path cost ~3 k instructions.)
    static func isPlainFilename(_ filename: String, maxBytes: Int) -> Bool {
        var filename = filename
        return filename.withUTF8 { bytes in
            guard !bytes.isEmpty, bytes.count <= maxBytes else { return false }
            var previous: UInt8 = 0
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: " "),
                    UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "+"), UInt8(ascii: ","):
                    break
                case UInt8(ascii: "."):
                    if previous == UInt8(ascii: ".") { return false }
                default:
                    return false
                }
                previous = byte
            }
            let first = bytes[0]
            let last = bytes[bytes.count - 1]
            if first == UInt8(ascii: ".") || first == UInt8(ascii: " ") || last == UInt8(ascii: ".")
                || last == UInt8(ascii: " ")
            {
                return false
            }
            if bytes.count >= 3 {
                let prefix = UInt32(bytes[0] & 0xDF) << 16 | UInt32(bytes[1] & 0xDF) << 8 | UInt32(bytes[2] & 0xDF)
                if devicePrefixes.contains(prefix) { return false }
            }
            return true
        }
    }

    /// ``sanitizeFilename(_:maxBytes:)`` over Unicode scalars, for every filename.
    static func sanitizedFilename(_ filename: String, maxBytes: Int) -> String {
        guard !filename.isEmpty else { return "" }
        var scalars = Array(filename.unicodeScalars)
        if let separator = scalars.lastIndex(where: { $0 == "/" || $0 == "\\" }) {
            scalars.removeSubrange(...separator)
        }
        if scalars.count >= 2, isASCIILetter(scalars[0]), scalars[1] == ":" {
            scalars.removeFirst(2)
        }
        var cleaned: [Unicode.Scalar] = []
        cleaned.reserveCapacity(scalars.count)
        for (index, scalar) in scalars.enumerated() {
            if scalar == "\u{200C}" || scalar == "\u{200D}" {
                let joins = index > 0 && index + 1 < scalars.count && !scalars[index - 1].isASCII
                    && !scalars[index + 1].isASCII
                cleaned.append(joins ? scalar : "_")
            } else if replacesWithUnderscore(scalar) || (scalar == "%" && isPercentEscape(scalars, after: index))
                || (scalar == "&" && isCharacterReference(scalars, after: index)) || isUnsafeSequence(scalars, at: index)
            {
                cleaned.append("_")
            } else if scalar == ".", cleaned.last == "." {
                continue
            } else {
                cleaned.append(scalar)
            }
        }
        trimDotsAndSpaces(&cleaned)
        if isWindowsDeviceName(cleaned) { cleaned.insert("_", at: 0) }
        var name = string(cleaned)
        if name.utf8.count > maxBytes {
            name = capped(name, maxBytes: max(16, maxBytes))
            // A cut may leave a bare device name ("CONxxx…" → "CON.png"): overwrite, so the length holds.
            var capped = Array(name.unicodeScalars)
            if isWindowsDeviceName(capped) {
                capped[0] = "_"
                name = string(capped)
            }
        }
        return name.isEmpty ? fallbackName : name
    }

    /// Whether a filename is already safe: ``sanitizeFilename(_:maxBytes:)`` would return it unchanged.
    /// - Parameter filename: the filename as sent.
    public static func isSafeFilename(_ filename: String) -> Bool {
        sanitizeFilename(filename) == filename
    }

    /// Whether the canonical encoder can write a name or filename as it is: none of ``UnsafeName``'s characters
    /// and no control character.
    /// - Parameter name: a field name or filename.
    public static func isEncodable(_ name: String) -> Bool {
        UnsafeName.isSafe(name) && !name.unicodeScalars.contains(where: isControl)
    }

    /// The safe form of a field name a template produced: control, bidi and format characters, `"`, `\`, the
    /// `%` of `%22` / `%0D` / `%0A` and the other ``UnsafeName`` sequences become `_`; an empty result becomes ``fallbackName``. Field names keep
    /// `/`, `:` and dots: they are not paths.
    /// - Parameter name: the rendered field name.
    public static func sanitizeFieldName(_ name: String) -> String {
        let scalars = Array(name.unicodeScalars)
        var cleaned = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            let unsafe =
                isControl(scalar) || isInvisibleFormat(scalar) || scalar == "\"" || scalar == "\\"
                || (scalar == "%" && isUnsafeEscape(scalars, after: index)) || isUnsafeSequence(scalars, at: index)
            cleaned.append(unsafe ? "_" : scalar)
        }
        return cleaned.isEmpty ? fallbackName : String(cleaned)
    }

    // MARK: Steps

    private static func replacesWithUnderscore(_ scalar: Unicode.Scalar) -> Bool {
        if isControl(scalar) || isInvisibleFormat(scalar) { return true }
        if !scalar.isASCII {
            switch scalar.properties.generalCategory {
            case .spaceSeparator, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned, .surrogate:
                return true
            default:
                return false
            }
        }
        switch scalar {
        case "\"", ":", "<", ">", "|", "?", "*": return true
        default: return false
        }
    }

    /// C0 controls, DEL and C1 controls.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Zero-width space, bidi marks, overrides and isolates, invisible operators and the BOM: characters that make a
    /// name display differently from what it is (the zero-width joiners U+200C/U+200D are kept).
    private static func isInvisibleFormat(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200B, 0x200E, 0x200F, 0x202A...0x202E, 0x2060...0x2064, 0x2066...0x2069, 0xFEFF: return true
        default: return false
        }
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    /// Whether the `%` at `index` starts two hex digits (a percent-encoding some backends decode).
    private static func isPercentEscape(_ scalars: [Unicode.Scalar], after index: Int) -> Bool {
        guard index + 2 < scalars.count else { return false }
        return scalars[index + 1].properties.isASCIIHexDigit && scalars[index + 2].properties.isASCIIHexDigit
    }

    /// Whether the `&` at `index` starts a character reference as an HTML unescaper (Python's `html.unescape`)
    /// reads it: `&#`, letters and digits ended by `;`, or a legacy name that needs no `;` (`&shy`, `&amp`).
    private static func isCharacterReference(_ scalars: [Unicode.Scalar], after index: Int) -> Bool {
        guard index + 1 < scalars.count else { return false }
        if scalars[index + 1] == "#" { return true }
        var end = index + 1
        while end < scalars.count, isASCIILetter(scalars[end]) || ("0"..."9").contains(scalars[end]) { end += 1 }
        guard end > index + 1 else { return false }
        if end < scalars.count, scalars[end] == ";" { return true }
        let name = string(scalars[(index + 1)..<end])
        return legacyReferences.contains { name.hasPrefix($0) }
    }

    /// HTML's character references that are read without a `;` (the WHATWG list's legacy names).
    private static let legacyReferences: [String] = """
        AElig AMP Aacute Acirc Agrave Aring Atilde Auml COPY Ccedil ETH Eacute Ecirc Egrave Euml GT Iacute Icirc \
        Igrave Iuml LT Ntilde Oacute Ocirc Ograve Oslash Otilde Ouml QUOT REG THORN Uacute Ucirc Ugrave Uuml Yacute \
        aacute acirc acute aelig agrave amp aring atilde auml brvbar ccedil cedil cent copy curren deg divide eacute \
        ecirc egrave eth euml frac12 frac14 frac34 gt iacute icirc iexcl igrave iquest iuml laquo lt macr micro \
        middot nbsp not ntilde oacute ocirc ograve ordf ordm oslash otilde ouml para plusmn pound quot raquo reg \
        sect shy sup1 sup2 sup3 szlig thorn times uacute ucirc ugrave uml uuml yacute yen yuml
        """.split(separator: " ").map(String.init)

    /// Whether the `%` at `index` starts `22`, `0D` or `0A` (any case).
    private static func isUnsafeEscape(_ scalars: [Unicode.Scalar], after index: Int) -> Bool {
        guard index + 2 < scalars.count else { return false }
        switch (scalars[index + 1], scalars[index + 2]) {
        case ("2", "2"), ("0", "d"), ("0", "D"), ("0", "a"), ("0", "A"): return true
        default: return false
        }
    }

    /// The character at `index` that ``UnsafeName`` replaces besides `"`, `\` and `%XX`: the `&` of `&#` and a
    /// digit or `x` (an HTML character reference), U+2028 and U+2029, and the `=` of `name=` in any case.
    private static func isUnsafeSequence(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        switch scalars[index] {
        case "&":
            guard index + 2 < scalars.count, scalars[index + 1] == "#" else { return false }
            let next = scalars[index + 2]
            return ("0"..."9").contains(next) || next == "x" || next == "X"
        case "\u{2028}", "\u{2029}":
            return true
        case "=":
            guard index >= 4 else { return false }
            return string(scalars[(index - 4)..<index]).lowercased() == "name"
        default:
            return false
        }
    }

    private static func trimDotsAndSpaces(_ scalars: inout [Unicode.Scalar]) {
        while let last = scalars.last, last == "." || last == " " { scalars.removeLast() }
        let leading = scalars.prefix { $0 == "." || $0 == " " }.count
        scalars.removeFirst(leading)
    }

    /// The first three letters of every device name, as `c0 << 16 | c1 << 8 | c2`.
    private static let devicePrefixes: [UInt32] = ["CON", "PRN", "AUX", "NUL", "COM", "LPT"].map { name in
        name.unicodeScalars.reduce(0) { $0 << 8 | $1.value }
    }

    /// A String from scalars, through UTF-8 (appending to a `String.UnicodeScalarView` costs several times more).
    private static func string(_ scalars: some Collection<Unicode.Scalar>) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(scalars.count)
        for scalar in scalars {
            if scalar.isASCII {
                bytes.append(UInt8(truncatingIfNeeded: scalar.value))
            } else {
                UTF8.encode(scalar) { bytes.append($0) }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let deviceNames: Set<String> = {
        var names: Set<String> = ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"]
        // Windows reads the superscript digits ¹ ² ³ as digits in these names too.
        for digit in ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "\u{B9}", "\u{B2}", "\u{B3}"] {
            names.insert("COM\(digit)")
            names.insert("LPT\(digit)")
        }
        return names
    }()

    private static func isWindowsDeviceName(_ scalars: [Unicode.Scalar]) -> Bool {
        // Every device name starts with CON, PRN, AUX, NUL, COM or LPT: three ASCII letters decide most names at
        // once (upper-casing maps ASCII to ASCII one to one).
        if scalars.count >= 3, scalars[0].isASCII, scalars[1].isASCII, scalars[2].isASCII {
            func upper(_ scalar: Unicode.Scalar) -> UInt32 { (0x61...0x7A).contains(scalar.value) ? scalar.value - 0x20 : scalar.value }
            let prefix = upper(scalars[0]) << 16 | upper(scalars[1]) << 8 | upper(scalars[2])
            guard devicePrefixes.contains(prefix) else { return false }
        }
        let stem = scalars.prefix { $0 != "." }
        guard stem.count <= 7 else { return false }
        var text = string(stem).uppercased()
        while text.last == " " { text.removeLast() }
        return deviceNames.contains(text)
    }

    /// Cuts characters from the end of the stem until the name fits, keeping a short extension whole.
    private static func capped(_ name: String, maxBytes: Int) -> String {
        var stem = Substring(name)
        var ext = Substring("")
        if let dot = name.lastIndex(of: "."), dot != name.startIndex,
            name.utf8.distance(from: dot, to: name.endIndex) <= min(maxKeptExtensionBytes, maxBytes / 2)
        {
            stem = name[..<dot]
            ext = name[dot...]
        }
        let budget = maxBytes - ext.utf8.count
        var length = 0
        var end = stem.startIndex
        for index in stem.indices {
            let next = stem.index(after: index)
            let width = stem.utf8.distance(from: index, to: next)
            guard length + width <= budget else { break }
            length += width
            end = next
        }
        var kept = Array(stem[..<end].unicodeScalars)
        while let last = kept.last, last == "." || last == " " { kept.removeLast() }
        guard !kept.isEmpty else { return String(ext.dropFirst()) }
        return string(kept) + ext
    }
}
