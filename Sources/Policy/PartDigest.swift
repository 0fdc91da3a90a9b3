/// A streaming message digest for part bytes (the engine provides SHA-256 through OpenSSL's EVP).
public protocol PartDigest {
    /// A fresh digest.
    init()
    /// Adds bytes.
    mutating func update(_ bytes: UnsafeRawBufferPointer)
    /// The digest of everything added; the digest then starts over.
    mutating func finalize() -> [UInt8]
}

extension Array where Element == UInt8 {
    /// Lowercase hexadecimal.
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(count * 2)
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
