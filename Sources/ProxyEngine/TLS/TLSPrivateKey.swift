import CEventTLS

/// A private key (with its public half).
///
/// Owns one reference to an OpenSSL `EVP_PKEY`, released in `deinit`. Contexts take their own reference.
///
/// `@unchecked Sendable`: the key is never modified after an initialiser returns it, and OpenSSL allows
/// concurrent use (signing, installing into contexts) of keys that are not modified (openssl-threads(7)).
public final class TLSPrivateKey: @unchecked Sendable {
    let pkey: OpaquePointer

    /// Takes ownership of one reference to `pkey`.
    init(adopting pkey: OpaquePointer) {
        self.pkey = pkey
    }

    deinit {
        EVP_PKEY_free(pkey)
    }

    /// A fresh EC key on P-256 (prime256v1), from OpenSSL's CSPRNG.
    ///
    /// - Throws: `.generation` if OpenSSL cannot generate it.
    public static func generateP256() throws(TLSError) -> TLSPrivateKey {
        ERR_clear_error()
        guard let pkey = cshim_EVP_EC_gen("P-256") else {
            throw TLSError.openSSL(.generation, "cannot generate an EC P-256 key")
        }
        return TLSPrivateKey(adopting: pkey)
    }

    /// The first private key in PEM text (PKCS#8 or the traditional RSA/EC forms).
    ///
    /// - Throws: `.privateKey` when the text holds no key, or an encrypted one.
    public convenience init(pem: String) throws(TLSError) {
        let pkey = try Self.read(OpenSSLBIO.memory(copying: pem), what: "cannot load private key from PEM text")
        self.init(adopting: pkey)
    }

    /// The first private key in a PEM file.
    ///
    /// - Throws: `.privateKey` when the file cannot be read or holds no key, or an encrypted one.
    public convenience init(file path: String) throws(TLSError) {
        let what = "cannot load private key \(path)"
        let pkey = try Self.read(OpenSSLBIO.reading(file: path, code: .privateKey, what: what), what: what)
        self.init(adopting: pkey)
    }

    /// The key as unencrypted PKCS#8 PEM text (`-----BEGIN PRIVATE KEY-----`). Handle with care.
    public var pem: String {
        guard let buffer = try? OpenSSLBIO.memory(),
            PEM_write_bio_PrivateKey(buffer.bio, pkey, nil, nil, 0, nil, nil) == 1
        else {
            fatalError("OpenSSL: cannot encode a private key as PEM")
        }
        return buffer.text
    }

    /// Writes ``pem`` to `path` with permissions 0600 (set before the key is written).
    ///
    /// - Throws: `.file` with the path and the system's reason.
    public func write(to path: String) throws(TLSError) {
        try PEMFile.write(pem, to: path, mode: PEMFile.secretMode)
    }

    private static func read(_ source: OpenSSLBIO, what: String) throws(TLSError) -> OpaquePointer {
        ERR_clear_error()
        var askedForPassphrase = false
        let pkey = withUnsafeMutablePointer(to: &askedForPassphrase) { flag in
            PEM_read_bio_PrivateKey(source.bio, nil, refusePassphrase, flag)
        }
        if let pkey { return pkey }
        if askedForPassphrase {
            ERR_clear_error()
            throw TLSError(.privateKey, "\(what): the key is encrypted; partgate needs an unencrypted PEM key")
        }
        throw TLSError.openSSL(.privateKey, what, fallback: "no private key found")
    }
}

/// OpenSSL asks for a passphrase only for an encrypted key: note that it asked (the flag behind `userdata`), and
/// refuse, so a server never waits on a terminal prompt.
private let refusePassphrase:
    @convention(c) (
        UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?
    ) -> Int32 = { _, _, _, userdata in
        userdata?.assumingMemoryBound(to: Bool.self).pointee = true
        return -1
    }
