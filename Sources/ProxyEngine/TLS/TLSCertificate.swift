import CEventTLS

/// An X.509 certificate.
///
/// Owns one reference to an OpenSSL `X509`, released in `deinit`. OpenSSL objects installed into a context take
/// their own reference, so a certificate may be dropped once contexts are built.
///
/// `@unchecked Sendable`: the `X509` is never modified once an initialiser or ``CertificateAuthority`` returns it,
/// and OpenSSL allows concurrent use of objects that are not modified (openssl-threads(7)); reference counting
/// and OpenSSL's internal caches are locked.
public final class TLSCertificate: @unchecked Sendable {
    let x509: OpaquePointer

    /// Takes ownership of one reference to `x509`.
    init(adopting x509: OpaquePointer) {
        self.x509 = x509
    }

    deinit {
        X509_free(x509)
    }

    /// The first certificate in PEM text.
    ///
    /// - Throws: `.certificate` when the text holds no PEM certificate.
    public convenience init(pem: String) throws(TLSError) {
        let first = try Self.chain(pem: pem)[0]
        let x509 = withExtendedLifetime(first) {
            X509_up_ref(first.x509)
            return first.x509
        }
        self.init(adopting: x509)
    }

    /// Every certificate in PEM text, in order (a chain file: leaf first).
    ///
    /// - Throws: `.certificate` when the text holds no certificate or a damaged one.
    public static func chain(pem: String) throws(TLSError) -> [TLSCertificate] {
        try read(OpenSSLBIO.memory(copying: pem), what: "cannot load certificate from PEM text")
    }

    /// Every certificate in a PEM file, in order (a chain file: leaf first).
    ///
    /// - Throws: `.certificate` when the file cannot be read or holds no certificate or a damaged one, e.g.
    ///   `cannot load certificate /x/y.pem: no start line`.
    public static func chain(file path: String) throws(TLSError) -> [TLSCertificate] {
        let what = "cannot load certificate \(path)"
        return try read(OpenSSLBIO.reading(file: path, code: .certificate, what: what), what: what)
    }

    /// The certificate as PEM text (`-----BEGIN CERTIFICATE-----`).
    public var pem: String {
        guard let buffer = try? OpenSSLBIO.memory(), PEM_write_bio_X509(buffer.bio, x509) == 1 else {
            fatalError("OpenSSL: cannot encode a certificate as PEM")
        }
        return buffer.text
    }

    /// Writes ``pem`` to `path` with permissions 0644.
    ///
    /// - Throws: `.file` with the path and the system's reason.
    public func write(to path: String) throws(TLSError) {
        try PEMFile.write(pem, to: path, mode: PEMFile.publicMode)
    }

    /// The subject's common name (CN), if it has one.
    public var commonName: String? { Self.commonName(of: x509) }

    /// The subject CN of `x509` (borrowed, not owned).
    static func commonName(of x509: OpaquePointer) -> String? {
        let name = X509_get_subject_name(x509)
        let index = X509_NAME_get_index_by_NID(name, NID_commonName, -1)
        guard index >= 0, let entry = X509_NAME_get_entry(name, index),
            let data = X509_NAME_ENTRY_get_data(entry), let bytes = ASN1_STRING_get0_data(data)
        else { return nil }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(ASN1_STRING_length(data))), as: UTF8.self)
    }

    private static func read(_ source: OpenSSLBIO, what: String) throws(TLSError) -> [TLSCertificate] {
        ERR_clear_error()
        var chain: [TLSCertificate] = []
        while let x509 = PEM_read_bio_X509(source.bio, nil, nil, nil) {
            chain.append(TLSCertificate(adopting: x509))
        }
        // The loop ends with "no start line" at the end of the input; anything else is a damaged certificate.
        let last = ERR_peek_last_error()
        if !chain.isEmpty, ERR_GET_LIB(last) == ERR_LIB_PEM, ERR_GET_REASON(last) == PEM_R_NO_START_LINE {
            ERR_clear_error()
            return chain
        }
        throw TLSError.openSSL(.certificate, what, fallback: "no certificate found")
    }
}
