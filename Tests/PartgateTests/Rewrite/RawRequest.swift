import Foundation

/// Raw HTTP/1.1 requests as a capture would hold them, written to temporary files for `partgate rewrite`.
enum RawRequest {
    /// `POST path` with `body` framed by Content-Length, or as chunks of `chunkSize` bytes.
    static func post(
        _ path: String, contentType: String?, body: [UInt8], chunkSize: Int? = nil, fields: [String] = []
    ) -> [UInt8] {
        var head = "POST \(path) HTTP/1.1\r\nHost: uploads.example\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        for field in fields { head += field + "\r\n" }
        guard let chunkSize else {
            return Array((head + "Content-Length: \(body.count)\r\n\r\n").utf8) + body
        }
        var out = Array((head + "Transfer-Encoding: chunked\r\n\r\n").utf8)
        var offset = 0
        while offset < body.count {
            let count = min(chunkSize, body.count - offset)
            out += Array("\(String(count, radix: 16))\r\n".utf8) + body[offset..<(offset + count)] + Array("\r\n".utf8)
            offset += count
        }
        return out + Array("0\r\n\r\n".utf8)
    }

    /// A multipart/form-data upload of `parts` with the client boundary `boundary`.
    static func form(
        _ path: String, _ parts: [FormPart], boundary: String = "client-b0undary", chunkSize: Int? = nil,
        fields: [String] = []
    ) -> [UInt8] {
        post(
            path, contentType: "multipart/form-data; boundary=\(boundary)",
            body: FormPart.body(parts, boundary: boundary), chunkSize: chunkSize, fields: fields)
    }

    /// Writes `bytes` to a new temporary file (delete it with `FileManager.removeItem`).
    static func file(_ bytes: [UInt8]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("partgate-request-\(UUID().uuidString)")
        try Data(bytes).write(to: url)
        return url
    }

    /// The path of `conf/NAME` in the repository; an absolute path stays as it is.
    static func conf(_ name: String) -> String {
        name.hasPrefix("/") ? name : repositoryRoot.appendingPathComponent("conf/\(name)").path
    }

    /// The repository root (Tests/PartgateTests/Rewrite/<file> → up three levels).
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `partgate rewrite --config CONFIG --request FILE ARGUMENTS` on `request` (CONFIG: see ``conf(_:)``).
    static func rewrite(
        _ request: [UInt8], config: String, _ arguments: [String] = []
    ) throws -> PartgateBinary.Result {
        let file = try self.file(request)
        defer { try? FileManager.default.removeItem(at: file) }
        return try PartgateBinary.run(["rewrite", "--config", conf(config), "--request", file.path] + arguments)
    }
}
