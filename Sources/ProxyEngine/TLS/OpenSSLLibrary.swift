import CEventTLS

/// One-time OpenSSL set-up shared by every TLS object.
enum OpenSSLLibrary {
    /// Loads libssl's error strings and algorithms once (thread-safe: a Swift global is initialised once).
    static let initialized: Void = {
        guard OPENSSL_init_ssl(UInt64(OPENSSL_INIT_LOAD_SSL_STRINGS | OPENSSL_INIT_LOAD_CRYPTO_STRINGS), nil) == 1
        else {
            fatalError("OpenSSL: OPENSSL_init_ssl failed")
        }
    }()
}
