/// What a successful ``ProxyServer/reload(settings:)`` changed.
public struct ReloadSummary: Sendable {
    /// The new configuration's generation (1 was the one the server started with).
    public var generation: Int
    /// Listeners the reload added, with their bound addresses (port 0 resolved), in configuration order.
    public var added: [ListenerSettings]
    /// Listeners the reload closed: the addresses they were bound to.
    public var removed: [SocketAddress]
    /// Upstreams whose idle pooled connections were closed (removed, or now reached another way).
    public var drainedUpstreams: [String]
}

/// Why a reload was refused; the configuration in effect did not change.
public struct ReloadError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension ProxyServer {
    /// Replaces the configuration of a running server with `new`, atomically per worker.
    ///
    /// First binds the listeners `new` adds on every worker (SO_REUSEPORT; port 0 is resolved once and shared);
    /// if one cannot be bound, those bound so far are closed again and nothing else changes. Then every worker
    /// switches on its own loop thread: listeners `new` no longer names are closed, a listener whose configured
    /// address is unchanged keeps its socket (so no connection is refused during the reload) and takes the new
    /// TLS context, and idle upstream connections of removed or changed upstreams are closed. Requests in
    /// flight finish under the snapshot they started with; a connection takes the new one when its next
    /// request head completes. Call from the thread that called ``start()``.
    /// - Parameter new: the new settings; its `workers` must equal the running count.
    /// - Returns: what changed.
    /// - Throws: ``ReloadError`` when the worker count differs (a restart is needed) or a new listener cannot
    ///   be bound.
    public func reload(settings new: EngineSettings) throws(ReloadError) -> ReloadSummary {
        guard !workers.isEmpty else { throw ReloadError("the server is not running") }
        guard max(1, new.workers) == workers.count else {
            throw ReloadError(
                "workers: \(new.workers) differs from the \(workers.count) running; changing it needs a restart")
        }
        var next = new
        next.generation = settings.generation + 1
        let previous = Set(settings.listeners.map(\.address))
        var addedListeners: [ListenerSettings] = []
        do {
            for listener in next.listeners where !previous.contains(listener.address) {
                var boundListener = listener
                boundListener.address = try bindEverywhere(listener)
                addedListeners.append(boundListener)
            }
        } catch {
            // Take back everything this reload bound, the listener that failed half-way included.
            for listener in next.listeners where !previous.contains(listener.address) {
                unbindEverywhere(listener.address)
                bound[listener.address] = nil
            }
            throw ReloadError("\(error)")
        }
        var drained = Set<String>()
        let snapshot = next
        for worker in workers {
            // A loop that does not answer in time still runs the switch when it gets to it.
            let names = (try? worker.loop.perform { worker.adopt(snapshot) }) ?? []
            drained.formUnion(names)
        }
        let kept = Set(next.listeners.map(\.address))
        var removed: [SocketAddress] = []
        for listener in settings.listeners where !kept.contains(listener.address) {
            if let address = bound.removeValue(forKey: listener.address) { removed.append(address) }
        }
        settings = next
        addresses = next.listeners.compactMap { bound[$0.address] }
        return ReloadSummary(
            generation: next.generation, added: addedListeners, removed: removed,
            drainedUpstreams: drained.sorted())
    }

    /// Binds `listener` on every worker: the first resolves port 0, the others bind the same port.
    private func bindEverywhere(_ listener: ListenerSettings) throws -> SocketAddress {
        let configured = listener.address
        let tls = listener.tls
        let first = workers[0]
        let address = try first.loop.perform { try first.listen(configured, configured: configured, tls: tls) }
        bound[configured] = address
        for worker in workers.dropFirst() {
            _ = try worker.loop.perform { try worker.listen(address, configured: configured, tls: tls) }
        }
        return address
    }

    /// Closes whatever a failed reload bound for `configured`, on every worker.
    private func unbindEverywhere(_ configured: SocketAddress) {
        for worker in workers {
            _ = try? worker.loop.perform { worker.closeListener(configured: configured) }
        }
    }
}
