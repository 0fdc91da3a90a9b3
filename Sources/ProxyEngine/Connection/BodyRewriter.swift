import Multipart
import Policy

/// A request body being re-encoded: the multipart parser, the route's policy stage, and the recorder that
/// turns the policy's output into ``BodyOp``s through the canonical encoder.
///
/// `package` so that `partgate rewrite` runs the very pipeline the engine runs.
package protocol BodyRewriter: AnyObject {
    /// Parses body bytes lying in `chain`; ops for them are then in ``recorder``.
    /// - Parameter continuing: the ops of the previous call (bytes of the same chain, not yet written) stay, and
    ///   this call's follow them: a chain's body ranges can be written as one chunk.
    func parse(_ span: UnsafeRawBufferPointer, in chain: UnsafeRawBufferPointer, continuing: Bool)
        throws(MultipartError)
    /// Ends the body; the close delimiter is then an op in ``recorder``.
    /// - Parameter continuing: the ops of the last ``parse(_:in:continuing:)`` (not yet written) stay and the close
    ///   delimiter follows them, so that a body's last bytes and its end go in one write.
    func finish(continuing: Bool) throws(MultipartError)
    /// The ops of the last call.
    var recorder: RewriteRecorder { get }
    /// Runs `body` on the recorder in place (reading ``recorder`` copies it: a dozen reference counts). `body`
    /// must not reach the rewriter again. Not generic: a generic requirement looked up the result type's
    /// metadata at run time on every call.
    func withRecorder(_ body: (borrowing RewriteRecorder) -> Bool) -> Bool
    /// The recorder's ``RewriteRecorder/encodingError``, read in place.
    var encodingError: MultipartEncodingError? { get }
    /// The recorder's ``RewriteRecorder/outputCount``, read in place.
    var outputCount: Int { get }
    /// Set once the policy refused the request (the last call's ops must then not be written).
    var rejection: PolicyRejection? { get }
    /// Calls `body` with the decision of each part completed since the last call and, when the rewriter was made
    /// with `digests` (or the route is report-only), its audit record.
    func drainParts(_ body: (PartDecision, PartAuditRecord?) -> Void)
    /// The parser refused the body: records the part it was in as refused (``PolicyStage/parserRefused(_:)``).
    func parserRefused(_ error: MultipartError)
    /// The new boundary, which the request's Content-Type announces.
    var boundary: Boundary { get }
}

extension BodyRewriter {
    /// Ends the body, the ops of earlier calls dropped.
    package func finish() throws(MultipartError) {
        try finish(continuing: false)
    }

    /// Parses body bytes lying in `chain`, the ops of earlier calls dropped.
    package func parse(_ span: UnsafeRawBufferPointer, in chain: UnsafeRawBufferPointer) throws(MultipartError) {
        try parse(span, in: chain, continuing: false)
    }
}

/// The rewriter for a route: SHA-256 digests of the forwarded parts when they are wanted (routes with
/// `audit: true`), none otherwise (hashing costs about 0.5 s of CPU per GiB).
/// - Parameters:
///   - parser: the parser for the request's boundary (``RequestAdmission/Body/rewrite(_:)``).
///   - route: the route whose policy applies.
///   - digests: whether audit records are wanted, in full: SHA-256 digests and the sniffed type of every part.
///     Without them the policy stage keeps only each part's decision.
///   - boundary: the new boundary (default: fresh from the CSPRNG; `partgate rewrite --boundary` fixes it).
///   - uuid: makes `{uuid}` values (default: random version-4 UUIDs).
package func makeBodyRewriter(
    parser: consuming MultipartParser, route: RouteConfiguration, digests: Bool, boundary: Boundary = .fresh(),
    uuid: @escaping @Sendable () -> String = RandomUUID.make
) -> any BodyRewriter {
    var spare: PolicyRewriter?
    return makeBodyRewriter(
        parser: parser, route: route, digests: digests, boundary: boundary, uuid: uuid, recycling: &spare
    ).rewriter
}

