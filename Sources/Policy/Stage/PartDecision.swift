/// A part's fate without the rest of its audit record: what the engine counts in its metrics for every part,
/// whether or not the route writes audit lines.
public struct PartDecision: Sendable, Hashable {
    /// The decision (the would-be decision when ``reportOnly``).
    public var decision: PartAuditRecord.Decision
    /// True under `report_only`.
    public var reportOnly: Bool
    /// The rule behind the decision (see ``PartAuditRecord/rule``).
    public var rule: String?

    /// - Parameters: one per property.
    public init(decision: PartAuditRecord.Decision, reportOnly: Bool, rule: String?) {
        self.decision = decision
        self.reportOnly = reportOnly
        self.rule = rule
    }

    /// The decision of a full record.
    public init(_ record: PartAuditRecord) {
        self.init(decision: record.decision, reportOnly: record.reportOnly, rule: record.rule)
    }
}
