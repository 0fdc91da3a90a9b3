import Policy
import Yams

/// A route's `rules:`.
extension ConfigDecoder {
    /// The keys of one rule.
    static let ruleKeys = [
        "name", "match", "strip", "rename", "set_headers", "remove_headers", "sniff", "max_bytes", "on_exceed",
        "reject",
    ]
    /// The keys of a rule's `match:`.
    static let ruleMatchKeys = ["field", "filename", "has_filename", "declared_type", "sniffed_type", "extension"]
    /// The keys of a rule's `sniff:`.
    static let sniffKeys = ["allow", "on_mismatch", "set_content_type", "extension_must_match", "validate"]
    /// Part headers partgate writes itself: rules may neither set nor remove them.
    static let managedHeaders = ["content-disposition", "content-transfer-encoding"]

    func decodeRules(_ node: Node, route: String) -> [Rule]? {
        if case .sequence(let sequence) = node, sequence.isEmpty { return [] }
        guard let items = list(node, "'rules' of \(route)", allowSingle: false) else { return nil }
        var rules: [Rule] = []
        var names: [String: Node] = [:]
        var failed = false
        for (index, item) in items.enumerated() {
            let (rule, placedName) = decodeRule(item, index: index, route: route)
            if let (name, nameNode) = placedName {
                if let first = names[name] {
                    report(
                        .duplicateName, at: nameNode,
                        "duplicate rule name '\(name)' in \(route) "
                            + "(first at \(position(of: first)))")
                    failed = true
                } else {
                    names[name] = nameNode
                }
            }
            if let rule { rules.append(rule) } else { failed = true }
        }
        return failed ? nil : rules
    }

    private func decodeRule(_ node: Node, index: Int, route: String) -> (Rule?, (String, Node)?) {
        let context = Self.peekName(node).map { "rule '\($0)'" } ?? "rule \(index + 1) of \(route)"
        guard let fields = mapping(node, context, keys: Self.ruleKeys) else { return (nil, nil) }
        let nameNode = required("name", in: fields)
        let name = nameNode.flatMap { string($0, "'name' of rule \(index + 1) of \(route)") }
        let placedName = name.flatMap { name in nameNode.map { (name, $0) } }
        var rule = Rule(name: name ?? "")
        var failed = name == nil
        func read<Value>(_ key: String, _ decode: (Node, String) -> Value?, _ apply: (Value) -> Void) {
            guard let node = fields.value(key) else { return }
            if let value = decode(node, "'\(key)' of \(context)") { apply(value) } else { failed = true }
        }
        read("match", decodeRuleMatch) { rule.match = $0 }
        read("strip", bool) { rule.strip = $0 }
        read("rename", decodeRename) { rule.rename = $0 }
        read("set_headers", decodeSetHeaders) { rule.setHeaders = $0 }
        read("remove_headers", decodeRemoveHeaders) { rule.removeHeaders = $0 }
        read("sniff", decodeSniff) { rule.sniff = $0 }
        read("max_bytes", { size($0, $1) }) { rule.maxBytes = $0 }
        read("on_exceed", { choice($0, $1, Rule.ExceedAction.self) }) { rule.onExceed = $0 }
        read("reject", decodeReject) { rule.reject = $0 }
        if fields.contains("on_exceed"), !fields.contains("max_bytes") {
            report(.conflict, at: fields.keyNode("on_exceed"), "\(context) sets 'on_exceed' without 'max_bytes'")
            failed = true
        }
        for ending in ["strip", "reject"] where rule.actionKeys.contains(ending) {
            let others = rule.actionKeys.filter { $0 != ending }
            guard !others.isEmpty else { continue }
            let list = others.map { "'\($0)'" }.joined(separator: ", ")
            report(
                .conflict, at: fields.keyNode(ending),
                "\(context): '\(ending)' ends the part's evaluation, so "
                    + "\(list) would never apply (split them into separate rules)")
            failed = true
            break
        }
        return (failed ? nil : rule, placedName)
    }

