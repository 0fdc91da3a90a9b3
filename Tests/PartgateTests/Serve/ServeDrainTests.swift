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
}
