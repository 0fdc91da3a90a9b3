import CEventTLS
import Foundation
import ProxyEngine
import Testing

/// PEM files written by ``CertificateAuthority`` load back through the file-based initialisers; bad files give
/// errors that name the file and the problem.
@Suite("TLS file loading")
struct TLSFileLoadingTests {
    let fixture = TLSFixture.shared

    @Test func writtenFilesLoadBackAndVerify() throws {
        let directory = try TemporaryDirectory()
        let (certificate, key, ca) = (
            directory.file("server.pem"), directory.file("server.key"), directory.file("ca.pem")
        )
        try fixture.server.write(certificateTo: certificate, keyTo: key, authorityTo: ca)
        let server = try TLSServerContext(certificateChainFile: certificate, keyFile: key)
        let client = try TLSClientContext(trustRoots: .file(ca))
        let run = try TLSLoopback.run(server: server, client: client, serverName: "localhost")
        #expect(run.client.succeeded, "\(run.client)")
    }

    @Test func chainFileSendsEveryCertificate() throws {
        let directory = try TemporaryDirectory()
        let chain = try directory.write(
            fixture.server.certificatePEM + fixture.authority.certificatePEM, to: "chain.pem")
        let key = try directory.write(fixture.server.privateKeyPEM, to: "server.key")
        let server = try TLSServerContext(certificateChainFile: chain, keyFile: key)
        let run = try TLSLoopback.run(server: server, client: fixture.clientContext(), serverName: "localhost")
        #expect(run.client.succeeded, "\(run.client)")
        #expect(SSL_get_peer_cert_chain(run.clientEndpoint.ssl).map { OPENSSL_sk_num($0) } == 2)
    }

    @Test func mutualTLSIdentityFromFiles() throws {
        let directory = try TemporaryDirectory()
        let (certificate, key) = (directory.file("client.pem"), directory.file("client.key"))
        try fixture.client.write(certificateTo: certificate, keyTo: key)
        let client = try TLSClientContext(
            trustRoots: .certificates([fixture.authority.certificate]),
            identity: .files(certificateChain: certificate, privateKey: key))
        let server = try fixture.serverContext(
            clientAuthentication: .required(.certificates([fixture.authority.certificate])))
        let run = try TLSLoopback.run(server: server, client: client, serverName: "localhost")
        #expect(run.server.succeeded, "\(run.server)")
    }

    @Test func keyFilesAre0600AndCertificatesAre0644EvenWhenReplacingWiderFiles() throws {
        let directory = try TemporaryDirectory()
        let (certificate, key) = (directory.file("leaf.pem"), directory.file("leaf.key"))
        _ = FileManager.default.createFile(
            atPath: key, contents: Data("old".utf8), attributes: [.posixPermissions: 0o666])
        try fixture.server.write(certificateTo: certificate, keyTo: key)
        let keyMode = try FileManager.default.attributesOfItem(atPath: key)[.posixPermissions] as? Int
        let certificateMode = try FileManager.default.attributesOfItem(atPath: certificate)[.posixPermissions] as? Int
        #expect(keyMode == 0o600)
        #expect(certificateMode == 0o644)
        #expect(try String(contentsOfFile: key, encoding: .utf8) == fixture.server.privateKeyPEM)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["leaf.key", "leaf.pem"])
    }

