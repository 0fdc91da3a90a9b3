import Foundation
import ProxyEngine

/// Certificates made once per test run: a CA, a server leaf for `localhost` and `127.0.0.1`, a client leaf, and an
/// unrelated second CA for "wrong CA" cases.
struct TLSFixture: Sendable {
    let authority: CertificateAuthority
    let server: IssuedCertificate
    let client: IssuedCertificate
    let otherAuthority: CertificateAuthority

    static let shared: TLSFixture = {
        do {
            let authority = try CertificateAuthority(commonName: "partgate test CA")
            return TLSFixture(
                authority: authority,
                server: try authority.issue(dnsNames: ["localhost"], ipAddresses: ["127.0.0.1"]),
                client: try authority.issue(dnsNames: ["partgate-client"], usage: .client),
                otherAuthority: try CertificateAuthority(commonName: "unrelated CA")
            )
        } catch {
            fatalError("cannot make test certificates: \(error)")
        }
    }()

    /// A server context with the `localhost`/`127.0.0.1` leaf.
    func serverContext(clientAuthentication: TLSServerContext.ClientAuthentication = .none) throws -> TLSServerContext {
        try TLSServerContext(identity: server.identity, clientAuthentication: clientAuthentication)
    }

    /// A client context trusting the test CA.
    func clientContext(identity: TLSIdentity? = nil) throws -> TLSClientContext {
        try TLSClientContext(trustRoots: .certificates([authority.certificate]), identity: identity)
    }
}

/// A fresh directory under the system's temporary directory, removed with everything in it in `deinit`.
final class TemporaryDirectory {
    let path: String

    init() throws {
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("partgate-tls-XXXXXX").path
        var bytes = Array(template.utf8CString)
        guard mkdtemp(&bytes) != nil else { throw SocketError(message: "mkdtemp failed") }
        path = String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// `name` inside the directory.
    func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to `name` and returns its path.
    func write(_ text: String, to name: String) throws -> String {
        try text.write(toFile: file(name), atomically: false, encoding: .utf8)
        return file(name)
    }
}
