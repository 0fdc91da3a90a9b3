import Foundation
import Testing

@testable import partgate

/// `partgate demo` runs conf/policy-images.yaml, and the requests its banner suggests do what it says.
@Suite("partgate demo", .serialized)
struct DemoCommandTests {
    @Test func embedsConfPolicyImagesByteForByte() throws {
        let path = PartgateBinary.repositoryRoot().appendingPathComponent(DemoPolicy.source)
        let file = try String(contentsOf: path, encoding: .utf8)
        #expect(DemoPolicy.yaml == file, "run scripts/embed-demo-policy.sh after editing \(DemoPolicy.source)")
    }

    @Test func bannerRequestsStripRenameAndRefuse() throws {
        let process = try ServeProcess(arguments: ["demo", "--listen", "127.0.0.1:0"])
        defer { process.kill() }
        let port = try #require(process.listeningPorts(count: 1).first)
        let banner = Self.waitForLine(process) {
            $0.hasPrefix("partgate demo: running conf/policy-images.yaml (embedded)")
        }
        #expect(banner != nil, "output: \(process.output)")
        let avatar = FileManager.default.temporaryDirectory.appendingPathComponent(
            "partgate-avatar-\(UUID().uuidString).png")
        try Data(base64Encoded: DemoCommand.avatarPNGBase64)!.write(to: avatar)
        defer { try? FileManager.default.removeItem(at: avatar) }
        let examples = DemoCommand.examples(proxy: "127.0.0.1:\(port)", avatarPath: avatar.path)
        for example in DemoCommand.examples(proxy: "127.0.0.1:\(port)") {
            let line = "  curl " + example.curlArguments.map(DemoCommand.shellQuoted).joined(separator: " ")
            #expect(process.output.contains(line), "banner lacks \(line)")
        }

        let accepted = try #require(try Curl.run(examples[0].curlArguments).jsonObjects.first)
        let parts = try #require(accepted["parts"] as? [[String: Any]])
        #expect(parts.count == 1)  // 'note' stripped
        #expect(parts.first?["name"] as? String == "avatar")
        #expect(parts.first?["type"] as? String == "image/png")
        let filename = try #require(parts.first?["filename"] as? String)
        #expect(filename.hasSuffix(".png") && filename.count == 40 && !filename.contains("me"))

        let refused = try #require(try Curl.run(examples[1].curlArguments).jsonObjects.first)
        #expect(refused["status"] as? Int == 415)
        #expect(refused["flag"] as? String == "no-executables")
        let audit = process.waitForLogLine { $0["msg"] as? String == "audit" && $0["decision"] as? String == "reject" }
        #expect(audit?["rule"] as? String == "no-executables")
        process.expectCleanStop()
    }

    static func waitForLine(_ process: ServeProcess, timeout: TimeInterval = 5, _ matches: (String) -> Bool) -> String?
    {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if let line = process.output.first(where: matches) { return line }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return nil
    }
}
