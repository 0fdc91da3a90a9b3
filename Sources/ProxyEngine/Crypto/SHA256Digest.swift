import CEventTLS
import Policy

/// SHA-256 through OpenSSL's EVP interface, fed incrementally while bytes stream past.
///
/// Owns one `EVP_MD_CTX`, freed in `deinit`.
public final class SHA256Digest: PartDigest {
    private let context: OpaquePointer

    /// A fresh digest.
    public init() {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            fatalError("OpenSSL: cannot initialise SHA-256")
        }
        self.context = context
    }

    deinit {
        EVP_MD_CTX_free(context)
    }

    /// Adds bytes.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        _ = EVP_DigestUpdate(context, base, bytes.count)
    }

    /// The digest of everything added; the digest then starts over.
    public func finalize() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        out.withUnsafeMutableBufferPointer { buffer in
            _ = EVP_DigestFinal_ex(context, buffer.baseAddress, &length)
        }
        _ = EVP_DigestInit_ex(context, EVP_sha256(), nil)
        return Array(out[0..<Int(length)])
    }
}
