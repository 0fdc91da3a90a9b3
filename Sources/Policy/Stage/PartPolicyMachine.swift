import Multipart
import Sniff

/// The enforcing core of ``PolicyStage``: takes one part at a time through head time, sniff time, size time
/// and part end, and says what to write at each event.
///
/// Phases of the current part:
/// - `holding`: the head (and any bytes so far, in the window) are held because a decision needs the sniffed
///   type, the value of a `_charset_` field, or a `strip` cap small enough to be decided before anything goes;
/// - `streaming`: the head was written; bytes are forwarded up to the cap and fed to the digest and walker;
/// - `dropping`: stripped; nothing of the part was or will be written;
/// - `rejected`: the request was refused at this part.
struct PartPolicyMachine<Digest: PartDigest> {
    enum Phase: Sendable, Hashable {
        case idle
        case holding
        case streaming
        case dropping
        case rejected
    }

    /// The outcome of deciding a held part on its window.
    enum Release {
        /// Stripped.
        case none
        /// Write the head and the window's first `forwardCount` bytes.
        case release(PartHead, forwardCount: Int)
        case reject(PolicyRejection)
    }

    let settings: PolicySettings
    let evaluator: PartEvaluator
    let uuid: @Sendable () -> String

    var phase = Phase.idle
    /// The first rejection (the request is refused at it).
    private(set) var rejection: PolicyRejection?
    private var records: [PartAuditRecord] = []
    /// The decisions of completed parts, when the settings keep no records.
    private var decisions: [PartDecision] = []

    // The current part.
    /// Its head as received: the one copy the machine keeps (facts, plans and the forwarded head refer to it).
    /// Not optional, as `facts` is not: `current!.name` copies the whole head before it reads the name. Before
    /// the first part they hold placeholders (index -1) that nothing reads.
    var current = PartHead(index: -1, name: "")
    var facts = PartFacts(declaredEssence: "")
    /// The plan, when ``hasPlan``: found at head time if no rule needed the sniffed type (a held part keeps it until
    /// it is decided), else found when the held part is decided; the part is forwarded under it. Not optional: each
    /// part's plan is built in the last one's (``PartEvaluator/evaluate(_:_:into:)``), where an optional plan was
    /// destroyed and made anew through its type's generic witnesses, and its list of matched rules allocated, per
    /// part.
    var plan = PartPlan()
    /// Whether ``plan`` is the current part's.
    var hasPlan = false
    /// The head as forwarded, when ``hasOutput`` (a placeholder otherwise, like `current` before the first part).
    /// Not optional: a stage lends it to the encoder where it lies, where `output!` copied it, and an optional head
    /// was destroyed through its type's generic witness.
    var output = PartHead(index: -1, name: "")
    /// Whether ``output`` holds the current part's forwarded head (set by ``makeOutput()``).
    var hasOutput = false
    var window = SniffWindow()
    var sniffed: SniffResult?
    var digest = Digest()
    var walker: StructureWalker?
    var received: Int64 = 0
    var forwarded: Int64 = 0
    var truncated = false
    /// The part is a `_charset_` field whose value must be checked at its end.
    var holdsCharsetValue = false
    var stripped: (rule: String, detail: String)?
    /// The index of the last part whose fate was recorded.
    private var recordedThrough = -1

    init(settings: PolicySettings, uuid: @escaping @Sendable () -> String) {
        self.settings = settings
        self.evaluator = PartEvaluator(rules: settings.rules, defaultAction: settings.defaultAction)
        self.uuid = uuid
    }

    /// Takes `old`'s list of part decisions, emptied, its capacity kept: a stage renewed for a keep-alive
    /// connection's next body allocates none.
    mutating func adoptDecisions(from old: inout PartPolicyMachine) {
        guard decisions.capacity == 0, old.decisions.capacity <= 64 else { return }
        swap(&decisions, &old.decisions)
        decisions.removeAll(keepingCapacity: true)
    }