/// ``makeBodyRewriter(parser:route:digests:boundary:uuid:)``, renewing `spare` (taken) when it fits: no digests,
/// and nothing else holds it.
/// - Returns: the rewriter, and the same as a ``PolicyRewriter`` when it is one (it may be renewed later).
func makeBodyRewriter(
    parser: consuming MultipartParser, route: RouteConfiguration, digests: Bool, boundary: Boundary,
    uuid: @escaping @Sendable () -> String = RandomUUID.make, recycling spare: inout PolicyRewriter?
) -> (rewriter: any BodyRewriter, renewable: PolicyRewriter?) {
    if digests {
        spare = nil
        let rewriter = DigestingPolicyRewriter(
            pipeline: RewritePipeline(
                parser: parser, route: route, auditDetail: true, auditRecords: true, boundary: boundary, uuid: uuid))
        return (rewriter, nil)
    }
    if var rewriter = spare.take(), isKnownUniquelyReferenced(&rewriter) {
        rewriter.renew(parser: parser, route: route, boundary: boundary, uuid: uuid)
        return (rewriter, rewriter)
    }
    let rewriter = PolicyRewriter(
        pipeline: RewritePipeline(
            parser: parser, route: route, auditDetail: false, auditRecords: false, boundary: boundary, uuid: uuid),
        route: route)
    return (rewriter, rewriter)
}

/// The parser, the policy stage and the recorder for one body, generic over the digest.
///
/// The two rewriter classes below hold it with a concrete digest type, so that the optimiser specialises the
/// parser, the filter and the stage for it. (A generic class ran them unspecialised behind the protocol
/// witness: the parser called its handler through witness tables and looked up generic metadata 23 times per
/// small request, about 10 k instructions.)
struct RewritePipeline<Digest: PartDigest> {
    var parser: MultipartParser
    var filter: PolicyFilter<Digest, RewriteRecorder>

    init(
        parser: consuming MultipartParser, route: RouteConfiguration, auditDetail: Bool, auditRecords: Bool, boundary: Boundary,
        uuid: @escaping @Sendable () -> String
    ) {
        self.parser = parser
        filter = PolicyFilter(
            stage: PolicyStage(route: route, auditDetail: auditDetail, auditRecords: auditRecords, uuid: uuid),
            downstream: RewriteRecorder(boundary: boundary))
    }

    /// A pipeline for a new body, made as ``init(parser:route:auditDetail:auditRecords:boundary:uuid:)`` makes one
    /// but writing into `old`'s output buffers; `old` must not be used again.
    init(
        parser: consuming MultipartParser, route: RouteConfiguration, auditDetail: Bool, auditRecords: Bool, boundary: Boundary,
        uuid: @escaping @Sendable () -> String, recycling old: inout RewritePipeline
    ) {
        self.parser = parser
        filter = PolicyFilter(
            stage: PolicyStage(route: route, auditDetail: auditDetail, auditRecords: auditRecords, uuid: uuid),
            downstream: RewriteRecorder(boundary: boundary, recycling: &old.filter.downstream))
        filter.stage.adoptBuffers(from: &old.filter.stage)
    }

    /// Starts over on a new body of the route the stage was made for, in place: the parser is replaced, the stage
    /// renewed (``PolicyStage/renew()``) and the recorder made anew in `old`'s buffers.
    mutating func renew(parser: consuming MultipartParser, boundary: Boundary) {
        self.parser = parser
        var recorder = RewriteRecorder(boundary: boundary, recycling: &filter.downstream)
        filter.renew(downstream: &recorder)
    }

    @inline(__always)
    mutating func parse(_ span: UnsafeRawBufferPointer, in chain: UnsafeRawBufferPointer, continuing: Bool = false)
        throws(MultipartError)
    {
        if continuing {
            filter.downstream.resume(chain: chain)
        } else {
            filter.downstream.begin(chain: chain)
        }
        try parser.parse(span, into: &filter)
    }

