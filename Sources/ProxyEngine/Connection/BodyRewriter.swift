import Multipart
import Policy

/// A request body being re-encoded: the multipart parser, the route's policy stage, and the recorder that
/// turns the policy's output into ``BodyOp``s through the canonical encoder.
///
/// `package` so that `partgate rewrite` runs the very pipeline the engine runs.
package protocol BodyRewriter: AnyObject {
    /// Parses body bytes lying in `chain`; ops for them are then in ``recorder``.
    func parse(_ span: UnsafeRawBufferPointer, in chain: UnsafeRawBufferPointer) throws(MultipartError)
    /// Ends the body; the close delimiter is then an op in ``recorder``.
    func finish() throws(MultipartError)
    /// The ops of the last call.
    var recorder: RewriteRecorder { get }
    /// Set once the policy refused the request (the last call's ops must then not be written).
    var rejection: PolicyRejection? { get }
    /// Audit records of the parts completed since the last call.
    func takeAuditRecords() -> [PartAuditRecord]
    /// The request Content-Type announcing the new boundary.
    var contentType: String { get }
}

/// The rewriter for a route: SHA-256 digests of the forwarded parts when they are wanted (routes with
/// `audit: true`), none otherwise (hashing costs about 0.5 s of CPU per GiB).
/// - Parameters:
///   - parser: the parser for the request's boundary (``RequestAdmission/Body/rewrite(_:)``).
///   - route: the route whose policy applies.
///   - digests: whether audit records are wanted in full: SHA-256 digests and the sniffed type of every part.
///   - boundary: the new boundary (default: fresh from the CSPRNG; `partgate rewrite --boundary` fixes it).
///   - uuid: makes `{uuid}` values (default: random version-4 UUIDs).
package func makeBodyRewriter(
    parser: MultipartParser, route: RouteConfiguration, digests: Bool, boundary: Boundary = .fresh(),
    uuid: @escaping @Sendable () -> String = RandomUUID.make
) -> any BodyRewriter {
    digests
        ? PolicyRewriter<SHA256Digest>(parser: parser, route: route, auditDetail: true, boundary: boundary, uuid: uuid)
        : PolicyRewriter<NoPartDigest>(parser: parser, route: route, auditDetail: false, boundary: boundary, uuid: uuid)
}

/// ``BodyRewriter`` with a digest type: SHA-256 when the route audits, none otherwise.
final class PolicyRewriter<Digest: PartDigest>: BodyRewriter {
    private var parser: MultipartParser
    private var filter: PolicyFilter<Digest, RewriteRecorder>

    init(
        parser: MultipartParser, route: RouteConfiguration, auditDetail: Bool, boundary: Boundary = .fresh(),
        uuid: @escaping @Sendable () -> String = RandomUUID.make
    ) {
        self.parser = parser
        filter = PolicyFilter(
            stage: PolicyStage(route: route, auditDetail: auditDetail, uuid: uuid),
            downstream: RewriteRecorder(boundary: boundary))
    }

    func parse(_ span: UnsafeRawBufferPointer, in chain: UnsafeRawBufferPointer) throws(MultipartError) {
        filter.downstream.begin(chain: chain)
        try parser.parse(span, into: &filter)
    }

    func finish() throws(MultipartError) {
        filter.downstream.begin(chain: nil)
        try parser.finish(into: &filter)
    }

    var recorder: RewriteRecorder { filter.downstream }
    var rejection: PolicyRejection? { filter.rejection }
    func takeAuditRecords() -> [PartAuditRecord] { filter.stage.takeAuditRecords() }
    var contentType: String { filter.downstream.encoder.contentType }
}