    /// Starts over on a new body: every per-body property back to its initial value (the settings, the rules and
    /// the `{uuid}` source stay; the lists keep their capacity). Each stored `var` above is set here or in
    /// ``clearPart()``. The last
    /// part's head, facts, plan and output stay until the next part replaces them, as they do between parts:
    /// nothing reads them before, with `current`'s index back at -1 and ``hasOutput`` false (assigning placeholders
    /// copied and destroyed heads, a thousand instructions per body).
    mutating func reset() {
        rejection = nil
        records.removeAll(keepingCapacity: true)
        decisions.removeAll(keepingCapacity: true)
        current.index = -1
        digest = Digest()
        recordedThrough = -1
        clearPart()
    }

    /// Whether records are waiting for ``takeRecords()``.
    var hasRecords: Bool { !records.isEmpty }

    /// Calls `body` with the decision and, if the settings keep records, the record of each part completed since
    /// the last call, in body order, then forgets them.
    mutating func drain(_ body: (PartDecision, PartAuditRecord?) -> Void) {
        if settings.keepsRecords {
            for index in records.indices { body(PartDecision(records[index]), records[index]) }
            records.removeAll(keepingCapacity: true)
        } else {
            for index in decisions.indices { body(decisions[index], nil) }
            decisions.removeAll(keepingCapacity: true)
        }
    }

    /// The audit records completed since the last call.
    mutating func takeRecords() -> [PartAuditRecord] {
        var taken: [PartAuditRecord] = []
        swap(&taken, &records)
        return taken
    }

    // MARK: Events

    mutating func partHead(_ head: consuming PartHead) -> PolicyHeadAction {
        switch headStep(consume head) {
        case .write: return .writeHead(output)
        case .none: return .none
        case .reject(let rejection): return .reject(rejection)
        }
    }

    /// What ``headStep(_:)`` decided: `write` means the head to write is ``output``.
    enum HeadStep {
        case write
        case none
        case reject(PolicyRejection)
    }

    /// ``partHead(_:)`` without returning the head to write: it stays in ``output``, where a filter lends it
    /// to the encoder (a returned head was copied once into the action and once out of it).
    mutating func headStep(_ head: consuming PartHead) -> HeadStep {
        // Stored as `current` without a copy; read from there on.
        startPart(consume head)
        var filename: String?
        if let original = current.filename {
            switch settings.unsafeFilenames {
            case .sanitize:
                filename = SafeName.sanitizeFilename(original)
            case .reject:
                guard SafeName.isSafeFilename(original) else {
                    return .reject(unsafeFilename("has an unsafe filename (unsafe_filenames: reject)"))
                }
                filename = original
            case .allow:
                guard SafeName.isEncodable(original) else {
                    return .reject(unsafeFilename("has a filename with no safe spelling"))
                }
                filename = original
            }
        }
        if let allowed = settings.charsets, let contentType = current.contentType,
            let charset = PartCharset.charset(in: contentType), !allowed.contains(charset)
        {
            return .reject(charsetRejection("declares charset '\(charset)', which is not allowed"))
        }
        // Assigned in place, not through locals: each local copy cost a reference count per string.
        facts = PartFacts(
            filename: filename, fieldAliases: FieldNameAliases.aliases(of: current.name),
            fileExtension: settings.usesFileExtension ? filename.flatMap(FileExtensions.fileExtension(ofFilename:)) : nil,
            declaredEssence: PartEvaluator.essence(of: current.contentType))
        holdsCharsetValue = settings.charsets.isSome && PartCharset.isCharsetField(current.name)
        hasPlan = evaluator.evaluate(current, facts, into: &plan)
        guard hasPlan else {
            phase = .holding
            return .none
        }
        switch plan.outcome {
        case .reject(let refusal):
            return .reject(reject(refusal))
        case .strip(let rule, let detail):
            strip(rule: rule, detail: detail)
            return .none
        case .forward:
            if holdsCharsetValue || plan.cap.map({ $0.action == .strip && $0.bytes < Int64(sniffWindowSize) }) == true {
                phase = .holding
                return .none
            }
            makeOutput()
            phase = .streaming
            return .write
        }
    }

