import FuzzSupport
import Multipart

/// Round trip (a): a generated form, encoded by `MultipartEncoder`, parses back to exactly its parts.
///
/// Also: the encoder refuses a proposed head only for a reason it really has, and writes nothing then;
/// `encodedLength(of:)` equals the bytes written; the announced Content-Type names the boundary; and the
/// body reads alike whole and in a fuzzer-chosen piece size, with no violation under the default strictness.
enum EncodeParseCheck {
    /// The parser strictness for canonical bodies: the defaults, with nested multipart allowed (a
    /// generated Content-Type may be `multipart/…`).
    static let canonicalStrictness: Strictness = {
        var strictness = Strictness()
        try! strictness.setAction(.allow, for: .nestedMultipart)
        return strictness
    }()

    static func run(_ input: inout FuzzInput) {
        let boundary = FuzzBoundary.read(from: &input)
        let pieceSize = Int(input.byte())
        var parts = FormBuilder.build(&input, boundary: boundary)

        var encoder = MultipartEncoder(boundary: boundary)
        var body: [UInt8] = []
        for index in parts.indices {
            let offset = Int64(body.count)
            writeHead(parts[index], &encoder, &body)
            parts[index].expected.offset = offset
            body += parts[index].data
        }
        encoder.writeEnd(into: &body)
        let lengths = parts.map { (head: $0.head, dataLength: Int64($0.data.count)) }
        do {
            let length = try encoder.encodedLength(of: lengths)
            invariant(length == Int64(body.count), "encodedLength \(length) != \(body.count) bytes written")
        } catch {
            invariant(false, "encodedLength refused parts the encoder wrote: \(error)")
        }
        do {
            let announced = try MultipartContentType.parse(encoder.contentType)
            invariant(announced.boundary == boundary, "contentType \(encoder.contentType) names another boundary")
        } catch {
            invariant(false, "encoder contentType \(encoder.contentType) does not parse: \(error)")
        }

        var expectedEvents: [LoggedEvent] = []
        var expectedData: [UInt8] = []
        for part in parts {
            expectedEvents.append(.head(part.expected))
            if !part.data.isEmpty {
                expectedEvents.append(.body(expectedData.count..<(expectedData.count + part.data.count)))
                expectedData += part.data
            }
            expectedEvents.append(.partEnd)
        }
        expectedEvents.append(.end)
        for pieces in [nil, pieceSize == 0 ? nil : [pieceSize]] as [[Int]?] {
            let outcome = body.withUnsafeBytes {
                Feeder.parse($0, boundary: boundary, limits: MultipartLimits(), strictness: canonicalStrictness,
                             pieces: pieces)
            }
            invariant(outcome.error == nil && outcome.events == expectedEvents && outcome.data == expectedData,
                      "encoded form does not parse back (pieces \(pieces ?? [])):\n expected: "
                        + "\(expectedEvents.map(\.description).joined(separator: " "))\n got: \(outcome)")
        }
    }

    /// Writes a part head: first as proposed; if the encoder refuses, the refusal must be justified and
    /// write nothing, and the safe version must then be written.
    private static func writeHead(_ part: GeneratedPart, _ encoder: inout MultipartEncoder, _ body: inout [UInt8]) {
        let before = body.count
        let written = encoder.partsWritten
        do {
            try encoder.writePartHead(part.proposed, into: &body)
            invariant(part.proposed == part.head, "encoder wrote a head with no safe spelling: \(part.proposed)")
            return
        } catch {
            invariant(body.count == before && encoder.partsWritten == written,
                      "writePartHead wrote bytes before throwing \(error)")
            let value: String
            switch error.code {
            case .emptyName: value = part.proposed.name
                invariant(value.isEmpty, "emptyName for \(value.debugDescription)")
            case .unsafeName: value = part.proposed.name
            case .unsafeFilename: value = part.proposed.filename ?? ""
            case .invalidHeaderName, .invalidHeaderValue:
                invariant(false, "encoder refused a generated header or Content-Type: \(error)")
                return
            }
            invariant(error.code == .emptyName || FormBuilder.safe(value) != value,
                      "encoder refused writable value \(value.debugDescription): \(error)")
        }
        do {
            try encoder.writePartHead(part.head, into: &body)
        } catch {
            invariant(false, "encoder refused a safe head \(part.head): \(error)")
        }
    }
}
