import CEventTLS

/// The certificate chain and private key one side of a TLS connection proves itself with: a listener's server
/// certificate, or the client certificate partgate shows an upstream (mutual TLS).
public enum TLSIdentity: Sendable {
    /// PEM files: the chain (leaf first, then intermediates) and the leaf's private key.
    case files(certificateChain: String, privateKey: String)
    /// PEM text, as in ``files(certificateChain:privateKey:)``.
    case pem(certificateChain: String, privateKey: String)
    /// Objects, e.g. from ``CertificateAuthority``: the leaf, its intermediates (leaf's issuer first) and the key.
    case objects(certificate: TLSCertificate, chain: [TLSCertificate], privateKey: TLSPrivateKey)

    /// Loads the identity and installs it into `context` (`SSL_CTX`), checking that key and certificate match.
    ///
    /// - Throws: `.certificate`, `.privateKey` or `.keyMismatch`, naming the files involved.
    func install(in context: OpaquePointer) throws(TLSError) {
        let chain: [TLSCertificate]
        let key: TLSPrivateKey
        let certificateName: String
        let keyName: String
        switch self {
        case .files(let certificatePath, let keyPath):
            chain = try TLSCertificate.chain(file: certificatePath)
            key = try TLSPrivateKey(file: keyPath)
            (certificateName, keyName) = ("certificate \(certificatePath)", "key \(keyPath)")
        case .pem(let certificatePEM, let keyPEM):
            chain = try TLSCertificate.chain(pem: certificatePEM)
            key = try TLSPrivateKey(pem: keyPEM)
            (certificateName, keyName) = ("the PEM certificate", "the PEM key")
        case .objects(let certificate, let intermediates, let privateKey):
            chain = [certificate] + intermediates
            key = privateKey
            (certificateName, keyName) = ("the certificate", "the key")
        }
        try withExtendedLifetime((chain, key)) { () throws(TLSError) in
            ERR_clear_error()
            guard SSL_CTX_use_certificate(context, chain[0].x509) == 1 else {
                throw TLSError.openSSL(.certificate, "cannot use \(certificateName)")
            }
            for intermediate in chain.dropFirst() {
                guard cshim_SSL_CTX_add1_chain_cert(context, intermediate.x509) == 1 else {
                    throw TLSError.openSSL(.certificate, "cannot add the chain of \(certificateName)")
                }
            }
            // SSL_CTX_use_PrivateKey already compares the key with a certificate of the same type; the final check
            // also catches a key of another type (an RSA key next to an EC certificate).
            let mismatch = "\(keyName) does not match \(certificateName)"
            if SSL_CTX_use_PrivateKey(context, key.pkey) != 1 {
                let last = ERR_peek_last_error()
                if ERR_GET_LIB(last) == ERR_LIB_X509, ERR_GET_REASON(last) == X509_R_KEY_VALUES_MISMATCH {
                    throw TLSError.openSSL(.keyMismatch, mismatch)
                }
                throw TLSError.openSSL(.privateKey, "cannot use \(keyName)")
            }
            guard SSL_CTX_check_private_key(context) == 1 else {
                throw TLSError.openSSL(.keyMismatch, mismatch)
            }
        }
    }
}
