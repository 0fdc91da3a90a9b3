/// What the rules decided for one part: the outcome and, for a forwarded part, the actions gathered from every
/// matching rule in order.
struct PartPlan: Sendable {
    /// One change to the forwarded head's Content-Type or other headers, in rule order.
    enum HeaderOperation: Sendable, Hashable {
        /// `remove_headers` (Content-Type included).
        case remove(String)
        /// `set_headers` (a `Content-Type` entry sets the Content-Type).
        case set(Rule.HeaderField)
        /// `sniff.set_content_type`.
        case setSniffedType
    }

    /// A `max_bytes` cap: the smallest of the matching rules' (the earlier rule on a tie).
    struct Cap: Sendable, Hashable {
        var bytes: Int64
        var action: Rule.ExceedAction
        var rule: String
    }

    /// A `sniff.validate` requirement.
    struct Validation: Sendable, Hashable {
        var rule: String
        var onMismatch: SniffRule.MismatchAction
    }

    /// The part's fate.
    enum Outcome: Sendable {
        case forward
        case strip(rule: String, detail: String)
        case reject(PolicyRejection)
    }

    var outcome = Outcome.forward
    /// Names of the rules that matched, in order.
    var matchedRules: [String] = []
    /// The last matching rule's `rename.field`.
    var fieldTemplate: NameTemplate?
    /// The last matching rule's `rename.filename`.
    var filenameTemplate: NameTemplate?
    var headerOperations: [HeaderOperation] = []
    var cap: Cap?
    /// The first rule asking for validation; its mismatch action becomes `reject` if any such rule says so.
    var validation: Validation?

    /// Back to a new plan's values, the lists keeping their capacity (a part's plan is built in the last one's).
    mutating func reset() {
        if case .forward = outcome {} else { outcome = .forward }
        matchedRules.removeAll(keepingCapacity: true)
        if fieldTemplate != nil { fieldTemplate = nil }
        if filenameTemplate != nil { filenameTemplate = nil }
        headerOperations.removeAll(keepingCapacity: true)
        if cap != nil { cap = nil }
        if validation != nil { validation = nil }
    }

    /// The rule named in the audit record: the deciding rule, else the last match, else `default`.
    var rule: String {
        switch outcome {
        case .strip(let rule, _): return rule
        case .reject(let rejection): return rejection.rule
        case .forward: return matchedRules.last ?? PartEvaluator.defaultRuleName
        }
    }
}
