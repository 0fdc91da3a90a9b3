import Foundation
import Testing

/// `partgate rewrite`'s options and its answers to bad input: one line on stderr and exit 1.
@Suite("partgate rewrite: options")
struct RewriteCommandTests {
    static let upload = RawRequest.form("/upload", [FormPart("title", "hello")])

    @Test func refusesAnInvalidBoundary() throws {
        for boundary in ["", "ends in a space ", String(repeating: "b", count: 71), "semi;colon"] {
            let result = try RawRequest.rewrite(Self.upload, config: "gateway.yaml", ["--boundary", boundary])
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("partgate rewrite: --boundary '\(boundary)': not a boundary"))
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test func aForcedRouteWinsOverMatching() throws {
        // /upload belongs to 'uploads' (which strips internal_*); 'everything-else' has no rules.
        let request = RawRequest.form("/upload", [FormPart("internal_token", "secret")])
        let matched = try RawRequest.rewrite(request, config: "gateway.yaml")
        #expect(try PrintedMessage(matched.stdoutBytes).parts().isEmpty)
        let forced = try RawRequest.rewrite(request, config: "gateway.yaml", ["--route", "everything-else"])
        #expect(try PrintedMessage(forced.stdoutBytes).parts().map(\.name) == ["internal_token"])
        let unknown = try RawRequest.rewrite(request, config: "gateway.yaml", ["--route", "upload"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("--route 'upload': no such route"))
        #expect(unknown.stderr.contains("'uploads', 'everything-else'"))
    }

    @Test func clientOptionsSetTheForwardingFields() throws {
        let result = try RawRequest.rewrite(
            Self.upload, config: "gateway.yaml", ["--client", "0:0:0:0:0:0:0:1", "--client-tls"])
        let upstream = try PrintedMessage(result.stdoutBytes)
        #expect(upstream.field("x-forwarded-for") == "::1")
        #expect(upstream.field("x-forwarded-proto") == "https")
        let bad = try RawRequest.rewrite(Self.upload, config: "gateway.yaml", ["--client", "localhost"])
        #expect(bad.status == 1)
        #expect(bad.stderr == "partgate rewrite: --client 'localhost': not an IP address (e.g. 127.0.0.1 or ::1)\n")
    }

    @Test func auditFlagPrintsRecordsForAnyRoute() throws {
        let quiet = try RawRequest.rewrite(Self.upload, config: "gateway.yaml")
        #expect(quiet.stderr.isEmpty)
        let audited = try RawRequest.rewrite(Self.upload, config: "gateway.yaml", ["--audit"])
        let records = RewritePolicyImagesTests.audit(audited)
        #expect(records.count == 1)
        #expect(records.first?["route"] as? String == "uploads")
        #expect(records.first?["sha256"] as? String == (try PartgateBinary.sha256(Array("hello".utf8))))
    }

    @Test func spoolRoutesGetAContentLength() throws {
        let workspace = try ConfigWorkspace()
        defer { workspace.remove() }
        let yaml = """
            version: 1
            listeners: [{ address: 127.0.0.1:0 }]
            upstreams: { app: { url: "http://127.0.0.1:9" } }
            routes: [{ name: all, upstream: app, forward: spool }]
            """
        let config = try workspace.write(yaml, to: "spool.yaml")
        let file = try RawRequest.file(Self.upload)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try PartgateBinary.run(["rewrite", "--config", config, "--request", file.path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let upstream = try PrintedMessage(result.stdoutBytes)
        #expect(upstream.field("transfer-encoding") == nil)
        #expect(upstream.field("content-length") == String(upstream.body.count))
        #expect(try upstream.parts() == [FormPart("title", "hello")])
    }

    @Test func inputErrorsAreOneLine() throws {
        let gateway = RawRequest.conf("gateway.yaml")
        let missing = try PartgateBinary.run(["rewrite", "--config", gateway, "--request", "/nonexistent/request"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "partgate rewrite: /nonexistent/request: No such file or directory\n")
        let stdin = try PartgateBinary.run(["rewrite", "--config", gateway, "--request", "-"])
        #expect(stdin.status == 1)
        #expect(stdin.stderr.contains("standard input cannot be read twice"))
        let truncated = try RawRequest.rewrite(Array(Self.upload.dropLast(10)), config: "gateway.yaml")
        #expect(truncated.status == 1)
        #expect(truncated.stdout.isEmpty)
        #expect(truncated.stderr.contains("the request ends early (truncated_body"))
        let empty = try RawRequest.rewrite([], config: "gateway.yaml")
        #expect(empty.stderr.hasSuffix(": holds no request\n"))
        let noConfig = try PartgateBinary.run(["rewrite", "--request", "/etc/hostname"])
        #expect(noConfig.status == 1)
        #expect(
            noConfig.stderr
                == "partgate rewrite: Missing expected argument '--config <config>' (see 'partgate rewrite --help')\n")
        let badConfig = try PartgateBinary.run(["rewrite", "--config", "/etc/hostname", "--request", "/etc/hostname"])
        #expect(badConfig.status == 1)
        #expect(badConfig.stderr.hasPrefix("/etc/hostname:"))
    }

    @Test func bytesAfterTheRequestAreNoted() throws {
        let result = try RawRequest.rewrite(Self.upload + Array("GET / HTTP/1.1\r\n".utf8), config: "gateway.yaml")
        #expect(result.status == 0)
        #expect(result.stderr.contains("16 bytes follow the request"))
        #expect(try PrintedMessage(result.stdoutBytes).parts() == [FormPart("title", "hello")])
    }
}
