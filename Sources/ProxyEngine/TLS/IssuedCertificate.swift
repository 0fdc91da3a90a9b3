/// A leaf certificate made by a ``CertificateAuthority``, with its private key and the CA certificate that
/// verifies it.
public struct IssuedCertificate: Sendable {
    /// The leaf certificate.
    public let certificate: TLSCertificate
    /// The leaf's private key (EC P-256).
    public let privateKey: TLSPrivateKey
    /// The certificate of the CA that signed the leaf: what peers must trust.
    public let authority: TLSCertificate

    /// The leaf certificate as PEM text.
    public var certificatePEM: String { certificate.pem }
    /// The leaf's private key as unencrypted PKCS#8 PEM text.
    public var privateKeyPEM: String { privateKey.pem }
    /// The CA certificate as PEM text (a peer's `ca:` file).
    public var authorityPEM: String { authority.pem }

    /// The leaf and key as a ``TLSIdentity``, for a ``TLSServerContext`` or a mutual-TLS ``TLSClientContext``.
    public var identity: TLSIdentity {
        .objects(certificate: certificate, chain: [], privateKey: privateKey)
    }

    /// Writes the leaf certificate (0644), the private key (0600, set before the key is written) and, if
    /// `authorityPath` is given, the CA certificate (0644).
    ///
    /// - Throws: `.file` with the path and the system's reason.
    public func write(
        certificateTo certificatePath: String, keyTo keyPath: String, authorityTo authorityPath: String? = nil
    )
        throws(TLSError)
    {
        try privateKey.write(to: keyPath)
        try certificate.write(to: certificatePath)
        if let authorityPath { try authority.write(to: authorityPath) }
    }
}
