import ProxyEngine

extension Array where Element == UInt8 {
    /// The SHA-256 of the bytes in lower-case hex, as the echo upstream reports part and body digests.
    var sha256Hex: String {
        let digest = SHA256Digest()
        withUnsafeBytes { digest.update($0) }
        return digest.finalize().hexString
    }
}
