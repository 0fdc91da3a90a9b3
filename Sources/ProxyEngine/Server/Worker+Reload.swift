/// Reload on one worker: everything here runs on the worker's loop thread (through
/// ``EventLoop/perform(timeout:_:)``), so connections see a new snapshot between two of their callbacks, never
/// in the middle of one.
extension Worker {
    /// Switches to `new`: closes the listeners it no longer names, gives the kept ones their (possibly new)
    /// TLS context, and closes the idle pooled connections of upstreams that were removed or now connect
    /// elsewhere or differently. Listeners it adds must already be bound (``listen(_:configured:tls:)``).
    /// Open connections keep serving; each takes the new snapshot when its next request head completes.
    /// - Returns: the names of the upstreams whose pools were drained.
    @discardableResult
    func adopt(_ new: EngineSettings) -> [String] {
        let old = settings
        settings = new
        metrics = EngineMetrics(settings: new)
        var tlsByAddress: [SocketAddress: (any ServerTLSProvider)?] = [:]
        for listener in new.listeners { tlsByAddress[listener.address] = listener.tls }
        for entry in listeners {
            if let tls = tlsByAddress[entry.configured] {
                entry.tls = tls
            } else {
                entry.close()
            }
        }
        listeners.removeAll { $0.listener == nil }
        checkConnectionLimit()  // the limit may have changed
        var drained: [String] = []
        for (name, upstream) in old.upstreams.sorted(by: { $0.key < $1.key }) {
            guard new.upstreams[name]?.keepsConnections(of: upstream) != true else { continue }
            pool.closeAll(named: name)
            drained.append(name)
        }
        return drained
    }

    /// Closes the listener bound for `configured` (a reload that failed half-way takes back what it bound).
    func closeListener(configured: SocketAddress) {
        for entry in listeners where entry.configured == configured { entry.close() }
        listeners.removeAll { $0.listener == nil }
    }

    /// The configured addresses this worker listens on.
    var listeningAddresses: [SocketAddress] { listeners.map(\.configured) }
}