    @Test func writingIntoAMissingDirectoryFailsWithThePath() throws {
        let error = try #require(throws: TLSError.self) {
            try fixture.server.privateKey.write(to: "/nonexistent/partgate/leaf.key")
        }
        #expect(error.code == .file)
        #expect(error.reason.contains("/nonexistent/partgate/leaf.key"), "\(error)")
        #expect(error.reason.contains("No such file or directory"), "\(error)")
    }

    @Test func missingCertificateFileNamesTheFile() throws {
        let error = try #require(throws: TLSError.self) {
            try TLSServerContext(
                certificateChainFile: "/nonexistent/partgate/server.pem", keyFile: "/nonexistent/k.pem")
        }
        #expect(error.code == .certificate)
        #expect(error.reason.hasPrefix("cannot load certificate /nonexistent/partgate/server.pem: "), "\(error)")
        #expect(error.reason.contains("No such file or directory"), "\(error)")
    }

    @Test func garbageCertificateFileSaysNoStartLine() throws {
        let directory = try TemporaryDirectory()
        let certificate = try directory.write("this is not PEM\n", to: "server.pem")
        let key = try directory.write(fixture.server.privateKeyPEM, to: "server.key")
        let error = try #require(throws: TLSError.self) {
            try TLSServerContext(certificateChainFile: certificate, keyFile: key)
        }
        #expect(error == TLSError(.certificate, "cannot load certificate \(certificate): no start line"))
    }

    @Test func truncatedCertificateIsReported() throws {
        let directory = try TemporaryDirectory()
        let pem = fixture.server.certificatePEM
        let certificate = try directory.write(String(pem.prefix(pem.count / 2)), to: "server.pem")
        let key = try directory.write(fixture.server.privateKeyPEM, to: "server.key")
        let error = try #require(throws: TLSError.self) {
            try TLSServerContext(certificateChainFile: certificate, keyFile: key)
        }
        #expect(error.code == .certificate)
        #expect(error.reason.hasPrefix("cannot load certificate \(certificate): "), "\(error)")
    }

    @Test func keyOfAnotherCertificateIsAMismatch() throws {
        let directory = try TemporaryDirectory()
        let certificate = try directory.write(fixture.server.certificatePEM, to: "server.pem")
        let key = try directory.write(fixture.client.privateKeyPEM, to: "other.key")
        let error = try #require(throws: TLSError.self) {
            try TLSServerContext(certificateChainFile: certificate, keyFile: key)
        }
        #expect(error.code == .keyMismatch)
        #expect(error.reason.hasPrefix("key \(key) does not match certificate \(certificate)"), "\(error)")
    }

    @Test func garbageKeyFileNamesTheFile() throws {
        let directory = try TemporaryDirectory()
        let certificate = try directory.write(fixture.server.certificatePEM, to: "server.pem")
        let key = try directory.write(
            "-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n", to: "k.pem")
        let error = try #require(throws: TLSError.self) {
            try TLSServerContext(certificateChainFile: certificate, keyFile: key)
        }
        #expect(error.code == .privateKey)
        #expect(error.reason.hasPrefix("cannot load private key \(key): "), "\(error)")
    }

    @Test func encryptedKeyIsRefusedWithoutPrompting() throws {
        let directory = try TemporaryDirectory()
        let plain = try directory.write(fixture.server.privateKeyPEM, to: "plain.key")
        let encrypted = directory.file("encrypted.key")
        let result = try OpenSSLCLI.run(["pkey", "-in", plain, "-aes256", "-passout", "pass:secret", "-out", encrypted])
        try #require(result.status == 0, "\(result.output)")
        let error = try #require(throws: TLSError.self) { try TLSPrivateKey(file: encrypted) }
        #expect(
            error
                == TLSError(
                    .privateKey,
                    "cannot load private key \(encrypted): the key is encrypted; partgate needs an unencrypted PEM key")
        )
    }

    @Test func unreadableCAFileIsATrustRootsError() throws {
        let directory = try TemporaryDirectory()
        let ca = try directory.write("no certificates here\n", to: "ca.pem")
        let error = try #require(throws: TLSError.self) { try TLSClientContext(trustRoots: .file(ca)) }
        #expect(error.code == .trustRoots)
        #expect(error.reason.hasPrefix("cannot load CA file \(ca): "), "\(error)")
        let empty = try #require(throws: TLSError.self) { try TLSClientContext(trustRoots: .certificates([])) }
        #expect(empty.code == .trustRoots)
    }

    @Test func pemTextRoundTrips() throws {
        let certificate = try TLSCertificate(pem: fixture.server.certificatePEM)
        #expect(certificate.pem == fixture.server.certificatePEM)
        #expect(certificate.commonName == "localhost")
        let key = try TLSPrivateKey(pem: fixture.server.privateKeyPEM)
        #expect(key.pem == fixture.server.privateKeyPEM)
        let chain = try TLSCertificate.chain(pem: fixture.server.certificatePEM + "\n" + fixture.authorityPEM)
        #expect(chain.map(\.commonName) == ["localhost", "partgate test CA"])
        let server = try TLSServerContext(
            identity: .pem(certificateChain: fixture.server.certificatePEM, privateKey: fixture.server.privateKeyPEM))
        let run = try TLSLoopback.run(server: server, client: fixture.clientContext(), serverName: "127.0.0.1")
        #expect(run.client.succeeded, "\(run.client)")
    }
}

extension TLSFixture {
    /// The test CA as PEM text.
    var authorityPEM: String { authority.certificatePEM }
}
