import FuzzSupport
import Multipart

/// Property 2 of ``DispositionTarget``: a value as a part's `Content-Disposition` line.
///
/// The part reader trims OWS, parses the value with `ContentDisposition.parse`, then turns the name and
/// filename into text under the default strictness: an unsafe or non-UTF-8 name rejects, a lone
/// `filename*` is a `filename_extended` violation (normalize) and is refused (`header_ctl`) when it decodes
/// to a control character, an unsafe or non-UTF-8 filename rejects.
/// So the body is accepted exactly when the standalone parse succeeds and those rules pass, the error is
/// the standalone one otherwise, and an accepted head carries the same name and filename, which the
/// canonical encoder can write.
enum InStreamExpectation {
    static func check(
        value: UnsafeRawBufferPointer, standalone: Result<ContentDisposition, MultipartError>, boundary: Boundary
    ) {
        var body = Array("--\(boundary)\r\nContent-Disposition: ".utf8)
        body += value
        body += Array("\r\n\r\n\r\n--\(boundary)--\r\n".utf8)
        let outcome = body.withUnsafeBytes {
            Feeder.parse($0, boundary: boundary, limits: MultipartLimits(), strictness: Strictness())
        }
        switch expectation(standalone) {
        case .rejected(let reason):
            invariant(outcome.error?.reason == reason && outcome.error?.part == 0 && outcome.heads.isEmpty,
                      "Content-Disposition line expected to fail with \(reason), got \(outcome)")
        case .accepted(let name, let filename, let extended):
            let violations: [LoggedEvent] = extended
                ? [.violation(MultipartViolation(flag: .filenameExtended, part: 0, offset: 0))] : []
            let head = PartHead(index: 0, name: name, filename: filename, offset: 0)
            invariant(outcome.error == nil && outcome.events == violations + [.head(head), .partEnd, .end],
                      "Content-Disposition line expected to give \(head), got \(outcome)")
            // Whatever the reader accepts, the gateway must be able to write in canonical form.
            var encoder = MultipartEncoder(boundary: boundary)
            var sink = ByteCounter()
            do {
                try encoder.writePartHead(head, into: &sink)
            } catch {
                invariant(false, "the part reader accepted a head the canonical encoder refuses: \(head): \(error)")
            }
        }
    }

    enum Expected {
        case rejected(MultipartError.Reason)
        case accepted(name: String, filename: String?, extended: Bool)
    }

    static func expectation(_ standalone: Result<ContentDisposition, MultipartError>) -> Expected {
        let disposition: ContentDisposition
        switch standalone {
        case .failure(let error): return .rejected(error.reason)
        case .success(let parsed): disposition = parsed
        }
        guard UnsafeName.isSafe(disposition.name) else { return .rejected(.flag(.unsafeName)) }
        guard let name = String(validating: disposition.name, as: UTF8.self) else {
            return .rejected(.flag(.invalidUTF8))
        }
        guard let raw = disposition.filename else {
            return .accepted(name: name, filename: nil, extended: false)
        }
        // A decoded `filename*` holding a control character (HTAB aside) is refused like a raw one.
        if disposition.filenameWasExtended, raw.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
            return .rejected(.flag(.headerCTL))
        }
        guard UnsafeName.isSafe(raw) else { return .rejected(.flag(.unsafeFilename)) }
        guard let filename = String(validating: raw, as: UTF8.self) else { return .rejected(.flag(.invalidUTF8)) }
        return .accepted(name: name, filename: filename, extended: disposition.filenameWasExtended)
    }
}
