import Foundation
import Testing

@Suite("partgate inspect")
struct InspectCommandTests {
    static let example = PartgateBinary.repositoryRoot().appendingPathComponent("docs/examples/upload.multipart").path

    static func body(_ boundary: String, _ parts: [(String, String?, String?, [UInt8])]) -> [UInt8] {
        var out: [UInt8] = []
        for (name, filename, type, data) in parts {
            out += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"".utf8)
            if let filename { out += Array("; filename=\"\(filename)\"".utf8) }
            out += Array("\r\n".utf8)
            if let type { out += Array("Content-Type: \(type)\r\n".utf8) }
            out += Array("\r\n".utf8) + data + Array("\r\n".utf8)
        }
        return out + Array("--\(boundary)--\r\n".utf8)
    }

    static func temporaryFile(_ bytes: [UInt8]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("partgate-test-\(UUID().uuidString)")
        try Data(bytes).write(to: url)
        return url
    }

    @Test func reportsEveryPartOfAFile() throws {
        let result = try PartgateBinary.run(["inspect", Self.example])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let lines = result.jsonLines
        #expect(lines.count == 4)
        #expect(lines[0]["name"] as? String == "title")
        #expect(lines[0]["filename"] is NSNull)
        #expect(lines[0]["size"] as? Int == 14)
        #expect(lines[0]["sha256"] as? String == (try PartgateBinary.sha256(Array("Holiday photos".utf8))))
        #expect(lines[1]["filename"] as? String == "../../me.png")
        #expect(lines[1]["declared_type"] as? String == "image/png")
        #expect(lines[1]["sniffed_type"] as? String == "image/png")
        #expect(lines[2]["declared_type"] as? String == "text/plain; charset=utf-8")
        #expect(lines[3]["parts"] as? Int == 3)
        #expect(lines[3]["valid"] as? Bool == true)
        #expect((lines[3]["violations"] as? [Any])?.isEmpty == true)
        // Key order is part of the output contract.
        let first = result.stdout.split(separator: "\n")[0]
        #expect(first.hasPrefix("{\"index\":0,\"name\":\"title\",\"filename\":null,\"declared_type\":null,\"sniffed_type\""))
    }

    @Test func sniffsTheRealTypeNotTheDeclaredOne() throws {
        var elf: [UInt8] = [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0]
        elf += [UInt8](repeating: 0, count: 56)
        let body = Self.body("b0undary", [("doc", "report.pdf", "application/pdf", elf)])
        let file = try Self.temporaryFile(body)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try PartgateBinary.run(["inspect", "--content-type", "multipart/form-data; boundary=b0undary", file.path])
        #expect(result.status == 0)
        #expect(result.jsonLines.first?["declared_type"] as? String == "application/pdf")
        #expect(result.jsonLines.first?["sniffed_type"] as? String == "application/x-executable")
        #expect(result.jsonLines.first?["sha256"] as? String == (try PartgateBinary.sha256(elf)))
    }

    @Test func rejectsWithOneLineAndStatus2() throws {
        let body = Array("--b\nContent-Disposition: form-data; name=\"a\"\n\nv\n--b--\n".utf8)
        let result = try PartgateBinary.run(["inspect", "-"]) { try? $0.write(contentsOf: Data(body)) }
        #expect(result.status == 2)
        #expect(result.stderr == "partgate inspect: rejected: lf_line at byte 3\n")
        let summary = result.jsonLines.last
        #expect(summary?["valid"] as? Bool == false)
        #expect((summary?["error"] as? [String: Any])?["flag"] as? String == "lf_line")
        let relaxed = try PartgateBinary.run(["inspect", "--strict", "lf_line=normalize"]) {
            try? $0.write(contentsOf: Data(body))
        }
        #expect(relaxed.status == 0)
        let violations = relaxed.jsonLines.last?["violations"] as? [[String: Any]]
        #expect(violations?.first?["flag"] as? String == "lf_line")
    }

    @Test func contentTypeFlagsAreNamed() throws {
        let result = try PartgateBinary.run(["inspect", "--content-type", "multipart/form-data; boundary=a; boundary=b",
                                             Self.example])
        #expect(result.status == 2)
        #expect(result.stderr.contains("duplicate_parameter"))
    }

    @Test func readsAWholeRequestWithContentLength() throws {
        let body = Self.body("XyZ", [("title", nil, nil, Array("hello".utf8)), ("f", "a.txt", "text/plain", Array("data".utf8))])
        let request = Array("POST /upload HTTP/1.1\r\nHost: example.test\r\nContent-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
        let file = try Self.temporaryFile(request)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try PartgateBinary.run(["inspect", "--request", file.path])
        #expect(result.status == 0)
        #expect(result.jsonLines.map { $0["name"] as? String } == ["title", "f", nil])
    }

    @Test(arguments: [1, 7, 100, 4096])
    func readsAWholeChunkedRequest(chunkSize: Int) throws {
        let data = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let body = Self.body("XyZ", [("f", "blob.bin", "application/octet-stream", data)])
        var request = Array("POST /upload HTTP/1.1\r\nHost: example.test\r\nContent-Type: multipart/form-data; boundary=XyZ\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        var offset = 0
        while offset < body.count {
            let length = min(chunkSize, body.count - offset)
            request += Array("\(String(length, radix: 16))\r\n".utf8) + body[offset..<(offset + length)] + Array("\r\n".utf8)
            offset += length
        }
        request += Array("0\r\n\r\n".utf8)
        let bytes = request
        let result = try PartgateBinary.run(["inspect", "--request", "-"]) { try? $0.write(contentsOf: Data(bytes)) }
        #expect(result.status == 0)
        #expect(result.jsonLines.first?["size"] as? Int == 5000)
        #expect(result.jsonLines.first?["sha256"] as? String == (try PartgateBinary.sha256(data)))
    }

    @Test func requestFramingErrorsAreRejected() throws {
        let request = Array("POST /u HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        let result = try PartgateBinary.run(["inspect", "--request"]) { try? $0.write(contentsOf: Data(request)) }
        #expect(result.status == 2)
        #expect(result.stderr.contains("content_length_with_transfer_encoding"))
    }

    /// Without `--content-type` the boundary comes from the first line: transport padding after it is not part
    /// of it, and a first line that is a close delimiter is a form with no parts.
    @Test func theInferredBoundaryLeavesOutPaddingAndAClosingDash() throws {
        let padded = "--XyZ \t\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nhello\r\n--XyZ--\r\n"
        let result = try PartgateBinary.run(["inspect", "-"]) { try? $0.write(contentsOf: Data(padded.utf8)) }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"name\":\"a\""))
        let empty = try PartgateBinary.run(["inspect", "-"]) { try? $0.write(contentsOf: Data("--XyZ--\r\n".utf8)) }
        #expect(empty.status == 0, "\(empty.stderr)")
    }

    /// With --config and --route the body is read as that route reads it: its strict flags and limits.
    @Test func aRoutesStrictFlagsAndLimitsApply() throws {
        let workspace = try ConfigWorkspace()
        defer { workspace.remove() }
        let yaml = [
            "version: 1", "listeners: [{ address: 127.0.0.1:0 }]", "upstreams: { app: { url: \"http://127.0.0.1:9\" } }",
            "routes:", "  - { name: small, upstream: app, limits: { field_bytes: 3 } }",
            "  - { name: sanitizing, upstream: app }",
        ].joined(separator: "\n")
        let config = try workspace.write(yaml, to: "partgate.yaml")
        let body = "--XyZ\r\nContent-Disposition: form-data; name=\"a\"; filename=\"q%22.txt\"\r\n\r\nx\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"b\"\r\n\r\nhello\r\n--XyZ--\r\n"
        func inspect(_ arguments: [String]) throws -> PartgateBinary.Result {
            try PartgateBinary.run(["inspect"] + arguments) { try? $0.write(contentsOf: Data(body.utf8)) }
        }
        // The parser's defaults refuse `%22` in a filename; a route under unsafe_filenames: sanitize replaces it.
        #expect(try inspect(["-"]).status == 2)
        let sanitizing = try inspect(["--config", config, "--route", "sanitizing", "-"])
        #expect(sanitizing.status == 0, "\(sanitizing.stderr)")
        #expect(sanitizing.stdout.contains("\"filename\":\"q_22.txt\""))
        let small = try inspect(["--config", config, "--route", "small", "-"])
        #expect(small.status == 2 && small.stderr.contains("limit_field_bytes"), "\(small.stderr)")
        let unknown = try inspect(["--config", config, "--route", "nope", "-"])
        #expect(unknown.status == 1 && unknown.stderr.contains("'small', 'sanitizing'"))
        #expect(try inspect(["--config", config, "-"]).status != 0, "--config without --route")
    }

    @Test func usageErrorsAreOneLine() throws {
        let missing = try PartgateBinary.run(["inspect", "/nonexistent/partgate-input"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "partgate inspect: /nonexistent/partgate-input: No such file or directory\n")
        let directory = try PartgateBinary.run(["inspect", "/tmp"])
        #expect(directory.status == 1)
        #expect(directory.stderr.contains("is a directory"))
        let badFlag = try PartgateBinary.run(["inspect", "--strict", "delimiter_garbage=allow", Self.example])
        #expect(badFlag.status != 0)
        #expect(badFlag.stderr.contains("does not allow 'allow'"))
        let noBoundary = try PartgateBinary.run(["inspect"]) { try? $0.write(contentsOf: Data("hello\r\n".utf8)) }
        #expect(noBoundary.status == 2)
        #expect(noBoundary.stderr.contains("does not start with a delimiter"))
    }

    /// 4 GiB through standard input: partgate's own peak RSS (VmHWM, read while it runs) stays flat.
    @Test func memoryStaysFlatForFourGiB() throws {
        let size: Int64 = 4 << 30
        let head = Array("--XyZ\r\nContent-Disposition: form-data; name=\"f\"; filename=\"big.bin\"\r\n\r\n".utf8)
        let peaks = PeakRecorder()
        let result = try PartgateBinary.run(["inspect"], inputWithPID: { handle, pid in
            try? handle.write(contentsOf: Data(head))
            let chunk = Data(repeating: 0x61, count: 1 << 20)
            for index in 0..<(size >> 20) {
                try? handle.write(contentsOf: chunk)
                if index == 64 || index == (size >> 20) - 1 { peaks.add(PartgateBinary.peakMemoryKiB(pid) ?? -1) }
            }
            try? handle.write(contentsOf: Data("\r\n--XyZ--\r\n".utf8))
        })
        #expect(result.status == 0)
        #expect(result.jsonLines.first?["size"] as? Int64 == size)
        let samples = peaks.values
        #expect(samples.count == 2 && samples.allSatisfy { $0 > 0 && $0 < 48 * 1024 }, "VmHWM samples (KiB): \(samples)")
        // Flat: the peak after 4 GiB is within 2 MiB of the peak after 64 MiB.
        #expect(samples.count == 2 && samples[1] - samples[0] < 2048, "VmHWM samples (KiB): \(samples)")
    }
}

/// Memory samples taken from the writer thread.
final class PeakRecorder: @unchecked Sendable {
    // @unchecked Sendable: every access holds `lock`.
    private let lock = NSLock()
    private var samples: [Int] = []
    func add(_ value: Int) { lock.lock(); samples.append(value); lock.unlock() }
    var values: [Int] { lock.lock(); defer { lock.unlock() }; return samples }
}
