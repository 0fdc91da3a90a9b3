import Multipart
import Sniff

extension PartPolicyMachine {
    /// Decides a held part on its window, at sniff time (window full), size time (past a cap known at head time)
    /// or its end.
    ///
    /// The decision depends on the window's bytes only, never on how far the current span reaches past it, so
    /// it is the same however the body was split: the window is sniffed (`complete` at the part's end) unless
    /// the plan was settled at head time, the rules run again with the sniffed type, then come the `_charset_`
    /// value, the cap (against the window's bytes) and validation of the window's bytes. Nothing of the part
    /// was written yet, so a strip is still clean. On a release, the first `forwardCount` bytes of the window
    /// go out (all of it, or up to a `truncate` cap); the caller streams the rest of the span.
    /// - Parameter atEnd: the part has ended (the window holds all of it).
    mutating func decide(atEnd: Bool) -> Release {
        if !hasPlan {
            let sniff = window.sniff(complete: atEnd)
            sniffed = sniff
            facts.sniffed = sniff
            hasPlan = evaluator.evaluate(current, facts, into: &self.plan)
            precondition(hasPlan, "the sniffed type settles every rule")
        }
        let plan = self.plan
        switch plan.outcome {
        case .reject(let refusal):
            return .reject(reject(refusal))
        case .strip(let rule, let detail):
            strip(rule: rule, detail: detail)
            return .none
        case .forward:
            break
        }
        if holdsCharsetValue, let allowed = settings.charsets {
            guard atEnd else { return .reject(charsetRejection("is a _charset_ field longer than any charset name")) }
            let value = PartCharset.fieldValue(window.bytes)
            guard allowed.contains(value) else {
                return .reject(charsetRejection("is a _charset_ field naming '\(value)', which is not allowed"))
            }
        }
        var count = window.count
        if let cap = plan.cap, Int64(window.count) > cap.bytes {
            switch cap.action {
            case .reject:
                return .reject(reject(tooLarge(cap, "is larger than \(cap.bytes) bytes (max_bytes)")))
            case .strip:
                strip(rule: cap.rule, detail: "larger than \(cap.bytes) bytes (max_bytes, on_exceed: strip)")
                return .none
            case .truncate:
                count = Int(cap.bytes)
                truncated = true
            }
        }
        if let validation = plan.validation, let type = sniffed?.type, var walker = StructureWalker(for: type) {
            window.bytes.withUnsafeBytes { walker.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            var failure = walker.failure
            if failure == nil, atEnd, case .invalid(let reason) = walker.finish() { failure = reason }
            if let failure {
                guard validation.onMismatch == .strip else {
                    return .reject(validationFailed(failure, alreadyForwarded: false))
                }
                strip(rule: validation.rule, detail: "invalid structure: \(failure)")
                return .none
            }
            self.walker = walker
        }
        window.bytes.withUnsafeBytes { digest.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        forwarded = Int64(count)
        makeOutput()
        phase = .streaming
        return .release(output, forwardCount: count)
    }

    /// Sets ``output``, the head to encode under ``plan``: renamed, with the route's filename treatment, Content-Type and
    /// headers per the plan. Headers the client sent besides Content-Disposition and Content-Type are not
    /// forwarded (RFC 7578 §4.8); only `set_headers` adds headers.
    ///
    /// Built in place from one copy of the received head. A function returning the head copied it three times
    /// (fields read one by one into a new head, the machine copied for a non-mutating call, the result copied
    /// out rather than moved).
    ///
    /// When nothing reads the received head's names after this (no audit record, no template, no header operation),
    /// the head moves into ``output`` instead, and `current` keeps only its index: the copy counted three references
    /// and overwriting the last part's output released three, per part.
    mutating func makeOutput() {
        precondition(current.index >= 0 && hasPlan, "a decided part has a head and a plan")
        let isField = current.filename == nil
        let renamesFile = plan.filenameTemplate.isSome && current.filename?.isEmpty == false
        let rewrites = plan.fieldTemplate.isSome || renamesFile || !plan.headerOperations.isEmpty
        if settings.keepsRecords || rewrites {
            output = current
        } else {
            swap(&output, &current)
            current.index = output.index  // the rest of `current` is the last part's output, unread until replaced
        }
        hasOutput = true
        if output.filename != facts.filename { output.filename = facts.filename }
        if !output.headers.isEmpty { output.headers = [] }
        if isField, let declared = output.contentType, !PartCharset.mustForward(declared) {
            // A field: formidable takes any part with a Content-Type, busboy one of application/octet-stream, for a
            // file, past the rules that judged a field. A rule may still set one (below).
            output.contentType = nil
        }
        guard rewrites else { return }
        if plan.fieldTemplate.isSome || renamesFile {
            let values = templateValues(plan, head: current)
            if let template = plan.fieldTemplate {
                output.name = SafeName.sanitizeFieldName(template.render(values))
            }
            if renamesFile, let template = plan.filenameTemplate {
                // A file keeps a name: a template that renders empty (`{ext}` of a name without one) must not
                // turn it into "no file chosen".
                let rendered = SafeName.sanitizeFilename(template.render(values))
                output.filename = rendered.isEmpty ? SafeName.fallbackName : rendered
            }
        }
        for operation in plan.headerOperations {
            switch operation {
            case .remove(let name) where name.lowercased() == "content-type":
                output.contentType = nil
            case .remove(let name):
                let lowered = name.lowercased()
                output.headers.removeAll { $0.name.lowercased() == lowered }
            case .set(let field) where field.name.lowercased() == "content-type":
                output.contentType = field.value
            case .set(let field):
                let lowered = field.name.lowercased()
                output.headers.removeAll { $0.name.lowercased() == lowered }
                output.headers.append(PartHeader(name: field.name, value: field.value))
            case .setSniffedType:
                guard let sniffed else { continue }
                let declared = current.contentType.map { PartEvaluator.essence(of: $0) }
                if declared != sniffed.mimeType { output.contentType = sniffed.mimeType }
            }
        }
    }

    /// The values a rename template renders from: the original names, one UUID per part (made only if used).
    private func templateValues(_ plan: PartPlan, head: PartHead) -> NameTemplate.Values {
        let filename = head.filename.map { SafeName.sanitizeFilename($0) } ?? ""
        let ext = FileExtensions.fileExtension(ofFilename: filename) ?? ""
        var stem = filename
        if !ext.isEmpty, let dot = filename.lastIndex(of: ".") { stem = String(filename[..<dot]) }
        let templates = [plan.fieldTemplate, plan.filenameTemplate].compactMap { $0 }
        let usesUUID = templates.contains { $0.placeholders.contains(.uuid) }
        return NameTemplate.Values(
            filename: filename, stem: stem, ext: ext, field: head.name, uuid: usesUUID ? uuid() : "",
            index: head.index)
    }

    // MARK: Rejections

    mutating func unsafeFilename(_ what: String) -> PolicyRejection {
        let index = current.index
        return reject(
            PolicyRejection(
                status: 400, reason: .unsafeFilename, rule: "unsafe_filename", partIndex: index,
                detail: "part \(index) \(what)"))
    }

    mutating func charsetRejection(_ what: String) -> PolicyRejection {
        let index = current.index
        return reject(
            PolicyRejection(
                status: 415, reason: .charset, rule: "charset", partIndex: index, detail: "part \(index) \(what)"))
    }

    func tooLarge(_ cap: PartPlan.Cap, _ what: String) -> PolicyRejection {
        let index = current.index
        return PolicyRejection(
            status: 413, reason: .tooLarge, rule: cap.rule, partIndex: index, detail: "part \(index) \(what)")
    }

    /// A failed `validate`: a rejection, since a part is only ever stripped before anything of it was written.
    mutating func validationFailed(_ reason: String, alreadyForwarded: Bool) -> PolicyRejection {
        let index = current.index
        let validation = hasPlan ? plan.validation : nil
        var detail = "part \(index) is not a well-formed file of its type: \(reason)"
        if alreadyForwarded, validation?.onMismatch == .strip {
            detail += " (its first bytes were already forwarded, so on_mismatch: strip cannot take them back)"
        }
        return reject(
            PolicyRejection(
                status: 415, reason: .invalidStructure, rule: validation?.rule ?? "validate", partIndex: index,
                detail: detail))
    }
}
