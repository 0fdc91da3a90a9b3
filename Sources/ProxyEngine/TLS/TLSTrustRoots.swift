import CEventTLS

/// The certificate authorities a peer's certificate must chain to.
public enum TLSTrustRoots: Sendable {
    /// The operating system's trust store (`SSL_CTX_set_default_verify_paths`: OpenSSL's default CA file and
    /// directory, or `SSL_CERT_FILE`/`SSL_CERT_DIR`).
    case system
    /// A PEM file with one or more CA certificates.
    case file(String)
    /// CA certificates in memory, e.g. ``CertificateAuthority/certificate``.
    case certificates([TLSCertificate])

    /// Installs the roots into the verify store of `context` (`SSL_CTX`).
    ///
    /// - Throws: `.trustRoots` when the file cannot be read or holds no certificate, or the list is empty.
    func install(in context: OpaquePointer) throws(TLSError) {
        ERR_clear_error()
        switch self {
        case .system:
            guard SSL_CTX_set_default_verify_paths(context) == 1 else {
                throw TLSError.openSSL(.trustRoots, "cannot load the system trust store")
            }
        case .file(let path):
            guard SSL_CTX_load_verify_file(context, path) == 1 else {
                throw TLSError.openSSL(.trustRoots, "cannot load CA file \(path)")
            }
        case .certificates(let certificates):
            guard !certificates.isEmpty else {
                throw TLSError(.trustRoots, "no CA certificates given")
            }
            let store = SSL_CTX_get_cert_store(context)
            for certificate in certificates {
                guard X509_STORE_add_cert(store, certificate.x509) == 1 else {
                    throw TLSError.openSSL(.trustRoots, "cannot add a CA certificate to the trust store")
                }
            }
        }
    }

    /// Tells clients which CAs this server accepts for client certificates (the `certificate_authorities` sent
    /// in the CertificateRequest). The system store is too large to announce, so nothing is sent for it.
    func announceAsClientCAs(in context: OpaquePointer) throws(TLSError) {
        ERR_clear_error()
        switch self {
        case .system:
            return
        case .file(let path):
            guard let names = SSL_load_client_CA_file(path) else {
                throw TLSError.openSSL(.trustRoots, "cannot read CA names from \(path)")
            }
            SSL_CTX_set_client_CA_list(context, names)  // the context takes ownership of the list
        case .certificates(let certificates):
            for certificate in certificates {
                guard SSL_CTX_add_client_CA(context, certificate.x509) == 1 else {
                    throw TLSError.openSSL(.trustRoots, "cannot announce a client CA")
                }
            }
        }
    }
}
