import Policy
import Yams

/// `upstreams:`: the backends by name.
extension ConfigDecoder {
    /// The upstreams that decoded, and every name declared (so a route naming an upstream with a problem of
    /// its own is not also reported as naming an undefined one).
    struct DecodedUpstreams {
        var configurations: [String: UpstreamConfiguration]
        var names: [String]
    }

    /// The keys of one upstream.
    static let upstreamKeys = ["url", "tls", "connect_timeout", "response_timeout", "max_idle_connections"]
    /// The keys of an upstream's `tls:`.
    static let upstreamTLSKeys = ["ca", "server_name", "verify", "client_certificate", "client_key"]

    func decodeUpstreams(_ node: Node) -> DecodedUpstreams? {
        guard case .mapping(let entries) = node else {
            report(
                .wrongType, at: node,
                "'upstreams' must be a mapping of names to upstreams, found "
                    + Self.kind(of: node))
            return nil
        }
        guard !entries.isEmpty else {
            report(.emptyList, at: node, "'upstreams' defines no upstream")
            return nil
        }
        var decoded = DecodedUpstreams(configurations: [:], names: [])
        for (nameNode, value) in entries {
            guard let name = string(nameNode, "an upstream name") else { continue }
            decoded.names.append(name)
            if let upstream = decodeUpstream(value, name: name) {
                decoded.configurations[name] = upstream
            }
        }
        return decoded
    }

    private func decodeUpstream(_ node: Node, name: String) -> UpstreamConfiguration? {
        let context = "upstream '\(name)'"
        guard let fields = mapping(node, context, keys: Self.upstreamKeys) else { return nil }
        var failed = false
        var url: UpstreamURL?
        if let urlNode = required("url", in: fields), let text = string(urlNode, "'url' of \(context)") {
            do {
                url = try UpstreamURL(parsing: text)
            } catch {
                report(.invalidValue, at: urlNode, "'url' of \(context): \(error.reason)")
            }
        }
        var upstream = UpstreamConfiguration(url: url ?? UpstreamURL(scheme: .https, host: "invalid"))
        if let tlsNode = fields.value("tls") {
            if let url, !url.usesTLS {
                report(
                    .conflict, at: fields.keyNode("tls"),
                    "\(context) has 'tls' settings but an http:// URL "
                        + "(use https:// or drop 'tls')")
                failed = true
            } else if let tls = decodeUpstreamTLS(tlsNode, context: context) {
                upstream.tls = tls
            } else {
                failed = true
            }
        }
        if let node = fields.value("connect_timeout") {
            if let value = duration(node, "'connect_timeout'") {
                upstream.connectTimeout = value
            } else {
                failed = true
            }
        }
        if let node = fields.value("response_timeout") {
            if let value = duration(node, "'response_timeout'") {
                upstream.responseTimeout = value
            } else {
                failed = true
            }
        }
        if let node = fields.value("max_idle_connections") {
            if let value = integer(node, "'max_idle_connections'", in: 0...100_000) {
                upstream.maxIdleConnections = value
            } else {
                failed = true
            }
        }
        return failed || url == nil ? nil : upstream
    }

    private func decodeUpstreamTLS(_ node: Node, context: String) -> UpstreamTLSConfiguration? {
        guard let fields = mapping(node, "'tls' of \(context)", keys: Self.upstreamTLSKeys) else { return nil }
        var tls = UpstreamTLSConfiguration()
        var failed = false
        if let node = fields.value("ca") {
            tls.ca = pemPath(node, "'ca'", kind: .certificate)
            failed = failed || tls.ca == nil
        }
        if let node = fields.value("server_name") {
            if let name = string(node, "'server_name'") {
                if HostName.isValid(name) {
                    tls.serverName = name.lowercased()
                } else {
                    report(.invalidValue, at: node, "'server_name': '\(name)' is not a valid DNS name")
                    failed = true
                }
            } else {
                failed = true
            }
        }
        if let node = fields.value("verify") {
            if let verify = bool(node, "'verify'") { tls.verify = verify } else { failed = true }
        }
        if let node = fields.value("client_certificate") {
            tls.clientCertificate = pemPath(node, "'client_certificate'", kind: .certificate)
            failed = failed || tls.clientCertificate == nil
        }
        if let node = fields.value("client_key") {
            tls.clientKey = pemPath(node, "'client_key'", kind: .privateKey)
            failed = failed || tls.clientKey == nil
        }
        if fields.contains("client_certificate") != fields.contains("client_key") {
            let (present, missing) =
                fields.contains("client_key")
                ? ("client_key", "client_certificate") : ("client_certificate", "client_key")
            report(.missingKey, at: fields.keyNode(present), "'\(present)' of \(context) needs '\(missing)' too")
            failed = true
        }
        return failed ? nil : tls
    }
}
