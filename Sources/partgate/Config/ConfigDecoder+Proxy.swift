import Policy
import Yams

/// The top level: `version`, `workers`, `listeners`, `admin`, and the sections decoded elsewhere.
extension ConfigDecoder {
    /// The keys allowed at the top level.
    static let rootKeys = [
        "version", "workers", "max_connections", "listeners", "admin", "upstreams", "limits", "routes",
    ]

    /// Decodes the whole document; nil when any problem was reported.
    func decodeRoot(_ root: Node?) -> ProxyConfiguration? {
        guard let root, !Self.isNull(root) else {
            report(
                .missingKey, line: 1, column: 1, "empty configuration: expected a mapping that starts with 'version: 1'"
            )
            return nil
        }
        if case .mapping = root, !decodeVersion(root) { return nil }
        guard let top = mapping(root, "the configuration", keys: Self.rootKeys) else { return nil }

        let workers = top.value("workers").flatMap(decodeWorkers) ?? .auto
        let maxConnections = top.value("max_connections").flatMap(decodeMaxConnections) ?? .auto
        let listeners = required("listeners", in: top).flatMap(decodeListeners)
        let admin = top.value("admin").flatMap(decodeAdmin)
        checkAddressConflicts(listeners: listeners?.placed ?? [], admin: admin)
        let upstreams = required("upstreams", in: top).flatMap(decodeUpstreams)
        let globalLimits = top.value("limits").flatMap(decodeGlobalLimits)
        let routes = required("routes", in: top).flatMap {
            decodeRoutes($0, upstreams: upstreams, globalLimits: globalLimits ?? RequestLimits())
        }
        checkFiles()

        guard diagnostics.isEmpty, let listeners, listeners.complete, let upstreams, let routes else { return nil }
        return ProxyConfiguration(
            workers: workers,
            maxConnections: maxConnections,
            listeners: listeners.placed.map(\.configuration),
            admin: admin?.configuration,
            upstreams: upstreams.configurations,
            limits: globalLimits ?? RequestLimits(),
            routes: routes
        )
    }

    /// Checks `version: 1` before anything else; false stops decoding (the other keys may mean something
    /// else in another version, so they are not even checked for spelling).
    private func decodeVersion(_ root: Node) -> Bool {
        guard let node = root["version"], !Self.isNull(node) else {
            report(.missingKey, at: root, "missing required key 'version' (this partgate reads version: 1)")
            return false
        }
        guard case .scalar(let scalar) = node, scalar.style == .plain, let version = Self.decimal(scalar.string) else {
            report(.wrongType, at: node, "'version' must be the number 1, found \(Self.kind(of: node))")
            return false
        }
        guard version == ProxyConfiguration.currentVersion else {
            report(
                .unsupportedVersion, at: node,
                "unsupported configuration version \(version): this partgate "
                    + "reads version \(ProxyConfiguration.currentVersion)")
            return false
        }
        return true
    }

    private func decodeWorkers(_ node: Node) -> WorkerCount? {
        if case .scalar(let scalar) = node, scalar.string == "auto" { return .auto }
        guard case .scalar(let scalar) = node, scalar.style == .plain, Self.decimal(scalar.string) != nil else {
            report(.wrongType, at: node, "'workers' must be 'auto' or a number, found \(Self.kind(of: node))")
            return nil
        }
        return integer(node, "'workers'", in: 1...WorkerCount.maximum).map(WorkerCount.count)
    }

    private func decodeMaxConnections(_ node: Node) -> ConnectionLimit? {
        if case .scalar(let scalar) = node, scalar.string == "auto" { return .auto }
        guard case .scalar(let scalar) = node, scalar.style == .plain, Self.decimal(scalar.string) != nil else {
            report(
                .wrongType, at: node, "'max_connections' must be 'auto' or a number, found \(Self.kind(of: node))")
            return nil
        }
        return integer(node, "'max_connections'", in: 1...ConnectionLimit.maximum).map(ConnectionLimit.count)
    }

    /// A listener with the node of its address, for conflict messages.
    struct PlacedListener {
        var configuration: ListenerConfiguration
        var addressNode: Node
    }

    /// The admin listener with the node of its address.
    struct PlacedAdmin {
        var configuration: AdminConfiguration
        var addressNode: Node
    }

    /// The listeners that decoded (checked for address conflicts even when others did not) and whether all
    /// did.
    private func decodeListeners(_ node: Node) -> (placed: [PlacedListener], complete: Bool)? {
        guard let items = list(node, "'listeners'", allowSingle: false) else { return nil }
        var listeners: [PlacedListener] = []
        var failed = false
        for (index, item) in items.enumerated() {
            let context = "listener \(index + 1)"
            guard let fields = mapping(item, context, keys: ["address", "tls"]),
                let addressNode = required("address", in: fields)
            else {
                failed = true
                continue
            }
            let address = listenAddress(addressNode, "'address' of \(context)")
            var tls: ListenerTLSConfiguration?
            if let tlsNode = fields.value("tls") {
                tls = decodeListenerTLS(tlsNode, context: context)
                if tls == nil { failed = true }
            }
            guard let address else {
                failed = true
                continue
            }
            listeners.append(
                PlacedListener(
                    configuration: ListenerConfiguration(address: address, tls: tls),
                    addressNode: addressNode))
        }
        return (listeners, !failed)
    }

    private func decodeListenerTLS(_ node: Node, context: String) -> ListenerTLSConfiguration? {
        guard let fields = mapping(node, "'tls' of \(context)", keys: ["certificate", "key"]) else { return nil }
        let certificate = required("certificate", in: fields).flatMap {
            pemPath($0, "'certificate'", kind: .certificate)
        }
        let key = required("key", in: fields).flatMap { pemPath($0, "'key'", kind: .privateKey) }
        guard let certificate, let key else { return nil }
        return ListenerTLSConfiguration(certificate: certificate, key: key)
    }

    private func decodeAdmin(_ node: Node) -> PlacedAdmin? {
        guard let fields = mapping(node, "'admin'", keys: ["address"]),
            let addressNode = required("address", in: fields),
            let address = listenAddress(addressNode, "'address' of 'admin'")
        else { return nil }
        return PlacedAdmin(configuration: AdminConfiguration(address: address), addressNode: addressNode)
    }

    private func listenAddress(_ node: Node, _ what: String) -> ListenAddress? {
        guard let text = string(node, what) else { return nil }
        do {
            return try ListenAddress(parsing: text)
        } catch {
            report(.invalidValue, at: node, "\(what): \(error.reason)")
            return nil
        }
    }

    /// Reports each listener (or the admin listener) whose address conflicts with an earlier one.
    private func checkAddressConflicts(listeners: [PlacedListener], admin: PlacedAdmin?) {
        var placed = listeners.map { ($0.configuration.address, $0.addressNode, "listener") }
        if let admin { placed.append((admin.configuration.address, admin.addressNode, "admin listener")) }
        for (index, (address, node, role)) in placed.enumerated() {
            guard let earlier = placed[..<index].first(where: { $0.0.conflicts(with: address) }) else { continue }
            let same = earlier.0 == address ? "repeats" : "overlaps"
            report(
                .duplicateAddress, at: node,
                "\(role) address \(address) \(same) \(earlier.0) "
                    + "(\(earlier.2) at \(position(of: earlier.1)))")
        }
    }
}
