import Multipart
import Policy
import Yams

/// `routes:`: each route's match, upstream, modes, strictness and limits (rules are in +Rule).
extension ConfigDecoder {
    /// The keys of one route.
    static let routeKeys = [
        "name", "match", "upstream", "forward", "multipart", "spool_memory", "report_only", "audit", "strict",
        "default",
        "other_bodies", "charsets", "unsafe_filenames", "limits", "rules", "max_upstream_rate", "buffer_small_bodies",
    ]

    /// Methods whose upper-case spelling is suggested when written in lower case.
    static let knownMethods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    func decodeRoutes(_ node: Node, upstreams: DecodedUpstreams?, globalLimits: RequestLimits) -> [RouteConfiguration]?
    {
        guard let items = list(node, "'routes'", allowSingle: false) else { return nil }
        var routes: [RouteConfiguration] = []
        var names: [String: Node] = [:]
        var failed = false
        for (index, item) in items.enumerated() {
            let route = decodeRoute(item, index: index, upstreams: upstreams, globalLimits: globalLimits)
            if let (name, nameNode) = route.name {
                if let first = names[name] {
                    report(
                        .duplicateName, at: nameNode, "duplicate route name '\(name)' (first at \(position(of: first)))"
                    )
                    failed = true
                } else {
                    names[name] = nameNode
                }
            }
            if let configuration = route.configuration { routes.append(configuration) } else { failed = true }
        }
        return failed ? nil : routes
    }

    private func decodeRoute(_ node: Node, index: Int, upstreams: DecodedUpstreams?, globalLimits: RequestLimits)
        -> (configuration: RouteConfiguration?, name: (String, Node)?)
    {
        let context = Self.peekName(node).map { "route '\($0)'" } ?? "route \(index + 1)"
        guard let fields = mapping(node, context, keys: Self.routeKeys) else { return (nil, nil) }
        let nameNode = required("name", in: fields)
        let name = nameNode.flatMap { string($0, "'name' of route \(index + 1)") }
        let placedName = name.flatMap { name in nameNode.map { (name, $0) } }
        var failed = name == nil
        func read<Value>(_ key: String, _ decode: (Node, String) -> Value?) -> Value?? {
            guard let node = fields.value(key) else { return .some(nil) }
            guard let value = decode(node, "'\(key)' of \(context)") else {
                failed = true
                return nil
            }
            return .some(value)
        }

        let match = read("match", decodeRouteMatch)
        let upstream = required("upstream", in: fields).flatMap {
            upstreamName($0, context: context, upstreams: upstreams)
        }
        if upstream == nil { failed = true }
        let forward = read("forward") { choice($0, $1, RouteConfiguration.ForwardMode.self) }
        let multipart = read("multipart") { choice($0, $1, RouteConfiguration.MultipartMode.self) }
        let spoolMemory = read("spool_memory") { size($0, $1) }
        let maxUpstreamRate = read("max_upstream_rate") { rate($0, $1) }
        let bufferSmallBodies = read("buffer_small_bodies") { size($0, $1, minimum: 0) }
        let reportOnly = read("report_only", bool)
        let audit = read("audit", bool)
        let strictness = read("strict", decodeStrictness)
        let defaultAction = read("default") { choice($0, $1, RouteConfiguration.DefaultPartAction.self) }
        let otherBodies = read("other_bodies") { choice($0, $1, RouteConfiguration.OtherBodiesAction.self) }
        let charsets = read("charsets", decodeCharsets)
        let unsafeFilenames = read("unsafe_filenames") { choice($0, $1, RouteConfiguration.UnsafeFilenameAction.self) }
        let overrides = read("limits") { node, _ in
            decodeRouteLimits(node, route: name ?? "\(index + 1)", global: globalLimits)
        }
        var rules: [Rule]?? = .some(nil)
        if let rulesNode = fields.value("rules") {
            rules = decodeRules(rulesNode, route: context).map { .some($0) }
            if rules == nil { failed = true }
        }
        if multipart == .some(.passthrough), let rulesKey = fields.keyNode("rules"), rules??.isEmpty == false {
            report(
                .conflict, at: rulesKey,
                "\(context) has 'rules' but 'multipart: passthrough' relays bodies "
                    + "without parsing them; the rules would never run")
            failed = true
        }

        guard !failed, let name, let upstream, let match, let forward, let multipart, let spoolMemory,
            let reportOnly, let audit, let strictness, let defaultAction, let otherBodies, let charsets, let unsafeFilenames,
            let overrides, let rules, let maxUpstreamRate, let bufferSmallBodies
        else {
            return (nil, placedName)
        }
        var route = RouteConfiguration(
            name: name,
            match: match ?? RouteMatch(),
            upstream: upstream,
            forward: forward ?? .stream,
            multipart: multipart ?? .rewrite,
            spoolMemory: spoolMemory ?? RouteConfiguration.defaultSpoolMemory,
            reportOnly: reportOnly ?? false,
            audit: audit ?? false,
            strictness: strictness ?? Strictness(),
            defaultAction: defaultAction ?? .pass,
            otherBodies: otherBodies,
            charsets: charsets ?? RouteConfiguration.defaultCharsets,
            unsafeFilenames: unsafeFilenames ?? .sanitize,
            limits: overrides.map(globalLimits.applying) ?? globalLimits,
            rules: rules ?? []
        )
        route.maxUpstreamRate = maxUpstreamRate
        route.bufferSmallBodies = bufferSmallBodies ?? RouteConfiguration.defaultBufferSmallBodies
        return (route, placedName)
    }

