import Multipart
import Sniff

/// The per-part policy stage: a route's rules, default action, filename and charset checks applied to the
/// multipart parser's events, as a pure state machine that says exactly what to write.
///
/// ## Driving it
/// Feed it the parser's events in order; each returns an action the caller carries out before the next event
/// (``PolicyFilter`` does this for any downstream ``MultipartHandler``, which is all the engine needs):
///
/// | event | action | write, in this order |
/// |---|---|---|
/// | ``partHead(_:)`` | ``PolicyHeadAction/writeHead(_:)`` | encode the head |
/// | ``partBody(_:)`` with span `bytes` | ``PolicyBodyAction/forward(_:)`` `r` | `bytes[r]` (a prefix of the span) |
/// | | ``PolicyBodyAction/release(head:held:forward:)`` | encode `head`, copy `held`, then `bytes[forward]` |
/// | ``partEnd()`` | ``PolicyEndAction/endPart`` | end the part |
/// | | ``PolicyEndAction/release(head:held:)`` | encode `head`, copy `held`, end the part |
/// | any | `.none` | nothing |
/// | any | `.reject(r)` | nothing more for this request; answer `r` |
///
/// Zero-copy: body bytes are only ever forwarded as ranges of the span just given, which the engine still
/// holds in its input and can move; the only bytes the stage owns are `held`, the part's first ≤ 1445 bytes
/// (the sniff window) from earlier events, released once when the part is decided. A stripped part produces
/// nothing at all; a truncated one produces ranges up to `max_bytes`, then nothing. After a rejection every
/// later call returns `.none`; the engine aborts the upstream request if anything of the body went already
/// (stream mode) or discards the spool.
///
/// ## When parts are decided
/// - **Head time**: the filename treatment (`unsafe_filenames`), the part's `charset=`, and the rules when no
///   matching rule needs the sniffed type. The head is written at once and the bytes stream through.
/// - **Sniff time**: when a rule whose head conditions hold has a `sniffed_type` condition or a `sniff:` action,
///   the head and bytes are held until the window is full (1445 bytes) or the part ends, whichever comes
///   first; then the rules run again with the sniffed type (of the first ≤ 1445 received bytes). `_charset_`
///   fields and parts under an `on_exceed: strip` cap below 1445 bytes are held the same way. The decision
///   looks at the window's bytes only; the rest of the span that filled it is then treated as streamed, so
///   every outcome is the same however the body was split.
/// - **Size time**: past `max_bytes` (the smallest of the matching rules'): `reject` refuses with 413,
///   `truncate` forwards the first `max_bytes` bytes, `strip` drops a part still held and otherwise refuses
///   with 413, since bytes already written upstream cannot be taken back.
/// - **Part end**: `validate` (PNG, JPEG, GIF, WebP, PDF walkers over the forwarded bytes; a failure known
///   earlier, such as a byte after `IEND`, refuses at once) and `_charset_` values. A part still held is
///   stripped or refused cleanly; a streamed one can only be refused (415).
///
/// Rules run in order and every matching rule's actions apply (the last rename per name wins, header
/// operations in order, the smallest cap); `strip`, `reject` and a failed sniff check end the evaluation; the
/// route's `default:` applies when no rule matched. Forwarded heads carry no client headers other than
/// Content-Disposition and Content-Type. docs/policy.md has the full semantics.
///
/// ## Report-only
/// With `report_only: true`, the stage forwards exactly what the route would forward without rules (no rules,
/// `default: pass`, no charset check, `unsafe_filenames: reject` treated as `sanitize`) and evaluates the real
/// policy alongside: audit records carry the would-be decision (``PartAuditRecord/reportOnly``). It refuses
/// only a filename that has no safe spelling under `unsafe_filenames: allow`.
///
/// The stage holds the current part's head, its sniff window, a digest state and a walker, whatever the size
/// of the body.
///
/// Callers in other modules reach the generic entry points, which look up the stage's type metadata on every
/// access; the entry points are specialized for ``NoPartDigest`` (no audit digests, the usual route), which
/// they jump to at once.
public struct PolicyStage<Digest: PartDigest> {
    private var enforcer: PartPolicyMachine<Digest>
    /// Under report-only: the real policy, whose outputs are discarded. Boxed: most routes have none, and an
    /// inline optional machine made every stage twice as large (copied while a stage is built and moved into
    /// place, per request).
    private var shadow: ShadowMachine?
    private var wouldBe: [Int: PartAuditRecord] = [:]
    private var completed: [PartAuditRecord] = []
    /// Under report-only with `unsafe_filenames: reject`: the parser normalises `unsafe_filename` instead of
    /// refusing (``RouteConfiguration/reportOnlyNormalizesUnsafeFilename``), and these parts' would-be decision is
    /// that refusal.
    private let refusesNormalizedFilenames: Bool
    private var refusedFilenameParts: Set<Int> = []
    /// True once ``end()`` was called.
    public private(set) var ended = false