    mutating func partBody(_ bytes: UnsafeRawBufferPointer) -> PolicyBodyAction {
        let earlier = window.count
        // Only a held part's window decides anything; otherwise it is read only for an audit line's sniffed type.
        if !window.isFull, phase == .holding || settings.sniffsForAudit { window.append(bytes) }
        received += Int64(bytes.count)
        switch phase {
        case .idle, .rejected, .dropping:
            return .none
        case .streaming:
            return stream(bytes)
        case .holding:
            // A `_charset_` value is judged whole, at its end; other held parts as soon as they pass the cap.
            let exceeded = !holdsCharsetValue && hasPlan && plan.cap.map { Int64(window.count) > $0.bytes } == true
            guard exceeded || window.isFull else { return .none }
            return release(bytes, earlier: earlier)
        }
    }

    mutating func partEnd() -> PolicyEndAction {
        switch phase {
        case .idle, .rejected:
            return .none
        case .dropping:
            finishPart(.strip)
            return .none
        case .holding:
            switch decide(atEnd: true) {
            case .none:
                finishPart(.strip)
                return .none
            case .reject(let refusal):
                return .reject(refusal)
            case .release(let head, let count):
                let bytes = Array(window.bytes[0..<count])
                finishPart(truncated ? .truncate : .pass)
                return .release(head: head, held: bytes)
            }
        case .streaming:
            if let walker, case .invalid(let reason) = walker.finish() {
                return .reject(validationFailed(reason, alreadyForwarded: true))
            }
            finishPart(truncated ? .truncate : .pass)
            return .endPart
        }
    }

    // MARK: Streaming

    /// Decides a held part during a body event: the window's bytes from earlier events are released as held
    /// bytes, those from this span as a range of it, and the rest of the span goes through ``stream(_:)`` as if
    /// it were the next event.
    private mutating func release(_ bytes: UnsafeRawBufferPointer, earlier: Int) -> PolicyBodyAction {
        let taken = window.count - earlier
        switch decide(atEnd: false) {
        case .none:
            return .none
        case .reject(let refusal):
            return .reject(refusal)
        case .release(let head, let count):
            let held = Array(window.bytes[0..<min(earlier, count)])
            let fromSpan = max(0, count - earlier)
            guard fromSpan == taken, taken < bytes.count else {
                return .release(head: head, held: held, forward: 0..<fromSpan)
            }
            switch stream(UnsafeRawBufferPointer(rebasing: bytes[taken...])) {
            case .forward(let range):
                return .release(head: head, held: held, forward: 0..<(taken + range.count))
            case .reject(let refusal):
                return .reject(refusal)
            case .none, .release:
                return .release(head: head, held: held, forward: 0..<taken)
            }
        }
    }

    /// A decided, written part's next bytes: forward them up to the cap.
    private mutating func stream(_ bytes: UnsafeRawBufferPointer) -> PolicyBodyAction {
        var count = bytes.count
        if hasPlan, let cap = plan.cap, received > cap.bytes {
            switch cap.action {
            case .reject:
                return .reject(reject(tooLarge(cap, "is larger than \(cap.bytes) bytes (max_bytes)")))
            case .strip:
                return .reject(
                    reject(
                        tooLarge(
                            cap,
                            "is larger than \(cap.bytes) bytes (max_bytes) and its first bytes were already "
                                + "forwarded, so on_exceed: strip cannot take them back")))
            case .truncate:
                truncated = true
                count = Int(max(0, min(Int64(count), cap.bytes - forwarded)))
            }
        }
        guard count > 0 else { return .none }
        let slice = UnsafeRawBufferPointer(rebasing: bytes[0..<count])
        if walker.isSome {
            walker!.feed(slice)
            if let failure = walker!.failure { return .reject(validationFailed(failure, alreadyForwarded: true)) }
        }
        digest.update(slice)
        forwarded += Int64(count)
        return .forward(0..<count)
    }

