import Foundation
import ProxyEngine
import Testing

/// A listener certificate out of its validity period is loaded (nginx and HAProxy load one too) but every client
/// that verifies it refuses the handshake: `check` says so as a warning, with the certificate's position, and
/// still exits 0, as does `serve`'s start.
@Suite("partgate check: listener certificate validity")
struct CheckCertificateValidityTests {
    static func workspace(shiftDays: Int) throws -> ConfigWorkspace {
        let workspace = try ConfigWorkspace()
        let authority = try CertificateAuthority(commonName: "validity test CA")
        let leaf = try authority.issue(dnsNames: ["localhost"], validityDays: 30, shiftDays: shiftDays)
        try workspace.write(leaf.certificatePEM, to: "tls/server.crt")
        try workspace.write(leaf.privateKeyPEM, to: "tls/server.key")
        return workspace
    }

    static let yaml = CheckCommandTests.minimal.replacingOccurrences(
        of: "  - address: 127.0.0.1:0\n",
        with: "  - address: 127.0.0.1:0\n    tls: { certificate: tls/server.crt, key: tls/server.key }\n")

    @Test(arguments: [(-31, "expired on "), (2, "is not valid before ")])
    func anOutOfDateCertificateIsAWarning(shiftDays: Int, what: String) throws {
        let workspace = try Self.workspace(shiftDays: shiftDays)
        defer { workspace.remove() }
        let result = try workspace.check(Self.yaml)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(": ok"))
        let file = workspace.path("partgate.yaml")
        let prefix =
            "\(file):4:25: warning: listener 127.0.0.1:0: certificate \(workspace.path("tls/server.crt")) \(what)"
        #expect(result.stderr.hasPrefix(prefix), "\(result.stderr)")
        #expect(result.stderr.hasSuffix(" GMT; clients that verify it refuse the handshake\n"), "\(result.stderr)")
    }

    @Test func aCurrentCertificateIsNotMentioned() throws {
        let workspace = try Self.workspace(shiftDays: 0)
        defer { workspace.remove() }
        let result = try workspace.check(Self.yaml)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }
}
