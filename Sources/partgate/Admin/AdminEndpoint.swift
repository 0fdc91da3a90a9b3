import Policy
import ProxyEngine

/// The admin listener of `partgate serve` (`admin:`), which a reload may add, move or remove.
///
/// A reload changes it in two steps, like the proxy's listeners: ``prepare(_:)`` binds a new address before
/// anything else of the reload takes effect (an address that cannot be bound refuses the whole reload, and
/// the old listener keeps answering), then ``Change/commit()`` closes the old one, or ``Change/cancel()``
/// closes the new one if a later step refused the reload. An unchanged `address:` keeps its socket, so a
/// probe or a scrape during a reload is never refused.
final class AdminEndpoint {
    private let handlers: AdminHandlers
    /// The `admin:` section in effect (nil: no admin listener).
    private(set) var configuration: AdminConfiguration?
    private var server: AdminServer?
    /// The bound address (port 0 resolved).
    private(set) var address: SocketAddress?

    init(handlers: AdminHandlers) {
        self.handlers = handlers
    }

    /// Binds the listener `configuration` names, if any.
    /// - Returns: the bound address, nil when there is no admin listener.
    func start(_ configuration: AdminConfiguration?) throws -> SocketAddress? {
        guard let configuration else { return nil }
        let (server, address) = try Self.bind(configuration, handlers)
        self.configuration = configuration
        self.server = server
        self.address = address
        return address
    }

    /// Reload step 1: binds the new listener if `next` differs from the one in effect.
    /// - Throws: when the new address cannot be bound (nothing changed).
    func prepare(_ next: AdminConfiguration?) throws -> Change {
        guard next != configuration else { return Change(endpoint: self, next: next, server: nil, address: address) }
        guard let next else { return Change(endpoint: self, next: nil, server: nil, address: nil) }
        let (server, address) = try Self.bind(next, handlers)
        return Change(endpoint: self, next: next, server: server, address: address)
    }

    /// Closes the listener and its connections.
    func stop() {
        server?.stop()
        server = nil
        address = nil
    }

    /// A reload's admin change, bound but not yet in effect.
    struct Change {
        fileprivate let endpoint: AdminEndpoint
        fileprivate let next: AdminConfiguration?
        fileprivate let server: AdminServer?
        fileprivate let address: SocketAddress?

        /// Whether the reload adds, moves or removes the admin listener.
        var changes: Bool { next != endpoint.configuration }

        /// Reload step 2: the new listener (if any) replaces the old one, which is closed.
        /// - Returns: the address now listening (if it is new) and the one closed (if any).
        func commit() -> (added: SocketAddress?, removed: SocketAddress?) {
            guard changes else { return (nil, nil) }
            let removed = endpoint.address
            endpoint.server?.stop()
            endpoint.configuration = next
            endpoint.server = server
            endpoint.address = address
            return (address, removed)
        }

        /// The reload was refused after step 1: closes the listener it bound.
        func cancel() {
            if changes { server?.stop() }
        }
    }

    private static func bind(
        _ configuration: AdminConfiguration, _ handlers: AdminHandlers
    ) throws -> (AdminServer, SocketAddress) {
        guard let address = SocketAddress(configuration.address.description) else {
            throw StartupError("\(configuration.address): not a numeric address")
        }
        let server = AdminServer(handlers: handlers)
        return (server, try server.start(address: address))
    }
}
