import CEventTLS  // owns <sys/socket.h>'s enums (SOCK_STREAM, SHUT_WR) when its module loads first
import Foundation
import LoopbackTestSupport
import Testing

/// Configurations, uploads and signals for the reload and drain tests of the real binary.
enum ReloadFixture {
    /// A configuration with the given listener addresses, the fixture's TLS echo as upstream `echo`, and
    /// one route `all`; with `stripSecret`, a rule `drop-secret` strips the field `secret`; `upstreamExtra`
    /// adds keys to the upstream; `admin` is the admin listener's address (none if nil).
    static func config(
        _ fixture: ServeFixture, listeners: [String] = ["127.0.0.1:0"], stripSecret: Bool, workers: Int = 2,
        upstreamExtra: [String] = [], admin: String? = nil
    ) -> String {
        var lines = ["version: 1", "workers: \(workers)", "listeners:"]
        lines += listeners.map { "  - address: \($0)" }
        if let admin { lines += ["admin: { address: \"\(admin)\" }"] }
        lines += ["upstreams:", "  echo:"] + fixture.echoUpstream(extra: upstreamExtra).map { "    " + $0 }
        lines += ["limits:", "  drain_timeout: 20s"]
        lines += ["routes:", "  - name: all", "    upstream: echo"]
        if stripSecret {
            lines += [
                "    rules:", "      - name: drop-secret", "        match: { field: secret }", "        strip: true",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A multipart upload to `path`: fields `keep` and `secret`, and a file `data` of `fileBytes` bytes.
    static func upload(_ path: String, fileBytes: Int = 32 * 1024) -> [UInt8] {
        var body = Array("--b\r\nContent-Disposition: form-data; name=\"keep\"\r\n\r\n\(path)\r\n".utf8)
        body += Array("--b\r\nContent-Disposition: form-data; name=\"secret\"\r\n\r\nhunter2\r\n".utf8)
        body += Array("--b\r\nContent-Disposition: form-data; name=\"data\"; filename=\"d.bin\"\r\n\r\n".utf8)
        body += [UInt8](repeating: UInt8(ascii: "x"), count: fileBytes) + Array("\r\n--b--\r\n".utf8)
        let head = "POST \(path) HTTP/1.1\r\nHost: a\r\nContent-Type: multipart/form-data; boundary=b\r\n"
            + "Content-Length: \(body.count)\r\n\r\n"
        return Array(head.utf8) + body
    }

    /// The part names in the echo's JSON reply.
    static func partNames(_ response: TestHTTPClient.Response) -> [String] {
        ((response.json?["parts"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
    }

    /// Writes `yaml` over the running configuration file and sends SIGHUP.
    static func rewrite(_ fixture: ServeFixture, _ serve: ServeProcess, _ yaml: String) throws {
        // Write a new file and rename it over the old one, as editors and config management do.
        let temporary = try fixture.write(Array(yaml.utf8), to: "partgate.yaml.new")
        #expect(rename(temporary, fixture.path("partgate.yaml")) == 0)
        serve.send(SIGHUP)
    }

    /// Waits for the `configuration reloaded` line of `generation`.
    static func waitForReload(_ serve: ServeProcess, generation: Int, timeout: TimeInterval = 20) -> [String: Any]? {
        serve.waitForLogLine(timeout: timeout) {
            $0["msg"] as? String == "configuration reloaded" && "\($0["generation"] ?? "")" == "\(generation)"
        }
    }

    /// A loopback port that was free a moment ago (bound to port 0, read back, closed).
    static func freePort() throws -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard ok else { throw POSIXError(.EADDRINUSE) }
        return UInt16(bigEndian: address.sin_port)
    }

    /// One request on `client`: its response, or nil when the connection failed.
    static func post(_ client: TestHTTPClient, _ path: String) -> TestHTTPClient.Response? {
        client.send(upload(path))
        return client.readResponse()
    }
}
