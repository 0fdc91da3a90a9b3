import CEventTLS

/// The fields of an X.509 v3 certificate to be made and signed in process (``CertificateAuthority``).
struct CertificateTemplate {
    /// The subject's common name.
    var commonName: String
    /// How long the certificate is valid, from one hour ago (clock skew) to `validityDays` from now.
    var validityDays: Int
    /// Moves the whole period by this many days (negative: a certificate that has expired, positive: one not
    /// valid yet).
    var shiftDays: Int = 0
    /// Extensions in `openssl x509 -extfile` syntax, by NID, added in order (subjectKeyIdentifier must come
    /// before an authorityKeyIdentifier that refers to it on a self-signed certificate).
    var extensions: [(nid: Int32, value: String)]

    /// Makes the certificate for `subjectKey`, issued and signed (SHA-256) by `issuer` with `issuerKey`, or
    /// self-signed when `issuer` is nil. The serial number is 128 random bits.
    ///
    /// - Throws: `.generation` with OpenSSL's reason.
    func sign(
        subjectKey: TLSPrivateKey,
        issuer: TLSCertificate?,
        issuerKey: TLSPrivateKey
    ) throws(TLSError) -> TLSCertificate {
        ERR_clear_error()
        guard let x509 = X509_new() else { throw TLSError.openSSL(.generation, "cannot allocate a certificate") }
        let certificate = TLSCertificate(adopting: x509)  // owns it from here, also when a step below throws
        try withExtendedLifetime((certificate, subjectKey, issuer, issuerKey)) { () throws(TLSError) in
            func check(_ ok: Bool, _ step: String) throws(TLSError) {
                if !ok { throw TLSError.openSSL(.generation, "cannot make certificate \"\(commonName)\": \(step)") }
            }
            try check(X509_set_version(x509, Int(X509_VERSION_3)) == 1, "version")
            try check(Self.setRandomSerial(x509), "serial number")
            try check(
                X509_time_adj_ex(X509_getm_notBefore(x509), Int32(clamping: shiftDays), -3600, nil) != nil, "notBefore")
            try check(
                X509_time_adj_ex(X509_getm_notAfter(x509), Int32(clamping: validityDays + shiftDays), 0, nil) != nil,
                "notAfter")
            let subject = X509_get_subject_name(x509)
            try check(
                X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_UTF8, commonName, -1, -1, 0) == 1, "subject")
            let issuerName = issuer.map { X509_get_subject_name($0.x509) } ?? subject
            try check(X509_set_issuer_name(x509, issuerName) == 1, "issuer")
            try check(X509_set_pubkey(x509, subjectKey.pkey) == 1, "public key")
            var context = X509V3_CTX()
            X509V3_set_ctx(&context, issuer?.x509 ?? x509, x509, nil, nil, 0)
            for (nid, value) in extensions {
                guard let extensionObject = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
                    try check(false, "extension \(String(cString: OBJ_nid2sn(nid))) = \(value)")
                    return
                }
                let added = X509_add_ext(x509, extensionObject, -1) == 1  // adds a copy
                X509_EXTENSION_free(extensionObject)
                try check(added, "adding extension \(String(cString: OBJ_nid2sn(nid)))")
            }
            try check(X509_sign(x509, issuerKey.pkey, EVP_sha256()) > 0, "signature")
        }
        return certificate
    }

    /// Sets a positive 128-bit random serial number (RFC 5280 §4.1.2.2 allows up to 20 octets).
    private static func setRandomSerial(_ x509: OpaquePointer) -> Bool {
        guard let number = BN_new() else { return false }
        defer { BN_free(number) }  // scoped temporary: never leaves this function
        return BN_rand(number, 128, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ANY) == 1
            && BN_to_ASN1_INTEGER(number, X509_get_serialNumber(x509)) != nil
    }
}
