import Yams

/// A certificate, key or CA file named by the configuration, checked when the configuration loads.
///
/// The check is what `serve` needs before it can start: the file exists, is a regular file, can be read,
/// and holds a PEM block of the right kind (a certificate in a certificate or CA file; an unencrypted
/// private key in a key file). Whether OpenSSL can use them (a key that matches its certificate, a parsable
/// CA bundle) is checked next, by building the contexts (`ConfigDecoder.checkTLSContexts`).
struct PEMFile {
    /// What the file must hold.
    enum Kind {
        /// One or more `CERTIFICATE` blocks (a chain, a CA bundle).
        case certificate
        /// One unencrypted private key block (`PRIVATE KEY`, `RSA PRIVATE KEY`, `EC PRIVATE KEY`).
        case privateKey
    }

    /// The path as written in the configuration.
    var written: String
    /// The absolute path.
    var path: String
    /// What the file must hold.
    var kind: Kind
    /// The path's node, where problems point.
    var node: Node
    /// The key, for messages (`'certificate'`, `'ca'`, …).
    var what: String

    /// The largest file read (a full CA bundle is a few hundred KiB).
    static let maximumBytes = 16 << 20

    /// Why the file content is not usable as `kind`, or nil when it is.
    static func problem(with text: String, kind: Kind) -> String? {
        let hasCertificate = text.contains("-----BEGIN CERTIFICATE-----")
        let hasKey = text.contains("PRIVATE KEY-----") && text.contains("-----BEGIN ")
        switch kind {
        case .certificate:
            if hasCertificate { return nil }
            return hasKey
                ? "holds a private key, not a certificate (certificate and key swapped?)"
                : "holds no PEM certificate (-----BEGIN CERTIFICATE-----)"
        case .privateKey:
            if text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----") || text.contains("Proc-Type: 4,ENCRYPTED") {
                return
                    "holds an encrypted private key; partgate needs it unencrypted (protect it with file permissions)"
            }
            if hasKey { return nil }
            return hasCertificate
                ? "holds a certificate, not a private key (certificate and key swapped?)"
                : "holds no PEM private key (-----BEGIN PRIVATE KEY-----)"
        }
    }
}
