/// One audit-log record per part: what came in, what went out, and the decision with the rule behind it.
public struct PartAuditRecord: Sendable, Hashable {
    /// What happened to the part (under `report_only`, what would have happened).
    public enum Decision: String, Sendable, Hashable, CaseIterable {
        /// Forwarded (possibly renamed, re-typed, with headers set).
        case pass
        /// Forwarded up to `max_bytes`, the rest dropped.
        case truncate
        /// Not forwarded.
        case strip
        /// The request was refused at this part.
        case reject
    }

    /// Zero-based index of the part in the body.
    public var index: Int
    /// The field name as received.
    public var name: String
    /// The field name as forwarded; nil when the part was not forwarded.
    public var forwardedName: String?
    /// The filename as received, as the parser read it (after the strict flags that normalise: `%22` replaced,
    /// `filename*` decoded, bad UTF-8 replaced).
    public var filename: String?
    /// The filename as forwarded (sanitised, renamed); nil when the part was not forwarded or has none.
    public var forwardedFilename: String?
    /// The Content-Type as received (canonical form).
    public var declaredType: String?
    /// The Content-Type as forwarded.
    public var forwardedType: String?
    /// The type sniffed from the part's first ≤ 1445 received bytes; nil if the part was refused before any
    /// byte was seen.
    public var sniffedType: String?
    /// Data bytes received from the client (up to the decision, for a refused part).
    public var receivedBytes: Int64
    /// Data bytes forwarded upstream.
    public var forwardedBytes: Int64
    /// The digest (SHA-256 in the engine) of the forwarded bytes; nil when the part was not forwarded.
    public var digest: [UInt8]?
    /// The decision (the would-be decision when ``reportOnly``).
    public var decision: Decision
    /// True under `report_only`: ``decision`` and ``rule`` say what would have happened; the other fields say
    /// what did.
    public var reportOnly: Bool
    /// The rule that decided: the one that stripped, rejected or truncated; for a pass, the last rule that
    /// matched; `default` when no rule matched; `unsafe_filename` / `charset` for the route's own checks.
    public var rule: String?
    /// Every rule that matched, in order.
    public var matchedRules: [String]
    /// Why, in one sentence, for strips, truncations and rejections.
    public var detail: String?

    /// - Parameters: one per property.
    public init(
        index: Int, name: String, forwardedName: String?, filename: String?, forwardedFilename: String?,
        declaredType: String?, forwardedType: String?, sniffedType: String?, receivedBytes: Int64,
        forwardedBytes: Int64, digest: [UInt8]?, decision: Decision, reportOnly: Bool, rule: String?,
        matchedRules: [String], detail: String?
    ) {
        self.index = index
        self.name = name
        self.forwardedName = forwardedName
        self.filename = filename
        self.forwardedFilename = forwardedFilename
        self.declaredType = declaredType
        self.forwardedType = forwardedType
        self.sniffedType = sniffedType
        self.receivedBytes = receivedBytes
        self.forwardedBytes = forwardedBytes
        self.digest = digest
        self.decision = decision
        self.reportOnly = reportOnly
        self.rule = rule
        self.matchedRules = matchedRules
        self.detail = detail
    }

    /// The decision as the audit log writes it: `strip`, or `strip (report-only)`.
    public var decisionText: String {
        reportOnly ? "\(decision.rawValue) (report-only)" : decision.rawValue
    }

    /// The refused part's record without what depends on where in the body the refusal came (how much of the
    /// part had arrived and gone out, and what was known of it by then): the part of it that must be the same
    /// however the body was split (the split tests and FuzzPolicy compare it).
    package var withoutRefusalProgress: PartAuditRecord {
        var record = self
        record.receivedBytes = 0
        record.forwardedBytes = 0
        record.digest = nil
        record.sniffedType = nil
        record.forwardedName = nil
        record.forwardedFilename = nil
        record.forwardedType = nil
        return record
    }
}