    private func decodeRuleMatch(_ node: Node, _ what: String) -> RuleMatch? {
        guard let fields = mapping(node, what, keys: Self.ruleMatchKeys) else { return nil }
        var match = RuleMatch()
        var failed = false
        func read<Value>(_ key: String, _ decode: (Node, String) -> Value?, _ apply: (Value) -> Void) {
            guard let node = fields.value(key) else { return }
            if let value = decode(node, "'\(key)'") { apply(value) } else { failed = true }
        }
        read("field", { globs($0, $1, caseInsensitive: false) }) { match.field = $0 }
        read("filename", { globs($0, $1, caseInsensitive: false) }) { match.filename = $0 }
        read("has_filename", bool) { match.hasFilename = $0 }
        read("declared_type", mediaTypeGlobs) { match.declaredType = $0 }
        read("sniffed_type", mediaTypeGlobs) { match.sniffedType = $0 }
        read("extension", decodeExtensions) { match.extension = $0 }
        return failed ? nil : match
    }

    /// Globs of media types: `*`, or `type/subtype` with wildcards, no parameters.
    private func mediaTypeGlobs(_ node: Node, _ what: String) -> [Glob]? {
        globs(node, what, caseInsensitive: true) { text in
            if text == "*" { return nil }
            let pieces = text.split(separator: "/", omittingEmptySubsequences: false)
            guard pieces.count == 2, !pieces[0].isEmpty, !pieces[1].isEmpty,
                !text.contains(where: { $0 == ";" || $0 == " " })
            else {
                return "'\(text)' is not a media type such as image/png or image/* (no parameters)"
            }
            return nil
        }
    }

    /// Extensions without the dot; a leading dot is dropped.
    private func decodeExtensions(_ node: Node, _ what: String) -> [Glob]? {
        guard let items = strings(node, what) else { return nil }
        var result: [Glob] = []
        var failed = false
        for (text, item) in items {
            let bare = text.hasPrefix(".") ? String(text.dropFirst()) : text
            if bare.isEmpty || bare.contains(where: { $0 == "/" || $0 == "\\" || $0 == " " || $0 == "." }) {
                report(
                    .invalidValue, at: item,
                    "\(what): '\(text)' is not a file extension such as png "
                        + "(the text after the last dot)")
                failed = true
            } else if let glob = glob(bare, at: item, what, caseInsensitive: true) {
                result.append(glob)
            } else {
                failed = true
            }
        }
        return failed ? nil : result
    }

    private func decodeRename(_ node: Node, _ what: String) -> Rule.Rename? {
        guard let fields = mapping(node, what, keys: ["field", "filename"]) else { return nil }
        guard fields.contains("field") || fields.contains("filename") else {
            report(.missingKey, at: node, "\(what) needs 'field', 'filename' or both")
            return nil
        }
        var rename = Rule.Rename()
        var failed = false
        for key in ["field", "filename"] {
            guard let node = fields.value(key) else { continue }
            guard let text = string(node, "'\(key)' of \(what)") else {
                failed = true
                continue
            }
            let template: NameTemplate
            do {
                template = try NameTemplate(text)
            } catch {
                report(.invalidTemplate, at: node, "'\(key)' of \(what): \(error.reason)")
                failed = true
                continue
            }
            let forbidden: Set<Character> = key == "filename" ? ["\"", "\\", "/"] : ["\"", "\\"]
            if let bad = template.literalText.first(where: forbidden.contains) {
                report(
                    .invalidTemplate, at: node,
                    "'\(key)' of \(what): '\(bad)' is not allowed in a \(key) "
                        + "(no spelling of it reads the same in every backend)")
                failed = true
                continue
            }
            if key == "field" { rename.field = template } else { rename.filename = template }
        }
        return failed ? nil : rename
    }