    // MARK: Part lifecycle

    private mutating func startPart(_ head: consuming PartHead) {
        current = consume head  // said outright: without it the optimiser copied the head and destroyed the original
        clearPart()
    }

    /// The current part's state back to none: no plan (it stays, to be reset and built in place), no output, an
    /// empty window, nothing sniffed, streamed or stripped.
    private mutating func clearPart() {
        hasPlan = false
        hasOutput = false
        window.reset()
        if sniffed.isSome { sniffed = nil }
        if walker.isSome { walker = nil }
        received = 0
        forwarded = 0
        truncated = false
        holdsCharsetValue = false
        if stripped.isSome { stripped = nil }
        phase = .idle
    }

    /// Drops the part: nothing of it was written, nothing will be.
    mutating func strip(rule: String, detail: String) {
        stripped = (rule, detail)
        phase = .dropping
    }

    /// Refuses the request at the current part and records it.
    mutating func reject(_ refusal: PolicyRejection) -> PolicyRejection {
        if rejection == nil { rejection = refusal }
        keep(.reject, rule: refusal.rule, detail: refusal.detail)
        phase = .rejected
        return refusal
    }

    /// The parser refused the request inside part `part` (a limit, a strict flag): records that part as refused
    /// by `flag`, when its head reached the machine and its fate was not recorded yet. A part refused within its
    /// head has no record: the `refused` line names it.
    mutating func parserRefused(part: Int, flag: String, detail: String) {
        guard rejection == nil, current.index == part, part > recordedThrough else { return }
        keep(.reject, rule: flag, detail: detail)
        phase = .rejected
    }

    /// Records the part's fate once its last byte went past.
    private mutating func finishPart(_ decision: PartAuditRecord.Decision) {
        switch decision {
        case .strip:
            keep(.strip, rule: stripped?.rule, detail: stripped?.detail)
        case .truncate:
            let cap = hasPlan ? plan.cap : nil
            keep(.truncate, rule: cap?.rule, detail: settings.keepsRecords
                ? cap.map { "truncated to \($0.bytes) of \(received) bytes (max_bytes)" } : nil)
        case .pass, .reject:
            keep(decision, rule: hasPlan ? plan.rule : nil, detail: nil)
        }
        phase = .idle
    }

    /// Keeps the current part's record, or only its decision when the settings keep no records.
    private mutating func keep(_ decision: PartAuditRecord.Decision, rule: String?, detail: String?) {
        recordedThrough = current.index
        if settings.keepsRecords {
            records.append(record(decision, rule: rule, detail: detail))
        } else {
            if decisions.capacity == 0 { decisions.reserveCapacity(4) }  // not 1, 2, 4: three allocations
            decisions.append(PartDecision(decision: decision, reportOnly: false, rule: rule))
        }
    }

    private mutating func record(_ decision: PartAuditRecord.Decision, rule: String?, detail: String?)
        -> PartAuditRecord
    {
        precondition(current.index >= 0, "a record needs a part")
        let sniffedType: String?
        if let sniffed {
            sniffedType = sniffed.mimeType
        } else if settings.sniffsForAudit, received > 0 || decision != .reject {
            sniffedType = window.sniff(complete: received == Int64(window.count)).mimeType
        } else {
            sniffedType = nil
        }
        // Field by field: binding `current` or `output` to a local copies every field of the head.
        return PartAuditRecord(
            index: current.index, name: current.name, forwardedName: hasOutput ? output.name : nil,
            filename: current.filename, forwardedFilename: hasOutput ? output.filename : nil,
            declaredType: current.contentType, forwardedType: hasOutput ? output.contentType : nil,
            sniffedType: sniffedType, receivedBytes: received,
            forwardedBytes: forwarded, digest: hasOutput ? digest.finalize() : nil, decision: decision,
            reportOnly: false, rule: rule, matchedRules: hasPlan ? plan.matchedRules : [], detail: detail)
    }
}
