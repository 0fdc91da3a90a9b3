import Foundation
import LoopbackTestSupport
import ProxyEngine
import Testing

/// SIGTERM on the real binary: stop accepting, let the request in flight finish, exit 0.
@Suite("serve: drain on SIGTERM")
struct ServeDrainTests {
    @Test func sigtermLetsTheUploadInFlightFinishThenExitsZero() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let (serve, ports) = try fixture.serve(ServeFixture.config(upstream: fixture.echoUpstream(), workers: 1))
        defer { serve.kill() }
        // An idle keep-alive connection: the worker closes it as soon as it starts draining.
        let idle = try TestHTTPClient(port: ports[0], timeout: 10)
        idle.send("GET /idle HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(idle.readResponse()?.status == 200)

        let value = [UInt8](repeating: UInt8(ascii: "d"), count: 1_000_000)
        let body = Array("--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"big.bin\"\r\n\r\n".utf8)
            + value + Array("\r\n--b--\r\n".utf8)
        let busy = try TestHTTPClient(port: ports[0], timeout: 10)
        busy.send("POST /slow HTTP/1.1\r\nHost: a\r\nContent-Type: multipart/form-data; boundary=b\r\n"
                  + "Content-Length: \(body.count)\r\nExpect: 100-continue\r\n\r\n")
        // 100 Continue: partgate has read the head and started the exchange.
        #expect(busy.readInterimResponse() == 100)
        busy.send(Array(body.prefix(body.count / 2)))

        serve.send(SIGTERM)
        #expect(serve.waitForLog("draining")?["signal"] as? String == "SIGTERM")
        #expect(idle.isClosedByPeer(), "the idle connection is closed when draining starts")
        #expect(throws: (any Error).self, "new connections are refused") { try TestHTTPClient(port: ports[0]) }
        #expect(serve.waitForExit(timeout: 0) == nil, "still running while the upload is in flight")

        busy.send(Array(body.suffix(from: body.count / 2)))
        let response = try #require(busy.readResponse())
        #expect(response.status == 200)
        #expect(response.header("connection") == "close")
        let parts = response.json?["parts"] as? [[String: Any]]
        #expect(parts?.first?["size"] as? Int == value.count)
        #expect(busy.isClosedByPeer())
        #expect(serve.waitForExit() == 0)
        #expect(serve.waitForLog("stopped", timeout: 5) != nil)
        #expect(fixture.recorder.records.map(\.target) == ["/idle", "/slow"])
    }

    /// Kubernetes stops routing to a pod whose readiness probe fails: `/readyz` turns 503 the moment draining
    /// starts and stays so while the upload in flight finishes; `/healthz` stays 200 (the process is alive).
    @Test func readinessIs503WhileDrainingAndHealthStays200() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let yaml = ServeFixture.config(upstream: fixture.echoUpstream(), workers: 1)
            .replacingOccurrences(of: "upstreams:", with: "admin: { address: 127.0.0.1:0 }\nupstreams:")
        let (serve, ports) = try fixture.serve(yaml, listeners: 2)
        defer { serve.kill() }
        let admin = AdminClient(port: ports[1])
        #expect(try admin.request("/readyz")?.status == 200)

        let body = Array("--b\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nvalue\r\n--b--\r\n".utf8)
        let busy = try TestHTTPClient(port: ports[0], timeout: 10)
        busy.send("POST /during-drain HTTP/1.1\r\nHost: a\r\nContent-Type: multipart/form-data; boundary=b\r\n"
                  + "Content-Length: \(body.count)\r\nExpect: 100-continue\r\n\r\n")
        #expect(busy.readInterimResponse() == 100)
        busy.send(Array(body.prefix(10)))

        serve.send(SIGTERM)
        #expect(serve.waitForLog("draining") != nil)
        let ready = try #require(try admin.request("/readyz"))
        #expect(ready.status == 503)
        #expect(ready.json?["ready"] as? Bool == false)
        #expect(ready.json?["reason"] as? String == "draining")
        #expect(try admin.request("/healthz")?.status == 200)
        #expect(serve.waitForExit(timeout: 0) == nil, "still running while the upload is in flight")

        busy.send(Array(body.suffix(from: 10)))
        #expect(busy.readResponse()?.status == 200)
        #expect(serve.waitForExit() == 0)
        #expect(fixture.recorder.records.map(\.target) == ["/during-drain"])
    }
}
