import Foundation

/// A temporary folder holding a configuration file and the PEM files it names, for `partgate check`.
///
/// The certificate and key are real: made once per test run with the `openssl` command line tool (EC P-256,
/// self-signed), then copied into each workspace under `tls/` with the names DESIGN.md's example uses.
struct ConfigWorkspace {
    /// The folder (removed by ``remove()``).
    let folder: URL

    /// PEM text of a self-signed certificate and its unencrypted key, made once.
    static let pem: (certificate: String, key: String) = {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("partgate-pem-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", scratch.appendingPathComponent("key.pem").path,
            "-out", scratch.appendingPathComponent("cert.pem").path, "-days", "2", "-subj", "/CN=uploads.internal",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try! process.run()
        process.waitUntilExit()
        precondition(process.terminationStatus == 0, "openssl req failed")
        let certificate = try! String(contentsOf: scratch.appendingPathComponent("cert.pem"), encoding: .utf8)
        let key = try! String(contentsOf: scratch.appendingPathComponent("key.pem"), encoding: .utf8)
        return (certificate, key)
    }()

    /// A new folder with `tls/server.crt`, `tls/server.key`, `tls/upstream-ca.pem`, `tls/client.crt` and
    /// `tls/client.key`.
    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("partgate-config-\(UUID().uuidString)")
        let tls = folder.appendingPathComponent("tls")
        try FileManager.default.createDirectory(at: tls, withIntermediateDirectories: true)
        for name in ["server.crt", "upstream-ca.pem", "client.crt"] {
            try write(Self.pem.certificate, to: "tls/\(name)")
        }
        for name in ["server.key", "client.key"] {
            try write(Self.pem.key, to: "tls/\(name)")
        }
    }

    /// Writes `text` to `name` inside the folder.
    /// - Returns: the file's absolute path.
    @discardableResult
    func write(_ text: String, to name: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Writes `yaml` as `name` and runs `partgate check --config PATH` on it.
    func check(_ yaml: String, name: String = "partgate.yaml") throws -> PartgateBinary.Result {
        try PartgateBinary.run(["check", "--config", write(yaml, to: name)])
    }

    /// The absolute path of `name` inside the folder.
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Deletes the folder.
    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