    private func upstreamName(_ node: Node, context: String, upstreams: DecodedUpstreams?) -> String? {
        guard let name = string(node, "'upstream' of \(context)") else { return nil }
        guard let upstreams else { return name }
        guard upstreams.names.contains(name) else {
            let defined = upstreams.names.map { "'\($0)'" }.joined(separator: ", ")
            report(
                .undefinedUpstream, at: node,
                "\(context) names undefined upstream '\(name)'"
                    + Suggestion.clause(for: name, in: upstreams.names) + " (defined: \(defined))")
            return nil
        }
        return name
    }

    private func decodeRouteMatch(_ node: Node, _ what: String) -> RouteMatch? {
        guard let fields = mapping(node, what, keys: ["host", "path_prefix", "methods"]) else { return nil }
        var match = RouteMatch()
        var failed = false
        if let node = fields.value("host"), let text = string(node, "'host'") {
            // Hosts are matched without their port: `example.com:8080` could never match (an IPv6 literal keeps its
            // colons inside brackets).
            if text.contains(where: { $0 == "/" || $0 == " " }) || (text.contains(":") && !text.hasPrefix("[")) {
                report(.invalidValue, at: node, "'host': '\(text)' is not a host glob (no port, path or spaces)")
                failed = true
            } else if let glob = glob(text, at: node, "'host'", caseInsensitive: true) {
                match.host = glob
            } else {
                failed = true
            }
        } else if fields.contains("host") {
            failed = true
        }
        if let node = fields.value("path_prefix"), let text = string(node, "'path_prefix'") {
            if !text.hasPrefix("/") || text.contains(where: { $0 == "?" || $0 == "#" || $0 == " " }) {
                report(
                    .invalidValue, at: node,
                    "'path_prefix' must start with '/' and hold no '?', '#' or "
                        + "spaces, found '\(text)'")
                failed = true
            } else {
                match.pathPrefix = text
            }
        } else if fields.contains("path_prefix") {
            failed = true
        }
        if let node = fields.value("methods") {
            if let methods = decodeMethods(node) { match.methods = methods } else { failed = true }
        }
        return failed ? nil : match
    }

    private func decodeMethods(_ node: Node) -> Set<String>? {
        guard let items = strings(node, "'methods'") else { return nil }
        var methods: Set<String> = []
        var failed = false
        for (method, item) in items {
            if !method.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-" || $0 == "_") }) {
                report(.invalidValue, at: item, "'methods': '\(method)' is not an HTTP method")
                failed = true
            } else if method != method.uppercased(), Self.knownMethods.contains(method.uppercased()) {
                report(
                    .invalidValue, at: item,
                    "'methods': methods are case-sensitive; did you mean "
                        + "'\(method.uppercased())'?")
                failed = true
            } else {
                methods.insert(method)
            }
        }
        return failed ? nil : methods
    }

    private func decodeStrictness(_ node: Node, _ what: String) -> Strictness? {
        guard case .mapping(let entries) = node else {
            report(
                .wrongType, at: node,
                "\(what) must be a mapping of strict flags to actions, found "
                    + Self.kind(of: node))
            return nil
        }
        var strictness = Strictness()
        var failed = false
        let flagNames = StrictFlag.allCases.map(\.rawValue)
        for (flagNode, actionNode) in entries {
            guard let flagName = string(flagNode, "a strict flag") else {
                failed = true
                continue
            }
            guard let flag = StrictFlag(rawValue: flagName) else {
                report(
                    .invalidStrictness, at: flagNode,
                    "unknown strict flag '\(flagName)'"
                        + Suggestion.clause(for: flagName, in: flagNames))
                failed = true
                continue
            }
            guard let actionName = string(actionNode, "the action of strict flag '\(flagName)'") else {
                failed = true
                continue
            }
            guard let action = StrictAction(rawValue: actionName) else {
                let actions = StrictAction.allCases.map(\.rawValue)
                report(
                    .invalidStrictness, at: actionNode,
                    "unknown strict action '\(actionName)' for '\(flagName)' "
                        + "(expected \(actions.joined(separator: ", ")))"
                        + Suggestion.clause(for: actionName, in: actions))
                failed = true
                continue
            }
            do {
                try strictness.setAction(action, for: flag)
            } catch {
                report(.invalidStrictness, at: actionNode, error.description)
                failed = true
            }
        }
        return failed ? nil : strictness
    }

    private func decodeCharsets(_ node: Node, _ what: String) -> [String]? {
        guard case .sequence(let sequence) = node else {
            report(.wrongType, at: node, "\(what) must be a list, found \(Self.kind(of: node))")
            return nil
        }
        var charsets: [String] = []
        var failed = false
        for item in sequence {
            guard let charset = string(item, "each item of \(what)") else {
                failed = true
                continue
            }
            if charset.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.:+".contains($0)) }) {
                charsets.append(charset.lowercased())
            } else {
                report(.invalidValue, at: item, "\(what): '\(charset)' is not a charset name")
                failed = true
            }
        }
        return failed ? nil : charsets
    }
}
