import Foundation
import Testing

@Suite("partgate check")
struct CheckCommandTests {
    /// The smallest valid configuration; cases replace or extend it.
    static let minimal = """
        version: 1
        listeners:
          - address: 127.0.0.1:0
        upstreams:
          up:
            url: http://127.0.0.1:9
        routes:
          - name: r
            upstream: up

        """

    static var designFile: URL {
        PartgateBinary.repositoryRoot().deletingLastPathComponent().appendingPathComponent("shared/DESIGN.md")
    }

    @Test func acceptsTheDesignExampleWithRealCertificates() throws {
        let workspace = try ConfigWorkspace()
        defer { workspace.remove() }
        let result = try workspace.check(ConfigFixtures.designExample)
        #expect(result.stderr == "")
        #expect(result.status == 0)
        #expect(
            result.stdout == "\(workspace.path("partgate.yaml")): ok\n"
                + "2 listeners, 1 upstream, 1 route, 3 rules, admin on 127.0.0.1:9090\n")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: designFile.path), "needs shared/DESIGN.md"))
    func designExampleFixtureIsDESIGNmdVerbatim() throws {
        let design = try String(contentsOf: Self.designFile, encoding: .utf8)
        let start = try #require(design.range(of: "```yaml\n"))
        let end = try #require(design.range(of: "```", range: start.upperBound..<design.endIndex))
        #expect(String(design[start.upperBound..<end.lowerBound]) == ConfigFixtures.designExample + "\n")
    }

    @Test func acceptsTheMinimalConfiguration() throws {
        let workspace = try ConfigWorkspace()
        defer { workspace.remove() }
        let result = try workspace.check(Self.minimal, name: "min.yaml")
        #expect(result.status == 0)
        #expect(result.stdout == "\(workspace.path("min.yaml")): ok\n1 listener, 1 upstream, 1 route, 0 rules\n")
    }

    @Test func aMissingCertificateIsRefusedAtItsLine() throws {
        let workspace = try ConfigWorkspace()
        defer { workspace.remove() }
        try FileManager.default.removeItem(atPath: workspace.path("tls/server.key"))
        try FileManager.default.createDirectory(
            atPath: workspace.path("tls/upstream-ca.pem.d"),
            withIntermediateDirectories: true)
        let yaml = ConfigFixtures.designExample.replacingOccurrences(
            of: "tls/upstream-ca.pem", with: "tls/upstream-ca.pem.d")
        let result = try workspace.check(yaml)
        let file = workspace.path("partgate.yaml")
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(
            result.stderr == """
                \(file):6:46: error: 'key': cannot read 'tls/server.key' (\(workspace.path("tls/server.key"))): \
                No such file or directory
                \(file):12:11: error: 'ca': cannot read 'tls/upstream-ca.pem.d' (\(workspace.path("tls/upstream-ca.pem.d"))): \
                is a directory

                """)
    }

    @Test func certificateAndKeyFilesMustHoldTheRightPEM() throws {
        let workspace = try ConfigWorkspace()
        defer { workspace.remove() }
        try workspace.write(ConfigWorkspace.pem.certificate, to: "tls/server.key")
        try workspace.write(ConfigWorkspace.pem.key, to: "tls/server.crt")
        try workspace.write("not a certificate\n", to: "tls/upstream-ca.pem")
        try workspace.write(
            "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n",
            to: "tls/client.key")
        let result = try workspace.check(ConfigFixtures.designExample)
        #expect(result.status == 1)
        #expect(
            Self.positioned(result, in: workspace) == [
                "6:25: error: 'certificate': 'tls/server.crt' (\(workspace.path("tls/server.crt"))): holds a private key, "
                    + "not a certificate (certificate and key swapped?)",
                "6:46: error: 'key': 'tls/server.key' (\(workspace.path("tls/server.key"))): holds a certificate, not a "
                    + "private key (certificate and key swapped?)",
                "12:11: error: 'ca': 'tls/upstream-ca.pem' (\(workspace.path("tls/upstream-ca.pem"))): holds no PEM "
                    + "certificate (-----BEGIN CERTIFICATE-----)",
                "16:19: error: 'client_key': 'tls/client.key' (\(workspace.path("tls/client.key"))): holds an encrypted "
                    + "private key; partgate needs it unencrypted (protect it with file permissions)",
            ])
    }

    /// Failed before: files that look like PEM but that OpenSSL refuses passed `check`, and `serve` then
    /// refused to start ("a config that check accepts must start").
    @Test func openSSLMustAcceptTheTLSFiles() throws {
        let workspace = try ConfigWorkspace()
        defer { workspace.remove() }
        let garbage = "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n"
        try workspace.write(garbage, to: "tls/server.crt")
        try workspace.write(garbage, to: "tls/upstream-ca.pem")
        let result = try workspace.check(ConfigFixtures.designExample)
        #expect(result.status == 1)
        let lines = Self.positioned(result, in: workspace)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.hasPrefix("6:46: error: 'key': listener 0.0.0.0:8443: OpenSSL refused the TLS files: ") == true)
        #expect(lines.last?.hasPrefix("12:11: error: 'ca': upstream uploads: OpenSSL refused the TLS files: ") == true)
        // The same files, as made: accepted.
        try workspace.write(ConfigWorkspace.pem.certificate, to: "tls/server.crt")
        try workspace.write(ConfigWorkspace.pem.certificate, to: "tls/upstream-ca.pem")
        #expect(try workspace.check(ConfigFixtures.designExample).status == 0)
    }

    @Test func absolutePathsAreUsedAsTheyAre() throws {
        let workspace = try ConfigWorkspace()
        defer { workspace.remove() }
        let yaml = Self.minimal.replacingOccurrences(
            of: "  - address: 127.0.0.1:0\n",
            with: """
                  - address: 127.0.0.1:0
                    tls: { certificate: \(workspace.path("tls/server.crt")), key: /nonexistent/server.key }

                """)
        let result = try workspace.check(yaml)
        #expect(
            Self.positioned(result, in: workspace) == [
                "4:\(32 + workspace.path("tls/server.crt").count): error: 'key': cannot read '/nonexistent/server.key': "
                    + "No such file or directory"
            ])
    }

    /// `..` climbs out of the configuration's folder, as the kernel walks it (Foundation's `standardized` dropped a
    /// leading `..`, so `../tls/server.crt` was looked for inside the folder).
    @Test func relativePathsClimbOutOfTheConfigurationFolder() throws {
        let workspace = try ConfigWorkspace()
        defer { workspace.remove() }
        try FileManager.default.createDirectory(atPath: workspace.path("conf"), withIntermediateDirectories: true)
        let yaml = Self.minimal.replacingOccurrences(
            of: "  - address: 127.0.0.1:0\n",
            with: """
                  - address: 127.0.0.1:0
                    tls: { certificate: ../tls/server.crt, key: ./../tls/server.key }

                """)
        let byAbsolutePath = try workspace.check(yaml, name: "conf/partgate.yaml")
        #expect(byAbsolutePath.status == 0, "\(byAbsolutePath.stderr)")
        // The configuration named relative to another folder: its folder is still where its paths start.
        let fromTLS = try PartgateBinary.run(
            ["check", "--config", "../conf/partgate.yaml"], currentDirectory: workspace.path("tls"))
        #expect(fromTLS.status == 0, "\(fromTLS.stderr)")
        #expect(fromTLS.stdout.hasPrefix("../conf/partgate.yaml: ok\n"))
        // A missing file names the joined path with its `..` kept.
        try FileManager.default.removeItem(atPath: workspace.path("tls/server.key"))
        let missing = try workspace.check(yaml, name: "conf/partgate.yaml")
        #expect(
            Self.positioned(missing, in: workspace, name: "conf/partgate.yaml") == [
                "4:49: error: 'key': cannot read './../tls/server.key' (\(workspace.path("conf/../tls/server.key"))): "
                    + "No such file or directory"
            ])
    }

    /// A FIFO is refused at once (opening one for reading used to wait for a writer, so `check` hung).
    @Test func aFIFOIsNotARegularFile() throws {
        let workspace = try ConfigWorkspace()
        defer { workspace.remove() }
        #expect(mkfifo(workspace.path("fifo.yaml"), 0o600) == 0)
        #expect(mkfifo(workspace.path("tls/fifo.key"), 0o600) == 0)
        let config = try PartgateBinary.run(["check", "--config", workspace.path("fifo.yaml")])
        #expect(config.status == 1)
        #expect(
            config.stderr == "\(workspace.path("fifo.yaml")): error: cannot read configuration: is not a regular file\n")
        let yaml = Self.minimal.replacingOccurrences(
            of: "  - address: 127.0.0.1:0\n",
            with: """
                  - address: 127.0.0.1:0
                    tls: { certificate: tls/server.crt, key: tls/fifo.key }

                """)
        let key = try workspace.check(yaml)
        #expect(
            Self.positioned(key, in: workspace) == [
                "4:46: error: 'key': cannot read 'tls/fifo.key' (\(workspace.path("tls/fifo.key"))): "
                    + "is not a regular file"
            ])
    }

    @Test func anUnreadableConfigurationHasNoPosition() throws {
        let result = try PartgateBinary.run(["check", "--config", "/nonexistent/partgate.yaml"])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(
            result.stderr == "/nonexistent/partgate.yaml: error: cannot read configuration: No such file or directory\n"
        )
    }

    @Test func invalidUTF8IsReportedAtTheFirstBadByte() throws {
        let workspace = try ConfigWorkspace()
        defer { workspace.remove() }
        let path = workspace.path("latin1.yaml")
        try Data(Array("version: 1\n# caf".utf8) + [0xE9] + Array("\n".utf8)).write(to: URL(fileURLWithPath: path))
        let result = try PartgateBinary.run(["check", "--config", path])
        #expect(result.status == 1)
        #expect(result.stderr == "\(path):2:6: error: the file is not valid UTF-8\n")
    }

    @Test func configIsARequiredOption() throws {
        let result = try PartgateBinary.run(["check"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--config"))
    }

    /// The stderr lines without the `FILE:` prefix each must start with.
    static func positioned(
        _ result: PartgateBinary.Result, in workspace: ConfigWorkspace,
        name: String = "partgate.yaml"
    ) -> [String] {
        let prefix = workspace.path(name) + ":"
        return result.stderr.split(separator: "\n").map { line in
            line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : "UNEXPECTED FILE: \(line)"
        }
    }
}
