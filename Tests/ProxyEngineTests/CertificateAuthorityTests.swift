import Foundation
import ProxyEngine
import Testing

/// Certificates made in process by ``CertificateAuthority``, checked by the `openssl` CLI as an independent judge.
@Suite("CertificateAuthority")
struct CertificateAuthorityTests {
    let fixture = TLSFixture.shared

    /// Writes the test CA and server leaf as PEM files.
    func writeFixture(to directory: TemporaryDirectory) throws -> (ca: String, leaf: String, key: String) {
        let paths = (directory.file("ca.pem"), directory.file("leaf.pem"), directory.file("leaf.key"))
        try fixture.server.write(certificateTo: paths.1, keyTo: paths.2, authorityTo: paths.0)
        return paths
    }

    @Test func opensslVerifiesTheLeafAgainstTheCA() throws {
        let directory = try TemporaryDirectory()
        let files = try writeFixture(to: directory)
        let verify = try OpenSSLCLI.run(["verify", "-CAfile", files.ca, "-purpose", "sslserver", files.leaf])
        #expect(verify.status == 0, "\(verify.output)")
        #expect(verify.output.contains("\(files.leaf): OK"), "\(verify.output)")
        let keyCheck = try OpenSSLCLI.run(["pkey", "-in", files.key, "-noout", "-check"])
        #expect(keyCheck.status == 0, "\(keyCheck.output)")
    }

    @Test func opensslRejectsTheLeafUnderAnotherCA() throws {
        let directory = try TemporaryDirectory()
        let files = try writeFixture(to: directory)
        let other = directory.file("other.pem")
        try fixture.otherAuthority.write(certificateTo: other)
        let verify = try OpenSSLCLI.run(["verify", "-CAfile", other, files.leaf])
        #expect(verify.status != 0)
        #expect(verify.output.contains("unable to get local issuer certificate"), "\(verify.output)")
    }

    @Test func leafHasTheRequestedNamesAndUsages() throws {
        let directory = try TemporaryDirectory()
        let files = try writeFixture(to: directory)
        let text = try OpenSSLCLI.run(["x509", "-in", files.leaf, "-noout", "-text"]).output
        #expect(text.contains("DNS:localhost, IP Address:127.0.0.1"), "\(text)")
        #expect(text.contains("CA:FALSE"))
        #expect(text.contains("Digital Signature"))
        #expect(text.contains("TLS Web Server Authentication"))
        #expect(!text.contains("TLS Web Client Authentication"))
        #expect(text.contains("Signature Algorithm: ecdsa-with-SHA256"))
        #expect(text.contains("ASN1 OID: prime256v1"))
        #expect(text.contains("Issuer: CN = partgate test CA"))
        #expect(text.contains("Subject: CN = localhost"))
        #expect(text.contains("X509v3 Authority Key Identifier"))
    }

    @Test func authorityIsACriticalCAThatSignsLeavesOnly() throws {
        let directory = try TemporaryDirectory()
        let files = try writeFixture(to: directory)
        let text = try OpenSSLCLI.run(["x509", "-in", files.ca, "-noout", "-text"]).output
        #expect(text.contains("X509v3 Basic Constraints: critical\n                CA:TRUE, pathlen:0"), "\(text)")
        #expect(text.contains("X509v3 Key Usage: critical\n                Certificate Sign, CRL Sign"), "\(text)")
        #expect(text.contains("Issuer: CN = partgate test CA"))
        #expect(text.contains("Subject: CN = partgate test CA"))
        let selfCheck = try OpenSSLCLI.run(["verify", "-CAfile", files.ca, files.ca])
        #expect(selfCheck.status == 0, "\(selfCheck.output)")
    }