    private func decodeSetHeaders(_ node: Node, _ what: String) -> [Rule.HeaderField]? {
        guard case .mapping(let entries) = node else {
            report(
                .wrongType, at: node,
                "\(what) must be a mapping of header names to values, found "
                    + Self.kind(of: node))
            return nil
        }
        var headers: [Rule.HeaderField] = []
        var failed = false
        for (nameNode, valueNode) in entries {
            if Self.isNull(valueNode), let name = headerName(nameNode, what) {
                // `~` is not a value to send: it was read as the text "~" before.
                report(
                    .wrongType, at: valueNode,
                    "\(what): the value of '\(name)' is null; write '' for an empty value, or use remove_headers")
                failed = true
                continue
            }
            guard let name = headerName(nameNode, what),
                let value = string(
                    valueNode, "the value of '\(name)'",
                    allowEmpty: true)
            else {
                failed = true
                continue
            }
            if let first = headers.first(where: { $0.name.lowercased() == name.lowercased() }) {
                report(.duplicateKey, at: nameNode, "\(what) sets '\(name)' twice (also as '\(first.name)')")
                failed = true
                continue
            }
            headers.append(Rule.HeaderField(name: name, value: value))
        }
        return failed ? nil : headers
    }

    private func decodeRemoveHeaders(_ node: Node, _ what: String) -> [String]? {
        guard let items = list(node, what, allowSingle: true) else { return nil }
        let names = items.compactMap { headerName($0, what) }
        return names.count == items.count ? names : nil
    }

    /// A part header name a rule may touch: an HTTP token other than the headers partgate writes itself.
    private func headerName(_ node: Node, _ what: String) -> String? {
        guard let name = string(node, "a header name in \(what)") else { return nil }
        let tchar = "!#$%&'*+-.^_`|~"
        guard name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || tchar.contains($0)) }) else {
            report(.invalidValue, at: node, "\(what): '\(name)' is not a valid header name")
            return nil
        }
        guard !Self.managedHeaders.contains(name.lowercased()) else {
            let hint = name.lowercased() == "content-disposition" ? " (use 'rename' for names)" : ""
            report(.invalidValue, at: node, "\(what): '\(name)' is written by partgate and cannot be changed\(hint)")
            return nil
        }
        return name
    }

    private func decodeSniff(_ node: Node, _ what: String) -> SniffRule? {
        guard let fields = mapping(node, what, keys: Self.sniffKeys) else { return nil }
        var sniff = SniffRule()
        var failed = false
        func read<Value>(_ key: String, _ decode: (Node, String) -> Value?, _ apply: (Value) -> Void) {
            guard let node = fields.value(key) else { return }
            if let value = decode(node, "'\(key)'") { apply(value) } else { failed = true }
        }
        read("allow", mediaTypeGlobs) { sniff.allow = $0 }
        read("on_mismatch", { choice($0, $1, SniffRule.MismatchAction.self) }) { sniff.onMismatch = $0 }
        read("set_content_type", bool) { sniff.setContentType = $0 }
        read("extension_must_match", bool) { sniff.extensionMustMatch = $0 }
        read("validate", bool) { sniff.validate = $0 }
        return failed ? nil : sniff
    }

    /// `reject: true`, `reject: false` (no rejection) or `reject: { status: 4xx }`.
    private func decodeReject(_ node: Node, _ what: String) -> Rule.Reject?? {
        if case .scalar = node {
            return bool(node, "\(what) (true, false or { status: 4xx })").map { (value) -> Rule.Reject? in
                value ? Rule.Reject() : nil
            }
        }
        guard let fields = mapping(node, what, keys: ["status"]) else { return nil }
        guard let statusNode = fields.value("status") else { return .some(Rule.Reject()) }
        return integer(statusNode, "'status' of \(what)", in: 400...499).map { .some(Rule.Reject(status: $0)) }
    }
}