    /// A stage for one request body.
    /// - Parameters:
    ///   - route: the route whose policy applies.
    ///   - auditDetail: whether audit records name the sniffed type of parts no rule sniffed (for audit lines;
    ///     it costs a sniff per part). Without it, a record carries the sniffed type only when a rule sniffed.
    ///   - auditRecords: whether to keep a full audit record per part; without them (and not report-only),
    ///     ``drainParts(_:)`` gives only each part's decision and ``takeAuditRecords()`` nothing.
    ///   - uuid: makes `{uuid}` values (default: random version-4 UUIDs); tests inject a fixed sequence.
    @_specialize(where Digest == NoPartDigest)
    public init(
        route: RouteConfiguration, auditDetail: Bool = true, auditRecords: Bool = true,
        uuid: @escaping @Sendable () -> String = RandomUUID.make
    ) {
        var settings = PolicySettings(route: route)
        settings.sniffsForAudit = auditDetail
        // Report-only records carry the would-be decisions, matched to the real ones by part: always kept.
        settings.keepsRecords = auditRecords || route.reportOnly
        refusesNormalizedFilenames = route.reportOnlyNormalizesUnsafeFilename
        if route.reportOnly {
            var baseline = PolicySettings.baseline(of: route)
            baseline.sniffsForAudit = auditDetail
            enforcer = PartPolicyMachine(settings: baseline, uuid: uuid)
            settings.sniffsForAudit = false  // only the shadow's decision and rule reach the records
            shadow = ShadowMachine(PartPolicyMachine(settings: settings, uuid: uuid))
        } else {
            enforcer = PartPolicyMachine(settings: settings, uuid: uuid)
            shadow = nil
        }
    }

    /// Takes the buffers of `old`, a stage whose body ended, that a new stage would allocate again (the list of part
    /// decisions); `old` must not be used again.
    public mutating func adoptBuffers(from old: inout PolicyStage) {
        enforcer.adoptDecisions(from: &old.enforcer)
    }

    /// Starts over on a new body of the route the stage was made for: afterwards it acts as a stage made anew
    /// with the same arguments, except that the `{uuid}` source is the one it was made with. Nothing is allocated
    /// and nothing of the route is copied again (a new stage for each body of a keep-alive connection built the
    /// policy settings and the rule evaluator again, and destroyed the old ones: ~2 k instructions per request).
    @_specialize(where Digest == NoPartDigest)
    public mutating func renew() {
        enforcer.reset()
        shadow?.machine.reset()
        if !wouldBe.isEmpty { wouldBe.removeAll() }
        completed.removeAll(keepingCapacity: true)
        if !refusedFilenameParts.isEmpty { refusedFilenameParts.removeAll() }
        ended = false
    }

    /// Whether the route is report-only.
    public var isReportOnly: Bool { shadow != nil }

    /// The rejection, once the request was refused; every later event is ignored.
    public var rejection: PolicyRejection? { enforcer.rejection }

    /// The audit records of the parts completed (or refused) since the last call, in body order.
    @_specialize(where Digest == NoPartDigest)
    public mutating func takeAuditRecords() -> [PartAuditRecord] {
        // Enforcing, the records stay in the machine until taken: no move (or copy) per event.
        if shadow == nil { return enforcer.takeRecords() }
        var taken: [PartAuditRecord] = []
        swap(&taken, &completed)
        return taken
    }

    /// Calls `body` with the decision of each part completed (or refused) since the last call, in body order,
    /// and its audit record when the stage keeps them; then forgets them.
    @_specialize(where Digest == NoPartDigest)
    public mutating func drainParts(_ body: (PartDecision, PartAuditRecord?) -> Void) {
        guard shadow != nil else {
            enforcer.drain(body)
            return
        }
        for index in completed.indices { body(PartDecision(completed[index]), completed[index]) }
        completed.removeAll(keepingCapacity: true)
    }

