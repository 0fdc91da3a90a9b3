import Foundation
import LoopbackTestSupport
import ProxyEngine
import Testing

/// SIGHUP on the real binary: a good configuration is swapped in while uploads keep flowing, a bad one is
/// refused with its file:line:column and the old one keeps serving.
@Suite("serve: reload on SIGHUP", .serialized)
struct ServeReloadTests {
    /// What one client request saw, and where the reload was when it started and ended.
    struct Outcome {
        var client: Int
        var path: String
        var startedIn: Stage
        var endedIn: Stage
        var status: Int?
        var parts: [String]
    }

    /// Where the test is: before SIGHUP, SIGHUP sent, `configuration reloaded` logged.
    enum Stage: Int, Comparable {
        case before, signalled, reloaded
        static func < (left: Stage, right: Stage) -> Bool { left.rawValue < right.rawValue }
    }

    /// Shared between the client threads and the test.
    final class LoadRun: @unchecked Sendable {
        // @unchecked Sendable: every access holds `lock`.
        private let lock = NSLock()
        private var currentStage = Stage.before
        private var outcomes: [Outcome] = []

        var stage: Stage {
            get { lock.withLock { currentStage } }
            set { lock.withLock { currentStage = newValue } }
        }

        func record(_ outcome: Outcome) { lock.withLock { outcomes.append(outcome) } }
        var all: [Outcome] { lock.withLock { outcomes } }
        func count(client: Int) -> Int { lock.withLock { outcomes.filter { $0.client == client }.count } }
    }

    /// One client: uploads in a loop, every fourth on a new connection, the others kept alive; stops after
    /// five uploads started after the reload, at the first failure, or at the bounds.
    static func client(_ index: Int, port: UInt16, run: LoadRun, deadline: Date) {
        var connection: TestHTTPClient?
        var sent = 0
        var afterReload = 0
        while sent < 1000, afterReload < 5, Date() < deadline {
            if connection == nil || sent % 4 == 3 { connection = try? TestHTTPClient(port: port, timeout: 20) }
            let path = "/load/\(index)/\(sent)"
            let started = run.stage
            guard let client = connection else {
                run.record(
                    Outcome(client: index, path: path, startedIn: started, endedIn: run.stage, status: nil, parts: []))
                return
            }
            let response = ReloadFixture.post(client, path)
            run.record(Outcome(client: index, path: path, startedIn: started, endedIn: run.stage,
                               status: response?.status, parts: response.map(ReloadFixture.partNames) ?? []))
            guard let response, response.status == 200 else { return }
            if response.header("connection") == "close" { connection = nil }
            sent += 1
            if started == .reloaded { afterReload += 1 }
        }
    }

    @Test func reloadUnderLoadAppliesTheNewRuleToNewRequestsAndFailsNone() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let (serve, ports) = try fixture.serve(ReloadFixture.config(fixture, stripSecret: false))
        defer { serve.kill() }
        let run = LoadRun()
        let clients = 4
        let deadline = Date(timeIntervalSinceNow: 90)
        let group = DispatchGroup()
        for index in 0..<clients {
            group.enter()
            let port = ports[0]
            Thread {
                Self.client(index, port: port, run: run, deadline: deadline)
                group.leave()
            }.start()
        }
        // Every client has uploads behind it before the configuration changes.
        var polls = 0
        while (0..<clients).contains(where: { run.count(client: $0) < 3 }), polls < 6000, Date() < deadline {
            usleep(10_000)
            polls += 1
        }
        run.stage = .signalled
        try ReloadFixture.rewrite(fixture, serve, ReloadFixture.config(fixture, stripSecret: true))
        let reloaded = ReloadFixture.waitForReload(serve, generation: 2)
        run.stage = .reloaded
        #expect(reloaded != nil, "no reload line: \(serve.output.suffix(5))")
        #expect(group.wait(timeout: .now() + 100) == .success, "the clients did not finish")

