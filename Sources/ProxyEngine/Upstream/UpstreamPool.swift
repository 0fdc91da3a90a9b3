/// Idle keep-alive upstream connections of one worker, per upstream name (most recently used first).
final class UpstreamPool {
    private var idle: [String: [UpstreamConnection]] = [:]
    /// How long an idle connection is kept (shorter than common upstream keep-alive timeouts, e.g. nginx 75 s).
    let idleTimeout: Duration
    /// Whether a connection made with these settings may still be kept (after a reload, only connections to
    /// an upstream whose settings did not change; see ``UpstreamSettings/keepsConnections(of:)``).
    var admits: (UpstreamSettings) -> Bool = { _ in true }

    init(idleTimeout: Duration = .seconds(30)) {
        self.idleTimeout = idleTimeout
    }

    /// An idle connection to `name`, if one is open.
    func take(_ name: String) -> UpstreamConnection? {
        while let connection = idle[name]?.popLast() {
            connection.metrics?.idleConnections.decrement()
            if connection.bev != nil {
                connection.idlePool = nil
                connection.setTimeouts(nil)
                return connection
            }
        }
        return nil
    }

    /// Keeps `connection` for reuse, or closes it when the pool for its upstream is full.
    func put(_ connection: UpstreamConnection) {
        let name = connection.settings.name
        guard connection.bev != nil, (idle[name]?.count ?? 0) < connection.settings.maxIdleConnections,
            admits(connection.settings)
        else {
            connection.close()
            return
        }
        connection.delegate = nil
        connection.setTimeouts(idleTimeout)
        connection.idlePool = self
        idle[name, default: []].append(connection)
        connection.metrics?.idleConnections.increment()
    }

    /// Drops an idle connection that closed (the upstream ended it, or its idle timeout fired).
    func remove(_ closed: UpstreamConnection) {
        closed.idlePool = nil
        let name = closed.settings.name
        guard let index = idle[name]?.firstIndex(where: { $0 === closed }) else { return }
        idle[name]?.remove(at: index)
        closed.metrics?.idleConnections.decrement()
    }

    /// Idle connections held, all upstreams.
    var count: Int { idle.values.reduce(0) { $0 + $1.count } }

    /// Closes the idle connections to `name` (a reload removed or changed that upstream).
    func closeAll(named name: String) {
        let connections = idle.removeValue(forKey: name) ?? []
        for connection in connections { connection.close() }
    }

    /// Closes every idle connection.
    func closeAll() {
        let all = idle.values.flatMap { $0 }
        idle.removeAll()
        for connection in all {
            connection.metrics?.idleConnections.decrement()
            connection.close()
        }
    }
}
