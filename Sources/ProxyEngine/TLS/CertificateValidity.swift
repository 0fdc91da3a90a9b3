import CEventTLS

/// Whether a certificate is within its validity period now, with its dates as OpenSSL prints them
/// (`Jan  1 00:00:00 2030 GMT`). A listener can load an expired certificate (nginx and HAProxy do too), but every
/// client that verifies it refuses the handshake, so `check` and `serve` warn about it.
public struct CertificateValidity: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        case valid
        case expired
        case notYetValid
    }

    public let state: State
    public let notBefore: String
    public let notAfter: String

    /// The validity of `x509` at the current time; nil when its dates cannot be read.
    init?(_ x509: OpaquePointer) {
        guard let before = X509_get0_notBefore(x509), let after = X509_get0_notAfter(x509) else { return nil }
        let afterComparison = X509_cmp_current_time(after)
        let beforeComparison = X509_cmp_current_time(before)
        guard afterComparison != 0, beforeComparison != 0 else { return nil }  // 0: an error
        state = afterComparison < 0 ? .expired : beforeComparison > 0 ? .notYetValid : .valid
        notBefore = Self.text(before)
        notAfter = Self.text(after)
    }

    private static func text(_ time: UnsafePointer<ASN1_TIME>) -> String {
        guard let bio = try? OpenSSLBIO.memory(), ASN1_TIME_print(bio.bio, time) == 1 else { return "?" }
        return bio.text
    }
}

extension TLSServerContext {
    /// The validity of the context's leaf certificate now (nil when it has none or its dates cannot be read).
    public var leafValidity: CertificateValidity? {
        SSL_CTX_get0_certificate(context).flatMap(CertificateValidity.init)
    }
}
