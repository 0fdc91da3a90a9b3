import Multipart
import Sniff

/// Runs a route's rules over one part's facts (the semantics DESIGN.md "Policy" gives them).
///
/// Rules run in order and every matching rule contributes its actions: renames (the last template per name
/// wins; templates always render from the original values), header operations (in order, `remove_headers`
/// before `set_headers` within a rule), the smallest `max_bytes`, sniff checks and validation. `strip`,
/// `reject` and a failed sniff check end the evaluation. A part no rule matched gets the route's `default`.
///
/// A rule whose part-head conditions hold but that needs the sniffed type (a `sniffed_type` condition, or a
/// `sniff:` action) stops a head-time evaluation: ``evaluate(_:)`` returns nil and the stage holds the part's
/// window until it can evaluate again with the sniffed type. Evaluation is deterministic, so running it again
/// with more facts gives the same result for every rule before that point.
struct PartEvaluator: Sendable {
    /// The name the audit log and rejections give the route's `default:` action.
    static let defaultRuleName = "default"

    let rules: [Rule]
    let defaultAction: RouteConfiguration.DefaultPartAction

    /// The plan for a part, or nil when a rule needs the sniffed type and `facts.sniffed` is nil.
    func evaluate(_ head: PartHead, _ facts: PartFacts) -> PartPlan? {
        var plan = PartPlan()
        return evaluate(head, facts, into: &plan) ? plan : nil
    }

    /// As ``evaluate(_:_:)``, into the caller's plan, which is reset first and built in place (a returned plan was
    /// copied once more; an optional one was destroyed and made through its type's generic witnesses).
    /// - Returns: false, the plan unfinished, when a rule needs the sniffed type and `facts.sniffed` is nil.
    func evaluate(_ head: PartHead, _ facts: PartFacts, into plan: inout PartPlan) -> Bool {
        plan.reset()
        let index = head.index
        for rule in rules {
            guard Self.headConditionsHold(rule.match, head, facts) else { continue }
            if let globs = rule.match.sniffedType {
                guard let sniffed = facts.sniffed else { return false }
                guard globs.contains(where: { $0.matches(sniffed.mimeType) }) else { continue }
            }
            plan.matchedRules.append(rule.name)
            if let reject = rule.reject {
                plan.outcome = .reject(
                    PolicyRejection(
                        status: reject.status, reason: .rule, rule: rule.name, partIndex: index,
                        detail: "part \(index) ('\(head.name)') is refused by rule '\(rule.name)'"))
                return true
            }
            if rule.strip {
                plan.outcome = .strip(rule: rule.name, detail: "stripped by rule '\(rule.name)'")
                return true
            }
            gather(rule, into: &plan)
            if let sniff = rule.sniff {
                guard let sniffed = facts.sniffed else { return false }
                if let failure = Self.sniffFailure(sniff, sniffed, head, facts) {
                    switch sniff.onMismatch {
                    case .reject:
                        plan.outcome = .reject(
                            PolicyRejection(
                                status: 415, reason: failure.reason, rule: rule.name, partIndex: index,
                                detail: failure.detail))
                    case .strip:
                        plan.outcome = .strip(rule: rule.name, detail: failure.detail)
                    }
                    return true
                }
                if sniff.setContentType { plan.headerOperations.append(.setSniffedType) }
                if sniff.validate {
                    if plan.validation == nil {
                        plan.validation = PartPlan.Validation(rule: rule.name, onMismatch: sniff.onMismatch)
                    } else if sniff.onMismatch == .reject {
                        plan.validation?.onMismatch = .reject
                    }
                }
            }
        }
        if plan.matchedRules.isEmpty {
            switch defaultAction {
            case .pass:
                break
            case .strip:
                plan.outcome = .strip(rule: Self.defaultRuleName, detail: "no rule matched (default: strip)")
            case .reject:
                plan.outcome = .reject(
                    PolicyRejection(
                        status: 403, reason: .defaultAction, rule: Self.defaultRuleName, partIndex: index,
                        detail: "part \(index) ('\(head.name)') matches no rule (default: reject)"))
            }
        }
        return true
    }

    /// Adds a matching rule's non-terminal actions.
    private func gather(_ rule: Rule, into plan: inout PartPlan) {
        if let rename = rule.rename {
            if let field = rename.field { plan.fieldTemplate = field }
            if let filename = rename.filename { plan.filenameTemplate = filename }
        }
        for name in rule.removeHeaders { plan.headerOperations.append(.remove(name)) }
        for header in rule.setHeaders { plan.headerOperations.append(.set(header)) }
        if let bytes = rule.maxBytes, bytes < plan.cap?.bytes ?? .max {
            plan.cap = PartPlan.Cap(bytes: bytes, action: rule.onExceed, rule: rule.name)
        }
    }

    /// Every condition of `match` except `sniffed_type`.
    static func headConditionsHold(_ match: RuleMatch, _ head: PartHead, _ facts: PartFacts) -> Bool {
        // A name matches as sent or as a backend may read it (``FieldNameAliases``); a filename as sent or as it
        // is forwarded (sanitised: `x.php.` goes as `x.php`).
        if let globs = match.field,
            !globs.contains(where: { glob in glob.matches(head.name) || facts.fieldAliases.contains(where: glob.matches) })
        {
            return false
        }
        if let globs = match.filename {
            guard let filename = head.filename,
                globs.contains(where: { glob in glob.matches(filename) || facts.filename.map(glob.matches) == true })
            else { return false }
        }
        if let hasFilename = match.hasFilename, hasFilename != head.hasFilename { return false }
        if let globs = match.declaredType, !globs.contains(where: { $0.matches(facts.declaredEssence) }) {
            return false
        }
        if let globs = match.extension {
            guard let fileExtension = facts.fileExtension,
                globs.contains(where: { $0.matches(String(fileExtension.dropFirst())) })
            else { return false }
        }
        return true
    }

    /// The first failing check of a `sniff:` action, or nil. An empty part with an empty filename (a file input
    /// left empty) passes every check.
    private static func sniffFailure(
        _ sniff: SniffRule, _ sniffed: SniffResult, _ head: PartHead, _ facts: PartFacts
    ) -> (reason: PolicyRejection.Reason, detail: String)? {
        let index = head.index
        // "No file chosen": browsers send an empty part with `filename=""`; there is no content to check.
        if head.filename?.isEmpty == true, sniffed.signature == "empty" { return nil }
        if let allow = sniff.allow, !allow.contains(where: { $0.matches(sniffed.mimeType) }) {
            return (.typeNotAllowed, "part \(index) is \(sniffed.mimeType), which is not allowed")
        }
        if sniff.extensionMustMatch {
            guard let fileExtension = facts.fileExtension,
                FileExtensions.matches(extension: fileExtension, mimeType: sniffed.mimeType)
            else {
                let shown = facts.fileExtension.map { "'\($0)'" } ?? "no extension"
                return (.extensionMismatch, "part \(index) has \(shown) but its content is \(sniffed.mimeType)")
            }
        }
        return nil
    }

    /// The essence of a canonical Content-Type (`image/png` of `image/png; x=y`), `text/plain` when absent.
    static func essence(of contentType: String?) -> String {
        guard let contentType else { return "text/plain" }
        // Over UTF-8 (`;` is ASCII): a Character walk cost about 1 k instructions per part.
        guard let semicolon = contentType.firstUTF8Offset(of: UInt8(ascii: ";")) else { return contentType }
        return String(contentType[..<contentType.utf8Index(at: semicolon)])
    }
}