    @Test func serialsAre128RandomBits() throws {
        var serials: Set<String> = []
        for certificate in [fixture.authority.certificate, fixture.server.certificate, fixture.client.certificate] {
            let directory = try TemporaryDirectory()
            try certificate.write(to: directory.file("c.pem"))
            let output = try OpenSSLCLI.run(["x509", "-in", directory.file("c.pem"), "-noout", "-serial"]).output
            let serial = output.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(
                of: "serial=", with: "")
            #expect(serial.count == 32, "\(serial)")  // 128 bits, top bit set
            #expect(serial.first.map { "89ABCDEF".contains($0) } == true, "\(serial)")
            serials.insert(serial)
        }
        #expect(serials.count == 3)
    }

    @Test func validityStartsAnHourAgoAndLastsTheRequestedDays() throws {
        let ca = try CertificateAuthority(commonName: "short-lived", validityDays: 2)
        let leaf = try ca.issue(ipAddresses: ["::1"], validityDays: 1)
        let directory = try TemporaryDirectory()
        try leaf.write(certificateTo: directory.file("leaf.pem"), keyTo: directory.file("leaf.key"))
        let path = directory.file("leaf.pem")
        #expect(try OpenSSLCLI.run(["x509", "-in", path, "-noout", "-checkend", "\(23 * 3600)"]).status == 0)
        #expect(try OpenSSLCLI.run(["x509", "-in", path, "-noout", "-checkend", "\(25 * 3600)"]).status != 0)
        let text = try OpenSSLCLI.run(["x509", "-in", path, "-noout", "-text"]).output
        #expect(text.contains("IP Address:0:0:0:0:0:0:0:1"), "\(text)")
        #expect(leaf.certificate.commonName == "::1")
    }

    @Test func clientAndWildcardLeaves() throws {
        let leaf = try fixture.authority.issue(
            dnsNames: ["*.upstream.test", "upstream.test"], usage: [.server, .client], commonName: "upstream")
        let directory = try TemporaryDirectory()
        try leaf.write(certificateTo: directory.file("leaf.pem"), keyTo: directory.file("leaf.key"))
        let text = try OpenSSLCLI.run(["x509", "-in", directory.file("leaf.pem"), "-noout", "-text"]).output
        #expect(text.contains("DNS:*.upstream.test, DNS:upstream.test"), "\(text)")
        #expect(text.contains("TLS Web Server Authentication, TLS Web Client Authentication"), "\(text)")
        #expect(leaf.certificate.commonName == "upstream")
        let server = try TLSServerContext(identity: leaf.identity)
        let run = try TLSLoopback.run(server: server, client: fixture.clientContext(), serverName: "api.upstream.test")
        #expect(run.client.succeeded, "\(run.client)")
        let deep = try TLSLoopback.run(server: server, client: fixture.clientContext(), serverName: "a.b.upstream.test")
        #expect(deep.client.handshakeError?.reason.contains("hostname mismatch") == true)
    }

    @Test func longFirstNameGetsAShortCommonName() throws {
        let long = String(repeating: "a", count: 60) + ".example.test"
        let leaf = try fixture.authority.issue(dnsNames: [long])
        #expect(leaf.certificate.commonName == "partgate leaf")
        let server = try TLSServerContext(identity: leaf.identity)
        let run = try TLSLoopback.run(server: server, client: fixture.clientContext(), serverName: long)
        #expect(run.client.succeeded, "\(run.client)")
    }

    @Test(arguments: [
        ([String](), [String]()),
        (["bad name"], []),
        (["host:443"], []),
        ([], ["300.1.1.1"]),
        ([], ["localhost"]),
    ])
    func rejectsMissingOrMalformedNames(dnsNames: [String], ipAddresses: [String]) throws {
        let error = try #require(throws: TLSError.self) {
            try fixture.authority.issue(dnsNames: dnsNames, ipAddresses: ipAddresses)
        }
        #expect(error.code == .generation)
    }

    @Test func pemStringsHaveTheExpectedArmour() {
        #expect(fixture.server.certificatePEM.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
        #expect(fixture.server.privateKeyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        #expect(fixture.server.authorityPEM == fixture.authority.certificatePEM)
        #expect(fixture.authority.certificatePEM != fixture.otherAuthority.certificatePEM)
        #expect(fixture.authority.privateKey.pem != fixture.otherAuthority.privateKey.pem)
    }
}
