import FuzzSupport
import Multipart

/// One part of a generated form: what is handed to the encoder, and what the parser must read back.
struct GeneratedPart {
    /// The head as first proposed (it may hold values the encoder must refuse).
    var proposed: PartHead
    /// The head the encoder accepts (``proposed`` made safe).
    var head: PartHead
    /// The head the parser must report (canonical Content-Type and header names, trimmed values);
    /// its offset is filled in when the part is encoded.
    var expected: PartHead
    var data: [UInt8]
}

/// Builds a random form from fuzzer bytes:
///
///     [boundary length][boundary…][piece size][part count] then per part
///     [flags][name length][name…][filename length][filename…][content type…][headers…][data steps…]
///
/// Data mixes raw input with boundary look-alikes (`CRLF--` and prefixes of the delimiter, `--B`, `LF--B`,
/// near misses), and never holds the delimiter itself (the encoder relies on the boundary not occurring).
enum FormBuilder {
    static func build(_ input: inout FuzzInput, boundary: Boundary) -> [GeneratedPart] {
        let count = Int(input.byte() % 6)
        return (0..<count).map { index in part(index, &input, boundary) }
    }

    private static func part(_ index: Int, _ input: inout FuzzInput, _ boundary: Boundary) -> GeneratedPart {
        let flags = input.byte()
        let rawName = String(decoding: input.bytes(upTo: Int(input.byte() % 24)), as: UTF8.self)
        let rawFilename = String(decoding: input.bytes(upTo: Int(input.byte() % 24)), as: UTF8.self)
        let filename = flags & 1 != 0 ? rawFilename : nil
        let contentType = flags & 2 != 0 ? ContentTypeBuilder.build(&input) : nil
        var headers: [PartHeader] = []
        var expectedHeaders: [PartHeader] = []
        for _ in 0..<((flags >> 2) & 3) {
            let header = extraHeader(&input)
            headers.append(header)
            expectedHeaders.append(PartHeader(name: canonicalName(header.name), value: trimmed(header.value)))
        }
        let proposed = PartHead(index: index, name: rawName, filename: filename, contentType: contentType?.written,
                                headers: headers)
        var head = proposed
        head.name = safe(rawName)
        if head.name.isEmpty { head.name = "f\(index)" }
        head.filename = filename.map(safe)
        var expected = head
        expected.contentType = contentType?.canonical
        expected.headers = expectedHeaders
        // `filename=""` comes only with no content ("no file chosen"): with content it is `empty_filename`, which
        // a canonical body never holds (the parser names such a file).
        let bytes = head.filename == "" ? [] : data(&input, boundary)
        return GeneratedPart(proposed: proposed, head: head, expected: expected, data: bytes)
    }

    /// `value` without control bytes (except HTAB) and with unsafe characters replaced.
    static func safe(_ value: String) -> String {
        let kept = value.utf8.filter { !(($0 < 0x20 && $0 != 9) || $0 == 0x7F) }
        return String(decoding: UnsafeName.replacingUnsafe(in: kept), as: UTF8.self)
    }

    /// A header other than the three the parser interprets, with OWS around its value.
    private static func extraHeader(_ input: inout FuzzInput) -> PartHeader {
        var name = Token.read(&input, maxLength: 10, allowStar: true, mixedCase: true)
        if ["content-disposition", "content-type", "content-transfer-encoding"].contains(name.lowercased()) {
            name = "X-" + name
        }
        let raw = input.bytes(upTo: Int(input.byte() % 16))
        // Printable ASCII and HTAB: what a header value may hold.
        let value = String(decoding: raw.map { $0 % 96 == 95 ? 9 : 0x20 + $0 % 96 }, as: UTF8.self)
        return PartHeader(name: name, value: value)
    }

    /// The encoder's documented header-name case: `x-FOO-bar` → `X-Foo-Bar`.
    static func canonicalName(_ name: String) -> String {
        var upper = true
        var out = ""
        for character in name {
            out += upper ? character.uppercased() : character.lowercased()
            upper = character == "-"
        }
        return out
    }

    static func trimmed(_ value: String) -> String {
        let bytes = Array(value.utf8)
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 9 }) else { return "" }
        let last = bytes.lastIndex(where: { $0 != 0x20 && $0 != 9 })!
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    /// Part data built in up to 7 steps of raw bytes and boundary look-alikes.
    private static func data(_ input: inout FuzzInput, _ boundary: Boundary) -> [UInt8] {
        let dashBoundary = Array("--".utf8) + boundary.bytes
        let delimiter = [13, 10] + dashBoundary
        var out: [UInt8] = []
        for _ in 0..<(input.byte() % 8) {
            let step = input.byte()
            switch step % 6 {
            case 0: out += input.bytes(upTo: Int(input.byte()))
            case 1: out += delimiter.prefix(1 + Int(input.byte()) % (delimiter.count - 1))
            case 2: out += dashBoundary
            case 3: out += [10] + dashBoundary
            case 4:
                var nearMiss = delimiter + Array("--".utf8)
                let at = Int(input.byte()) % delimiter.count
                nearMiss[at] = nearMiss[at] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
                out += nearMiss
            default: out += [13] + dashBoundary + Array("--".utf8)
            }
        }
        // The delimiter must not occur in data: break every occurrence (concatenation can create one).
        while let at = ByteSearch.firstRange(of: delimiter, in: out) {
            out.remove(at: at + delimiter.count - 1)
        }
        return out
    }
}