    @inline(__always)
    mutating func finish(continuing: Bool = false) throws(MultipartError) {
        if !continuing { filter.downstream.begin(chain: nil) }
        try parser.finish(into: &filter)
    }
}

/// A ``BodyRewriter`` holding a ``RewritePipeline`` of a concrete digest type: the requirements are written once,
/// here, and specialised for each conforming class.
protocol PipelineRewriter: BodyRewriter {
    associatedtype Digest: PartDigest
    var pipeline: RewritePipeline<Digest> { get set }
}

extension PipelineRewriter {
    func parse(_ span: UnsafeRawBufferPointer, in chain: UnsafeRawBufferPointer, continuing: Bool)
        throws(MultipartError)
    {
        try pipeline.parse(span, in: chain, continuing: continuing)
    }

    func finish(continuing: Bool) throws(MultipartError) { try pipeline.finish(continuing: continuing) }
    var recorder: RewriteRecorder { inPlace { $0.filter.downstream } }
    func withRecorder(_ body: (borrowing RewriteRecorder) -> Bool) -> Bool {
        // Through an inout access: passing `pipeline.filter.downstream` straight copied the whole pipeline.
        func run(_ pipeline: inout RewritePipeline<Digest>) -> Bool { body(pipeline.filter.downstream) }
        return run(&pipeline)
    }
    var encodingError: MultipartEncodingError? { pipeline.filter.downstream.encodingError }
    var outputCount: Int { pipeline.filter.downstream.outputCount }
    var rejection: PolicyRejection? { inPlace { $0.filter.rejection } }
    func drainParts(_ body: (PartDecision, PartAuditRecord?) -> Void) { pipeline.filter.stage.drainParts(body) }
    func parserRefused(_ error: MultipartError) { pipeline.filter.stage.parserRefused(error) }
    var boundary: Boundary { inPlace { $0.filter.downstream.encoder.boundary } }

    /// Reads the pipeline where it lies (through the property's modify accessor): the getter would copy the
    /// whole pipeline, parser and policy stage included, to read one field of it.
    private func inPlace<Value>(_ read: (inout RewritePipeline<Digest>) -> Value) -> Value {
        read(&pipeline)
    }
}

/// ``BodyRewriter`` for routes without audit digests.
final class PolicyRewriter: PipelineRewriter {
    var pipeline: RewritePipeline<NoPartDigest>
    /// The route the pipeline's policy stage was made for.
    private var route: RouteConfiguration

    init(pipeline: RewritePipeline<NoPartDigest>, route: RouteConfiguration) {
        self.pipeline = pipeline
        self.route = route
    }

    /// Starts over on a new body: it then acts as ``makeBodyRewriter(parser:route:digests:boundary:uuid:)`` would
    /// make it, but keeps the object and its output buffers (a keep-alive connection's next request allocates
    /// neither). For the very route of the last body (``RouteConfiguration/isSameValue(as:)``, the usual case) the
    /// policy stage is renewed in place and keeps the `{uuid}` source it was made with; for another route
    /// everything else is made anew.
    func renew(parser: consuming MultipartParser, route: RouteConfiguration, boundary: Boundary, uuid: @escaping @Sendable () -> String) {
        if route.isSameValue(as: self.route) {
            pipeline.renew(parser: parser, boundary: boundary)
            return
        }
        self.route = route
        pipeline = RewritePipeline(
            parser: parser, route: route, auditDetail: false, auditRecords: false, boundary: boundary, uuid: uuid,
            recycling: &pipeline)
    }

    /// Whether the rewriter may be kept for the connection's next body (``renew(parser:route:boundary:uuid:)``).
    var isRecyclable: Bool { pipeline.filter.downstream.buffersAreSmall }

}

/// ``BodyRewriter`` for auditing routes: SHA-256 digests of the forwarded parts.
final class DigestingPolicyRewriter: PipelineRewriter {
    var pipeline: RewritePipeline<SHA256Digest>
    init(pipeline: RewritePipeline<SHA256Digest>) { self.pipeline = pipeline }
}