        let outcomes = run.all
        #expect(outcomes.allSatisfy { $0.status == 200 }, "failed: \(outcomes.filter { $0.status != 200 }.map(\.path))")
        for index in 0..<clients {
            let mine = outcomes.filter { $0.client == index }
            #expect(mine.filter { $0.endedIn == .before }.count >= 3, "client \(index) before the reload")
            #expect(mine.filter { $0.startedIn == .reloaded }.count == 5, "client \(index) after the reload")
        }
        let withSecret = ["keep", "secret", "data"]
        let stripped = ["keep", "data"]
        for outcome in outcomes {
            if outcome.endedIn == .before {
                #expect(outcome.parts == withSecret, "\(outcome.path) ran under the first configuration")
            } else if outcome.startedIn == .reloaded {
                #expect(outcome.parts == stripped, "\(outcome.path) started after the reload")
            } else {
                #expect(outcome.parts == withSecret || outcome.parts == stripped, "\(outcome.path) during the reload")
            }
        }
        // The upstream got each request exactly once, and what it got agrees with what the client was told.
        let records = Dictionary(grouping: fixture.recorder.records, by: \.target)
        #expect(records.count == outcomes.count)
        for outcome in outcomes {
            let got = records[outcome.path] ?? []
            #expect(got.count == 1, "\(outcome.path) reached the upstream \(got.count) time(s)")
            #expect(got.first.map { $0.parts.map(\.name) } == outcome.parts, "\(outcome.path) upstream parts")
        }
        #expect(!serve.logLines.contains { $0["msg"] as? String == "configuration reload refused" })
        serve.expectCleanStop()
    }

    @Test func aBadConfigurationIsRefusedWithItsPositionAndTheOldRulesStay() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let good = ReloadFixture.config(fixture, stripSecret: true)
        let (serve, ports) = try fixture.serve(good)
        defer { serve.kill() }
        let client = try TestHTTPClient(port: ports[0])
        #expect(ReloadFixture.post(client, "/first").map(ReloadFixture.partNames) == ["keep", "data"])

        // An unknown key inside the rule, and the rule that strips `secret` dropped from the route.
        let lines = good.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let ruleLine = try #require(lines.firstIndex(of: "        strip: true"))
        var bad = lines
        bad[ruleLine] = "        stripe: true"
        try ReloadFixture.rewrite(fixture, serve, bad.joined(separator: "\n"))
        let refused = try #require(serve.waitForLog("configuration reload refused", timeout: 20))
        let position = "\(fixture.path("partgate.yaml")):\(ruleLine + 1):9: error: "
        let error = refused["error"] as? String ?? ""
        #expect(error.hasPrefix(position), "\(error)")
        // The same words `partgate check` prints for that file.
        let check = try PartgateBinary.run(["check", "--config", fixture.path("partgate.yaml")])
        #expect(check.status != 0)
        #expect(check.stderr.split(separator: "\n").first.map(String.init) == error)
        #expect("\(refused["generation"] ?? "")" == "1")

        // The old rules still apply, on the connection kept alive and on a new one.
        #expect(ReloadFixture.post(client, "/kept").map(ReloadFixture.partNames) == ["keep", "data"])
        let fresh = try TestHTTPClient(port: ports[0])
        #expect(ReloadFixture.post(fresh, "/fresh").map(ReloadFixture.partNames) == ["keep", "data"])

        // A worker count the running server cannot change is refused too, with the reason.
        try ReloadFixture.rewrite(fixture, serve, ReloadFixture.config(fixture, stripSecret: false, workers: 3))
        let workers = serve.waitForLogLine(timeout: 20) {
            $0["msg"] as? String == "configuration reload refused" && ($0["error"] as? String ?? "").contains("workers")
        }
        let reason = (workers?["error"] as? String) ?? ""
        #expect(reason.contains("restart"), "\(reason)")
        #expect(ReloadFixture.post(fresh, "/still").map(ReloadFixture.partNames) == ["keep", "data"])

        // A good file afterwards is the second generation: refusals did not count.
        try ReloadFixture.rewrite(fixture, serve, ReloadFixture.config(fixture, stripSecret: false))
        #expect(ReloadFixture.waitForReload(serve, generation: 2) != nil)
        #expect(ReloadFixture.post(fresh, "/after").map(ReloadFixture.partNames) == ["keep", "secret", "data"])
        #expect(fixture.recorder.records.map { $0.parts.map(\.name) } == [
            ["keep", "data"], ["keep", "data"], ["keep", "data"], ["keep", "data"], ["keep", "secret", "data"],
        ])
        serve.expectCleanStop()
    }
}
