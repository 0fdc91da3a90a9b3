import Foundation
import ProxyEngine
import Testing

@testable import partgate

/// The periodic DNS re-check behind `/readyz`: a host that stops resolving makes the process not ready (with
/// the upstream and the resolver's reason), and ready again once it resolves. The monitor's own thread runs the
/// re-checks; only the resolver and the interval are injected.
@Suite struct ReadinessMonitorTests {
    /// What the injected resolver answers, switched by the test while the monitor's thread calls it.
    final class Switch: @unchecked Sendable {
        private let lock = NSLock()
        private var failing: Set<String> = []
        private var calls = 0

        func set(_ host: String, failing: Bool) {
            lock.withLock { if failing { self.failing.insert(host) } else { self.failing.remove(host) } }
        }

        var callCount: Int { lock.withLock { calls } }

        func resolve(_ host: String) throws {
            try lock.withLock {
                calls += 1
                if failing.contains(host) { throw Failure(reason: "cannot resolve \(host): injected failure") }
            }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    /// Polls `readiness` until `condition` holds or 5 s passed.
    private func eventually(_ monitor: ReadinessMonitor, _ condition: (AdminReadiness) -> Bool) async -> Bool {
        for _ in 0..<500 {
            if condition(monitor.readiness) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    @Test func aHostThatStopsResolvingMakesTheProcessNotReadyUntilItResolvesAgain() async {
        let hosts = Switch()
        let monitor = ReadinessMonitor(
            upstreams: [
                .init(name: "files", host: "files.internal", port: 443),
                .init(name: "api", host: "api.internal", port: 443),
            ],
            interval: 0.02, resolve: { host, _ in try hosts.resolve(host) })
        defer { monitor.stop() }
        #expect(monitor.readiness == AdminReadiness(ready: false, reason: "listeners are not bound"))
        monitor.listenersAreBound()
        #expect(monitor.readiness == AdminReadiness(ready: true))

        hosts.set("files.internal", failing: true)
        #expect(await eventually(monitor) {
            $0 == AdminReadiness(ready: false, reason: "upstream files does not resolve: cannot resolve files.internal: injected failure")
        })
        // Both failing: the first by name is reported.
        hosts.set("api.internal", failing: true)
        #expect(await eventually(monitor) { $0.reason?.hasPrefix("upstream api does not resolve") == true })

        hosts.set("api.internal", failing: false)
        hosts.set("files.internal", failing: false)
        #expect(await eventually(monitor) { $0 == AdminReadiness(ready: true) })
        #expect(hosts.callCount >= 6)
    }

    @Test func stopEndsTheRecheckThreadAndDrainingWins() async throws {
        let hosts = Switch()
        let monitor = ReadinessMonitor(
            upstreams: [.init(name: "files", host: "files.internal", port: 443)],
            interval: 0.01, resolve: { host, _ in try hosts.resolve(host) })
        monitor.listenersAreBound()
        try await Task.sleep(for: .milliseconds(100))
        monitor.beginDraining()
        #expect(monitor.readiness == AdminReadiness(ready: false, reason: "draining"))
        monitor.stop()
        try await Task.sleep(for: .milliseconds(50))  // a re-check under way finishes
        let calls = hosts.callCount
        #expect(calls > 0)
        try await Task.sleep(for: .milliseconds(200))
        #expect(hosts.callCount == calls)
    }

    /// The real resolver: `localhost` resolves through getaddrinfo, so the monitor stays ready.
    @Test func theDefaultResolverResolvesLocalhost() async throws {
        let monitor = ReadinessMonitor(upstreams: [.init(name: "local", host: "localhost", port: 443)], interval: 0.01)
        defer { monitor.stop() }
        monitor.listenersAreBound()
        try await Task.sleep(for: .milliseconds(100))
        #expect(monitor.readiness == AdminReadiness(ready: true))
    }
}

