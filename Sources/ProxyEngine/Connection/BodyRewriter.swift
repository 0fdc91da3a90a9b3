import Multipart
import Policy

/// A request body being re-encoded: the multipart parser, the route's policy stage, and the recorder that
/// turns the policy's output into ``BodyOp``s through the canonical encoder.
protocol BodyRewriter: AnyObject {
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

/// ``BodyRewriter`` with a digest type: SHA-256 when the route audits, none otherwise (hashing costs about
/// 0.5 s of CPU per GiB, so it is only paid for when the audit log wants it).
final class PolicyRewriter<Digest: PartDigest>: BodyRewriter {
    private var parser: MultipartParser
    private var filter: PolicyFilter<Digest, RewriteRecorder>

    init(parser: MultipartParser, route: RouteConfiguration) {
        self.parser = parser
        filter = PolicyFilter(stage: PolicyStage(route: route), downstream: RewriteRecorder(boundary: Boundary.random()))
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
