import Multipart

/// A part to encode or as parsed: its head and all of its data.
struct FormPart: Sendable {
    var head: PartHead
    var data: [UInt8]
}

/// Encodes whole forms with ``MultipartEncoder``.
enum CanonicalEncoding {
    /// The body and where each part's delimiter begins in it (what the parser reports as the part's offset).
    struct Encoded {
        var body: [UInt8]
        var offsets: [Int64]
    }

    static func encode(_ parts: [FormPart], with encoder: MultipartEncoder) throws(MultipartEncodingError) -> Encoded {
        var encoder = encoder
        var body: [UInt8] = []
        var offsets: [Int64] = []
        for part in parts {
            offsets.append(Int64(body.count))
            try encoder.writePartHead(part.head, into: &body)
            body.write(part.data)
        }
        encoder.writeEnd(into: &body)
        return Encoded(body: body, offsets: offsets)
    }

    /// The parts of a parse outcome.
    static func parts(of outcome: ParseOutcome) -> [FormPart] {
        outcome.parts.map { FormPart(head: $0.head, data: $0.data) }
    }

    /// The events a parser must emit for `parts` at `offsets`: per part a head, its data if any, its end.
    static func expectedEvents(_ parts: [FormPart], offsets: [Int64]) -> [RecordedEvent] {
        var events: [RecordedEvent] = []
        for (index, part) in parts.enumerated() {
            var head = part.head
            head.index = index
            head.offset = offsets[index]
            events.append(.head(head))
            if !part.data.isEmpty { events.append(.body(part.data)) }
            events.append(.partEnd)
        }
        events.append(.end)
        return events
    }
}
