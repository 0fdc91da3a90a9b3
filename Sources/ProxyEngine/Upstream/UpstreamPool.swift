/// Idle keep-alive upstream connections of one worker, per upstream name (most recently used first).
final class UpstreamPool {
    /// One list per upstream name, searched in order: a configuration names a handful of upstreams, and
    /// comparing a name with the one it was copied from is a pointer comparison, where a dictionary hashed
    /// the name on every take and put.
    private var idle: [(name: String, connections: [UpstreamConnection])] = []
    /// How long an idle connection is kept (shorter than common upstream keep-alive timeouts, e.g. nginx 75 s).
    let idleTimeout: Duration
    private let idleTime: LoopTimeout
    /// Whether a connection may still be kept (after a reload, only connections to an upstream whose settings
    /// did not change; see ``UpstreamSettings/keepsConnections(of:)``).
    var admits: (UpstreamConnection) -> Bool = { _ in true }

    init(idleTimeout: Duration = .seconds(30)) {
        self.idleTimeout = idleTimeout
        self.idleTime = LoopTimeout(idleTimeout)
    }

    /// An idle connection to `name`, if one is open.
    func take(_ name: String) -> UpstreamConnection? {
        guard let slot = slot(name) else { return nil }
        while let connection = idle[slot].connections.popLast() {
            connection.metrics?.idleConnections.decrement()
            if connection.isOpen {
                // Its idle timeout stays until the taker sets the request's timeouts, at once (one call to
                // libevent, not two).
                connection.idlePool = nil
                return connection
            }
        }
        return nil
    }

    /// Keeps `connection` for reuse, or closes it when the pool for its upstream is full.
    func put(_ connection: UpstreamConnection) {
        let name = connection.settings.name
        let slot = slot(name)
        let kept = slot.map { idle[$0].connections.count } ?? 0
        guard connection.isOpen, kept < connection.settings.maxIdleConnections, admits(connection),
            connection.endBatch()
        else {
            connection.close()
            return
        }
        var idleTime = idleTime
        if let seconds = connection.keepAliveSeconds {
            // The upstream said how long it keeps an idle connection (`Keep-Alive: timeout=N`; Node.js 5 s,
            // Apache 5 s, Gunicorn 2 s): keep it a second less, so a request is not sent as the upstream closes
            // it (a POST would then get 502). Closed at once when that leaves nothing.
            guard seconds > 1 else {
                connection.close()
                return
            }
            if .seconds(seconds - 1) < idleTimeout { idleTime = LoopTimeout(.seconds(seconds - 1)) }
        }
        connection.delegate = nil
        connection.setTimeouts(read: idleTime, write: idleTime)
        connection.idlePool = self
        if let slot {
            idle[slot].connections.append(connection)
        } else {
            idle.append((name, [connection]))
        }
        connection.metrics?.idleConnections.increment()
    }

    /// Drops an idle connection that closed (the upstream ended it, or its idle timeout fired).
    func remove(_ closed: UpstreamConnection) {
        closed.idlePool = nil
        guard let slot = slot(closed.settings.name),
            let index = idle[slot].connections.firstIndex(where: { $0 === closed })
        else { return }
        idle[slot].connections.remove(at: index)
        closed.metrics?.idleConnections.decrement()
    }

    /// Idle connections held, all upstreams.
    var count: Int { idle.reduce(0) { $0 + $1.connections.count } }

    private func slot(_ name: String) -> Int? {
        idle.firstIndex { $0.name == name }
    }

    /// The address of each upstream (by name) that a connection from this worker last reached, for upstreams with
    /// several addresses.
    private var reachedAddresses: [(name: String, address: SocketAddress)] = []

    /// The addresses to try for a new connection to `settings`' upstream: the one last reached first (nginx keeps a
    /// failed server out of its rotation for a while in the same spirit), then the others in their order.
    func addressOrder(_ settings: UpstreamSettings) -> [SocketAddress] {
        let all = settings.addresses
        guard let reached = reachedAddresses.first(where: { $0.name == settings.name })?.address,
            let index = all.firstIndex(of: reached), index > 0
        else { return all }
        return [reached] + all[..<index] + all[(index + 1)...]
    }

    /// Remembers that a connection to the upstream `name` reached `address`.
    func reached(_ address: SocketAddress, _ name: String) {
        if let index = reachedAddresses.firstIndex(where: { $0.name == name }) {
            reachedAddresses[index].address = address
        } else {
            reachedAddresses.append((name, address))
        }
    }

    /// Closes the idle connections to `name` (a reload removed or changed that upstream).
    func closeAll(named name: String) {
        guard let slot = slot(name) else { return }
        let connections = idle.remove(at: slot).connections
        for connection in connections { connection.close() }
    }

    /// Closes every idle connection.
    func closeAll() {
        let all = idle.flatMap { $0.connections }
        idle.removeAll()
        for connection in all {
            connection.metrics?.idleConnections.decrement()
            connection.close()
        }
    }
}
