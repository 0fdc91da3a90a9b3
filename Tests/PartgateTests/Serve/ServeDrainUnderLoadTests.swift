import Foundation
import LoopbackTestSupport
import ProxyEngine
import Testing

/// SIGTERM on the real binary while several uploads are in flight on both workers.
@Suite("serve: drain under load", .serialized)
struct ServeDrainUnderLoadTests {
    @Test func sigtermWhileUploadsAreInFlightCompletesEveryOneRefusesNewConnectionsAndExitsZero() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let (serve, ports) = try fixture.serve(ReloadFixture.config(fixture, stripSecret: true, workers: 2))
        defer { serve.kill() }
        let uploads = 6
        let fileBytes = 2 * 1024 * 1024
        // Each connection sends its head and half of its body, then waits: a request in flight.
        var clients: [TestHTTPClient] = []
        var requests: [[UInt8]] = []
        for index in 0..<uploads {
            let client = try TestHTTPClient(port: ports[0], timeout: 30)
            var request = ReloadFixture.upload("/inflight/\(index)", fileBytes: fileBytes)
            // Ask for 100 Continue, so that the test knows partgate started the exchange.
            let headEnd = try #require(request.firstRange(of: Array("\r\n\r\n".utf8)))
            request.insert(contentsOf: Array("\r\nExpect: 100-continue".utf8), at: headEnd.lowerBound)
            let split = request.count / 2
            client.send(Array(request[..<split]))
            clients.append(client)
            requests.append(Array(request[split...]))
        }
        for client in clients {
            #expect(client.readInterimResponse() == 100)
        }

        serve.send(SIGTERM)
        #expect(serve.waitForLog("draining")?["signal"] as? String == "SIGTERM")
        #expect(throws: (any Error).self, "new connections are refused") { try TestHTTPClient(port: ports[0]) }
        #expect(serve.waitForExit(timeout: 0) == nil, "still running while uploads are in flight")

        // The rest of every body, from as many threads at once.
        let group = DispatchGroup()
        let responses = Responses()
        for (index, client) in clients.enumerated() {
            let rest = requests[index]
            nonisolated(unsafe) let client = client
            group.enter()
            Thread {
                client.send(rest)
                let response = client.readResponse()
                responses.set(index, response.map { ($0.status, $0.header("connection"), ReloadFixture.partNames($0)) })
                responses.setClosed(index, client.isClosedByPeer())
                group.leave()
            }.start()
        }
        #expect(group.wait(timeout: .now() + 60) == .success)
        for index in 0..<uploads {
            let response = responses.get(index)
            #expect(
                response?.status == 200,
                "upload \(index): \(serve.output.filter { !$0.contains("\"access\"") && !$0.contains("listening") })")
            #expect(response?.connection == "close", "upload \(index)")
            #expect(response?.parts == ["keep", "data"], "upload \(index): the configuration's rule applied")
            #expect(responses.closed(index), "upload \(index): the connection closes after the response")
        }
        #expect(serve.waitForExit(timeout: 30) == 0, "stderr: \(serve.standardError)")
        #expect(serve.waitForLog("stopped", timeout: 5) != nil)
        let records = fixture.recorder.records
        #expect(Set(records.map(\.target)) == Set((0..<uploads).map { "/inflight/\($0)" }))
        #expect(records.allSatisfy { $0.error == nil && $0.parts.last?.size == Int64(fileBytes) })
    }

    /// What each client thread got.
    final class Responses: @unchecked Sendable {
        // @unchecked Sendable: every access holds `lock`.
        private let lock = NSLock()
        private var items: [Int: (status: Int, connection: String?, parts: [String])] = [:]
        private var closedFlags: [Int: Bool] = [:]

        func set(_ index: Int, _ value: (Int, String?, [String])?) {
            lock.withLock { items[index] = value.map { (status: $0.0, connection: $0.1, parts: $0.2) } }
        }
        func get(_ index: Int) -> (status: Int, connection: String?, parts: [String])? {
            lock.withLock { items[index] }
        }
        func setClosed(_ index: Int, _ closed: Bool) { lock.withLock { closedFlags[index] = closed } }
        func closed(_ index: Int) -> Bool { lock.withLock { closedFlags[index] ?? false } }
    }
}