    /// A part's head was parsed.
    /// - Parameter head: the head as the parser emitted it.
    /// - Returns: whether to encode a head now.
    @_specialize(where Digest == NoPartDigest)
    public mutating func partHead(_ head: consuming PartHead) -> PolicyHeadAction {
        guard rejection == nil else { return .none }
        if shadow != nil { _ = shadow!.machine.partHead(copy head) }
        defer { collectRecords() }
        return enforcer.partHead(consume head)
    }

    /// A part's head was parsed: as ``partHead(_:)``, but a head to write is lent to `downstream`
    /// (``MultipartHandler/forwardHead(_:)``) straight from the machine that made it, with no copy.
    mutating func partHead<Downstream: MultipartHandler>(
        _ head: consuming PartHead, writingTo downstream: inout Downstream
    ) {
        guard rejection == nil else { return }
        if shadow != nil { _ = shadow!.machine.partHead(copy head) }
        // No `defer`: with one, the optimiser copied the head into the call and destroyed the original after it.
        if case .write = enforcer.headStep(head) {
            downstream.forwardHead(enforcer.output)
        }
        collectRecords()
    }

    /// Bytes of the current part.
    /// - Parameter bytes: the span the parser emitted; ranges in the action index it.
    /// - Returns: what to write of it (and of the held bytes).
    @_specialize(where Digest == NoPartDigest)
    public mutating func partBody(_ bytes: UnsafeRawBufferPointer) -> PolicyBodyAction {
        guard rejection == nil else { return .none }
        if shadow != nil { _ = shadow!.machine.partBody(bytes) }
        defer { collectRecords() }
        return enforcer.partBody(bytes)
    }

    /// The current part ended.
    /// - Returns: whether to end the part (and whether a held part is written first).
    @_specialize(where Digest == NoPartDigest)
    public mutating func partEnd() -> PolicyEndAction {
        guard rejection == nil else { return .none }
        if shadow != nil { _ = shadow!.machine.partEnd() }
        defer { collectRecords() }
        return enforcer.partEnd()
    }

    /// The parser normalised a strict flag (``MultipartHandler/violation(_:)``). Under report-only, a filename the
    /// enforcing route would have refused at the parser makes that part's would-be decision a rejection.
    public mutating func violation(_ violation: MultipartViolation) {
        guard refusesNormalizedFilenames, violation.flag == .unsafeFilename, let part = violation.part else { return }
        refusedFilenameParts.insert(part)
    }

    /// The parser refused the request (`error`): the part it was in, if the policy saw its head, gets a record
    /// refused by the limit or flag that fired. Enforced on report-only routes too, so not marked report-only.
    public mutating func parserRefused(_ error: MultipartError) {
        guard rejection == nil, let part = error.part else { return }
        let what = error.isLimit ? "limit" : "strict flag"
        enforcer.parserRefused(part: part, flag: error.name, detail: "part \(part) refused by the \(what) \(error.name)")
        collectRecords()
    }

    /// The body ended well-formed. Nothing is pending then: the parser ends every part first.
    public mutating func end() {
        ended = true
    }

    /// Under report-only, moves finished records to ``takeAuditRecords()``, each with its would-be decision.
    /// Enforcing, records stay in the machine until taken.
    private mutating func collectRecords() {
        guard shadow != nil else { return }
        if shadow!.machine.hasRecords {
            for record in shadow!.machine.takeRecords() { wouldBe[record.index] = record }
        }
        guard enforcer.hasRecords else { return }
        for var record in enforcer.takeRecords() {
            let would = wouldBe.removeValue(forKey: record.index)
            // The baseline's own refusal (a filename with no safe spelling) was carried out: not report-only.
            guard record.decision != .reject else {
                completed.append(record)
                continue
            }
            record.reportOnly = true
            if refusedFilenameParts.remove(record.index) != nil {
                record.decision = .reject
                record.rule = PolicyRejection.Reason.unsafeFilename.rawValue
                record.matchedRules = would?.matchedRules ?? []
                record.detail = "part \(record.index) has a filename with a quote, backslash, %22, %0D or %0A "
                    + "(strict flag unsafe_filename; unsafe_filenames: reject)"
            } else if let would {
                record.decision = would.decision
                record.rule = would.rule
                record.matchedRules = would.matchedRules
                record.detail = would.detail
            }
            completed.append(record)
        }
    }
}

/// A report-only stage's shadow machine, behind a reference. Only its stage reaches it.
final class ShadowMachine {
    var machine: PartPolicyMachine<NoPartDigest>
    init(_ machine: PartPolicyMachine<NoPartDigest>) { self.machine = machine }
}
