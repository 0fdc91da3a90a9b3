import FuzzSupport
import Multipart

/// `ContentDisposition.parse` on arbitrary header values, checked three ways.
///
/// 1. Standalone: never crashes; a failure's offset lies within the value; a success has a non-empty
///    name; OWS around the value does not change the outcome.
/// 2. In a body: the same value as a part's `Content-Disposition` line gives what the standalone parse
///    plus the part reader's name rules predict (see ``InStreamExpectation``).
/// 3. Canonical re-encoding: when the name and filename are valid UTF-8, `MultipartEncoder.writePartHead`
///    either writes them (and the body parses back to the same name and filename, with no violation) or
///    refuses for a reason the values really have.
enum DispositionTarget {
    static let boundary = Boundary("fuzz-disposition")!

    static func run(_ input: UnsafeRawBufferPointer) {
        let direct = parse(input)
        switch direct {
        case .failure(let error):
            invariant(error.offset >= 0 && error.offset <= Int64(input.count),
                      "error \(error) offset outside the value of \(input.count) bytes")
        case .success(let disposition):
            invariant(!disposition.name.isEmpty, "accepted an empty name")
            reencode(disposition)
        }
        // Header lines cannot carry control bytes (other than HTAB) at all, and must fit the default
        // 8 KiB part-header limit (fuzzing uses -max_len=4096; a replayed file may be longer).
        guard input.count <= 4096, !input.contains(where: { ($0 < 0x20 && $0 != 9) || $0 == 0x7F }) else { return }
        let trimmed = trimmingOWS(input)
        let fromTrimmed = trimmed.withUnsafeBytes { parse($0) }
        switch (direct, fromTrimmed) {
        case (.success(let a), .success(let b)):
            invariant(a == b, "OWS around the value changed the result: \(a) vs \(b)")
        case (.failure(let a), .failure(let b)):
            invariant(a.reason == b.reason, "OWS around the value changed the error: \(a) vs \(b)")
        default:
            invariant(false, "OWS around the value changed acceptance: \(direct) vs \(fromTrimmed)")
        }
        InStreamExpectation.check(value: input, standalone: fromTrimmed, boundary: boundary)
    }

    static func parse(_ bytes: UnsafeRawBufferPointer) -> Result<ContentDisposition, MultipartError> {
        Result { () throws(MultipartError) -> ContentDisposition in try ContentDisposition.parse(bytes) }
    }

    static func trimmingOWS(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        let isOWS = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = bytes.firstIndex(where: { !isOWS($0) }) else { return [] }
        let last = bytes.lastIndex(where: { !isOWS($0) })!
        return Array(bytes[first...last])
    }

    /// Property 3: the canonical spelling of the name and filename reads back the same.
    static func reencode(_ disposition: ContentDisposition) {
        guard let name = String(validating: disposition.name, as: UTF8.self) else { return }
        var filename: String?
        if let raw = disposition.filename {
            guard let text = String(validating: raw, as: UTF8.self) else { return }
            filename = text
        }
        var encoder = MultipartEncoder(boundary: boundary)
        var body: [UInt8] = []
        do {
            try encoder.writePartHead(PartHead(index: 0, name: name, filename: filename), into: &body)
        } catch {
            invariant(body.isEmpty && encoder.partsWritten == 0, "writePartHead wrote bytes before throwing \(error)")
            switch error.code {
            case .unsafeName: invariant(!isWritable(name), "refused writable name \(name.debugDescription)")
            case .unsafeFilename:
                invariant(filename.map { !isWritable($0) } ?? false,
                          "refused writable filename \(filename.debugDescription)")
            case .emptyName, .invalidHeaderName, .invalidHeaderValue:
                invariant(false, "unexpected encoder error \(error) for a parsed disposition")
            }
            return
        }
        invariant(isWritable(name) && filename.map(isWritable) ?? true,
                  "encoder wrote an unsafe name or filename: \(name.debugDescription) \(filename.debugDescription)")
        encoder.writeEnd(into: &body)
        let outcome = body.withUnsafeBytes {
            Feeder.parse($0, boundary: boundary, limits: MultipartLimits(), strictness: Strictness())
        }
        let expected = PartHead(index: 0, name: name, filename: filename, offset: 0)
        invariant(outcome.error == nil && outcome.events == [.head(expected), .partEnd, .end],
                  "canonical re-encoding of \(expected) parses to \(outcome)")
    }

    /// What the canonical encoder can write: no unsafe characters, no control bytes.
    static func isWritable(_ value: String) -> Bool {
        UnsafeName.isSafe(value) && !value.utf8.contains { ($0 < 0x20 && $0 != 9) || $0 == 0x7F }
    }
}
