import Multipart

/// Writes a form in random non-canonical spellings that the parser still accepts: preamble, epilogue,
/// transport padding, LF-only lines, header and parameter names in any case, OWS, token values, unknown
/// parameters in any order, a lone `filename*` (UTF-8 or ISO-8859-1), folded header lines, identity
/// Content-Transfer-Encoding, Content-Type before Content-Disposition, missing close hyphens.
/// Says which violations the parser must report, and the strictness that normalizes them.
struct NonCanonicalWriter {
    struct Written {
        var body: [UInt8]
        var violations: Set<StrictFlag>
        /// Normalizes exactly the flags used that do not already default to normalize.
        var strictness: Strictness
    }

    private var random: SplitMix64
    private var eol: [UInt8] = [13, 10]
    private var violations = Set<StrictFlag>()

    init(seed: UInt64) {
        random = SplitMix64(seed: seed ^ 0x6E6F_6E63_616E_6F6E)
    }

    private mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    private mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
    private mutating func pick<T>(_ choices: [T]) -> T { choices[int(0...(choices.count - 1))] }

    /// Writes `parts`. In an LF-only body their data first loses any `LF--B` (hence `inout`).
    mutating func write(_ parts: inout [FormPart], boundary: Boundary) -> Written {
        violations = []
        let lfOnly = chance(25)
        eol = lfOnly ? [10] : [13, 10]
        let dashBoundary = Array("--".utf8) + boundary.bytes
        if lfOnly {
            for index in parts.indices {
                for start in ByteSearch.occurrences(of: [10] + dashBoundary, in: parts[index].data) {
                    parts[index].data[start + dashBoundary.count] = 0
                }
            }
        }
        var body: [UInt8] = []
        var lineBreak = false  // after the first delimiter: what makes the parser report lf_line
        if chance(20) {
            body += (0..<int(1...200)).map { _ in pick(Array("abc XYZ.,\t".utf8)) } + eol
            violations.insert(.preamble)
        }
        for (index, part) in parts.enumerated() {
            if index > 0 { body += eol }
            body += dashBoundary + padding() + eol
            lineBreak = true
            body += head(part.head) + eol + part.data
        }
        if !parts.isEmpty { body += eol }
        body += dashBoundary
        if chance(10) {
            violations.insert(.missingFinalBoundary)
            body += padding()
            if chance(50) {
                body += eol
                lineBreak = true
            }
        } else {
            body += Array("--".utf8) + padding()
            if chance(80) {
                body += eol
                lineBreak = true
                if chance(25) {
                    body += (0..<int(1...1024)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                    violations.insert(.epilogue)
                }
            }
        }
        if lfOnly && lineBreak { violations.insert(.lfLine) }
        var strictness = Strictness()
        for flag in violations where flag.defaultAction != .normalize { try! strictness.setAction(.normalize, for: flag) }
        return Written(body: body, violations: violations, strictness: strictness)
    }

    private mutating func padding() -> [UInt8] {
        guard chance(15) else { return [] }
        violations.insert(.transportPadding)
        return (0..<int(1...4)).map { _ in pick([0x20, 0x09]) }
    }

    private mutating func ows() -> [UInt8] { pick([[], [0x20], [0x20, 0x20], [0x09], [0x20, 0x09]]) }

    /// `name` with each ASCII letter in a random case.
    private mutating func anyCase(_ name: String) -> [UInt8] {
        name.utf8.map { byte in
            let isLetter = (65...90).contains(byte) || (97...122).contains(byte)
            return isLetter ? (chance(50) ? byte & ~0x20 : byte | 0x20) : byte
        }
    }

    /// The header section: kept headers in order, the others anywhere among them.
    private mutating func head(_ head: PartHead) -> [UInt8] {
        var fields: [[UInt8]] = head.headers.map { anyCase($0.name) + Array(":".utf8) + ows() + Array($0.value.utf8) + ows() }
        fields.insert(field("Content-Disposition", disposition(head)), at: int(0...fields.count))
        if let type = head.contentType {
            fields.insert(field("Content-Type", contentType(type)), at: int(0...fields.count))
        }
        if chance(10) {
            violations.insert(.contentTransferEncoding)
            fields.insert(field("Content-Transfer-Encoding", anyCase(pick(["binary", "8bit", "7bit"]))), at: int(0...fields.count))
        }
        return fields.flatMap { $0 + eol }
    }

    private mutating func field(_ name: String, _ value: [UInt8]) -> [UInt8] {
        anyCase(name) + Array(":".utf8) + ows() + value + ows()
    }

    /// `first; p1; p2…` with OWS, folds (obs-fold: a line break and whitespace) and a trailing `;` at times.
    private mutating func parameterList(_ first: [UInt8], _ parameters: [[UInt8]]) -> [UInt8] {
        var out = first
        for parameter in parameters {
            out += ows() + Array(";".utf8)
            if chance(15) {
                violations.insert(.headerFolding)
                out += eol + pick([[0x20], [0x09], [0x20, 0x20]])
            } else {
                out += ows()
            }
            out += parameter
        }
        if chance(10) { out += ows() + Array(";".utf8) }
        return out
    }

    private mutating func disposition(_ head: PartHead) -> [UInt8] {
        var parameters = [anyCase("name") + Array("=".utf8) + value(head.name)]
        if let filename = head.filename {
            if chance(25) {
                violations.insert(.filenameExtended)
                parameters.append(anyCase("filename*") + Array("=".utf8) + extended(filename))
            } else {
                parameters.append(anyCase("filename") + Array("=".utf8) + value(filename))
            }
        }
        var unknown = ["size", "x-foo", "creation-date"]
        for _ in 0..<pick([0, 0, 0, 1, 2]) {
            let name = unknown.remove(at: int(0...(unknown.count - 1)))
            parameters.append(anyCase(name) + Array("=".utf8) + value(pick(["12", "a b", "x;y", ""])))
        }
        parameters.shuffle(using: &random)
        return parameterList(anyCase("form-data"), parameters)
    }

    /// A token when it is one (at times), else a quoted-string.
    private mutating func value(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        if !bytes.isEmpty, bytes.allSatisfy(RandomForm.tchars.contains), chance(60) { return bytes }
        return [0x22] + bytes + [0x22]
    }

    /// RFC 5987: `charset'lang'pct-encoded`, in ISO-8859-1 when every character fits (at times).
    private mutating func extended(_ filename: String) -> [UInt8] {
        let scalars = filename.unicodeScalars
        let latin1 = scalars.allSatisfy { $0.value <= 0xFF } && chance(50)
        let bytes = latin1 ? scalars.map { UInt8($0.value) } : Array(filename.utf8)
        var out = anyCase(latin1 ? "iso-8859-1" : "utf-8") + Array("'".utf8) + (chance(30) ? Array("en".utf8) : []) + Array("'".utf8)
        let attrChars = Set("!#$&+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        let hex = Array((chance(50) ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        for byte in bytes {
            if attrChars.contains(byte), chance(70) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return out
    }

    /// A canonical Content-Type respelled: type and parameter names in any case, token values quoted at times.
    private mutating func contentType(_ canonical: String) -> [UInt8] {
        let pieces = Self.splitOutsideQuotes(Array(canonical.utf8))
        let parameters = pieces.dropFirst().map { piece -> [UInt8] in
            let equals = piece.firstIndex(of: UInt8(ascii: "="))!
            let name = String(decoding: piece[..<equals], as: UTF8.self)
            var value = Array(piece[(equals + 1)...])
            if value.first != 0x22, chance(30) { value = [0x22] + value + [0x22] }
            return anyCase(name) + Array("=".utf8) + value
        }
        return parameterList(anyCase(String(decoding: pieces[0], as: UTF8.self)), parameters)
    }

    /// `type/subtype; a=b; c="d; e"` → [`type/subtype`, `a=b`, `c="d; e"`].
    static func splitOutsideQuotes(_ bytes: [UInt8]) -> [[UInt8]] {
        var pieces: [[UInt8]] = [[]]
        var quoted = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x22 { quoted.toggle() }
            if byte == UInt8(ascii: ";"), !quoted {
                pieces.append([])
                index += 2  // canonical form: "; "
                continue
            }
            pieces[pieces.count - 1].append(byte)
            index += 1
        }
        return pieces
    }
}
