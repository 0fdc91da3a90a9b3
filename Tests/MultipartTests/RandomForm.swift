import Multipart

/// Random forms for the round-trip properties, from a seed: safe names (ASCII and multi-byte UTF-8),
/// optional filenames (some empty, with no data), optional canonical Content-Types, kept headers, and data that is
/// empty, random, large, or full of delimiter look-alikes (never the delimiter itself).
struct RandomForm {
    private var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    static let bchars = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ".utf8)
    static let tchars = Array("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
    static let lowerTchars = Array("!#$%&'+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyz".utf8)

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
    mutating func pick<T>(_ choices: [T]) -> T { choices[int(0...(choices.count - 1))] }

    /// A CSPRNG-shaped boundary, or any valid one (short, with spaces and tspecials that need quoting).
    mutating func boundary() -> Boundary {
        if chance(60) { return Boundary.random(using: &random) }
        let length = chance(30) ? int(1...3) : int(1...Boundary.maximumLength)
        var bytes = (0..<length).map { _ in pick(Self.bchars) }
        if bytes[length - 1] == UInt8(ascii: " ") { bytes[length - 1] = UInt8(ascii: "z") }
        return Boundary(bytes)!
    }

    /// A whole form for `boundary`: usually a few parts, sometimes none, sometimes up to 200.
    mutating func parts(boundary: Boundary) -> [FormPart] {
        let count = chance(5) ? 0 : chance(80) ? int(1...8) : int(9...200)
        return (0..<count).map { index in part(index, boundary: boundary, allowLarge: count <= 8) }
    }

    private mutating func part(_ index: Int, boundary: Boundary, allowLarge: Bool) -> FormPart {
        var head = PartHead(index: index, name: name())
        if chance(50) { head.filename = chance(20) ? "" : name() + pick(["", ".txt", ".tar.gz", ".PNG"]) }
        if chance(50) { head.contentType = contentType() }
        if chance(15) { head.headers = (0..<int(1...2)).map { _ in PartHeader(name: headerName(), value: headerValue()) } }
        // `filename=""` comes only with no content ("no file chosen"): with content it is `empty_filename`, which
        // the canonical form never holds (normalised to a named file).
        let data = head.filename == "" ? [] : data(boundary: boundary, allowLarge: allowLarge)
        return FormPart(head: head, data: data)
    }

    /// A non-empty name the encoder accepts: plain ASCII (the parser's fast path), any printable ASCII,
    /// or a mix with tabs and 2-, 3- and 4-byte UTF-8.
    mutating func name() -> String {
        while true {
            let style = int(0...2)
            var scalars = String.UnicodeScalarView()
            for _ in 0..<int(1...20) {
                switch style {
                case 0: scalars.append(Unicode.Scalar(pick(Array("abcXYZ019-_.".utf8))))
                case 1: scalars.append(printableScalar())
                default: scalars.append(anyScalar())
                }
            }
            let name = String(scalars)
            if UnsafeName.isSafe(name) { return name }
        }
    }

    /// Printable ASCII other than `"` and `\`, with `%` (the start of an escape look-alike) made common.
    private mutating func printableScalar() -> Unicode.Scalar {
        if chance(15) { return "%" }
        let byte = UInt8(int(0x20...0x7E))
        return byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") ? "q" : Unicode.Scalar(byte)
    }

    private mutating func anyScalar() -> Unicode.Scalar {
        switch int(0...99) {
        case 0..<40: return printableScalar()
        case 40..<45: return "\t"
        case 45..<60: return Unicode.Scalar(UInt8(int(0xA0...0xFF)))
        case 60..<75: return Unicode.Scalar(UInt32(int(0x80...0x7FF)))!
        case 75..<90:
            let value = UInt32(int(0x800...0xFFFD))
            return Unicode.Scalar(value) ?? "\u{FFFD}"  // surrogates are not scalars
        default: return Unicode.Scalar(UInt32(int(0x10000...0x10FFFF)))!
        }
    }

    /// A Content-Type in the parser's canonical form: lowercase type, subtype and parameter names,
    /// values as tokens when they are one, else quoted.
    mutating func contentType() -> String {
        var value = pick(["text", "application", "image", "audio", "video", "font", "model", "x-custom"])
        value += "/" + String(decoding: (0..<int(1...12)).map { _ in pick(Self.lowerTchars) }, as: UTF8.self)
        var names = Set<String>()
        for _ in 0..<int(0...3) {
            let name = chance(50) ? "charset" : String(decoding: (0..<int(1...8)).map { _ in pick(Self.lowerTchars) }, as: UTF8.self)
            guard names.insert(name).inserted else { continue }
            value += "; " + name + "=" + parameterValue()
        }
        return value
    }

    private mutating func parameterValue() -> String {
        if chance(50) { return pick(["utf-8", "UTF-8", "us-ascii"]) }
        var scalars = String.UnicodeScalarView()
        for _ in 0..<int(0...12) { scalars.append(chance(80) ? printableScalar() : anyScalar()) }
        let text = String(scalars)
        let token = !text.isEmpty && text.utf8.allSatisfy(Self.tchars.contains)
        return token ? text : "\"" + text + "\""
    }

    /// A header name in the encoder's canonical case, never one the parser interprets.
    mutating func headerName() -> String {
        let words = (0..<int(1...3)).map { _ in
            String(Unicode.Scalar(pick(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8))))
                + String(decoding: (0..<int(0...6)).map { _ in pick(Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)) }, as: UTF8.self)
        }
        return "X-" + words.joined(separator: "-")
    }

    /// A header value as the parser returns it: no control characters, no surrounding whitespace.
    mutating func headerValue() -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<int(0...30) { scalars.append(chance(90) ? Unicode.Scalar(UInt8(int(0x20...0x7E))) : anyScalar()) }
        return String(scalars).trimmingWhitespace
    }

    /// Part data: empty, random, delimiter look-alikes, medium, or (rarely, in small forms) a few hundred KiB.
    mutating func data(boundary: Boundary, allowLarge: Bool) -> [UInt8] {
        var data: [UInt8]
        switch int(0...99) {
        case 0..<15: data = []
        case 15..<45: data = bytes(int(1...256))
        case 45..<80: data = lookalikes(boundary)
        case 80..<97: data = bytes(int(257...8192))
        default: data = allowLarge ? bytes(int(100_000...400_000)) : bytes(int(1...64))
        }
        Self.breakDelimiters(in: &data, boundary: boundary)
        return data
    }

    mutating func bytes(_ count: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count + 8)
        while out.count < count {
            withUnsafeBytes(of: random.next()) { out.append(contentsOf: $0) }
        }
        out.removeLast(out.count - count)
        return out
    }

    /// Fragments that start like the delimiter `CRLF--B` and stop short of it: every proper prefix of it,
    /// `--B` without the CRLF, `--B--`, LF-only and CR-only forms, the delimiter with its last byte changed.
    private mutating func lookalikes(_ boundary: Boundary) -> [UInt8] {
        let dashBoundary = Array("--".utf8) + boundary.bytes
        let delimiter = [13, 10] + dashBoundary
        var out: [UInt8] = []
        for _ in 0..<int(1...40) {
            switch int(0...11) {
            case 0, 1, 2: out += delimiter[0..<int(1...(delimiter.count - 1))]
            case 3: out += dashBoundary
            case 4: out += dashBoundary + Array("--".utf8)
            case 5: out += [10] + dashBoundary
            case 6: out += [13] + dashBoundary
            case 7: out += boundary.bytes
            case 8: out += delimiter.dropLast() + [delimiter.last! == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")]
            case 9: out += pick([[13, 10], [13], [10], [UInt8(ascii: "-")], Array("--".utf8)])
            default: out += bytes(int(1...8))
            }
        }
        return out
    }

    /// Replaces the last byte of every occurrence of `CRLF--B` with NUL (which no delimiter holds), so the
    /// data never contains its own delimiter.
    static func breakDelimiters(in data: inout [UInt8], boundary: Boundary) {
        let delimiter = [13, 10] + Array("--".utf8) + boundary.bytes
        for start in ByteSearch.occurrences(of: delimiter, in: data) {
            data[start + delimiter.count - 1] = 0
        }
    }

    /// Random piece lengths covering `count` bytes: many tiny pieces (to cut delimiters), some large ones.
    mutating func pieces(covering count: Int) -> [Int] {
        var pieces: [Int] = []
        var total = 0
        let large = max(64, count / 16)
        while total < count {
            let length = chance(30) ? int(1...8) : int(1...large)
            pieces.append(length)
            total += length
        }
        return pieces
    }
}

extension String {
    /// Without leading and trailing spaces and tabs (bytes, as the parser trims: not grapheme clusters).
    var trimmingWhitespace: String {
        var bytes = Array(utf8)[...]
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes.removeFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
