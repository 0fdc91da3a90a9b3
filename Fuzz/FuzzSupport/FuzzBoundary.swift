import Multipart

/// Derives valid boundaries from fuzzer bytes.
public enum FuzzBoundary {
    /// RFC 2046 `bchars` other than space, which replace the bytes that are not bchars.
    static let replacements = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=?".utf8)

    /// A boundary from a length byte and up to 70 bytes: bchars are kept as they are (so that seeds and
    /// mutations can spell the boundary inside the body), other bytes are mapped onto bchars, and a
    /// trailing space becomes `-`.
    public static func read(from input: inout FuzzInput) -> Boundary {
        let length = 1 + Int(input.byte()) % Boundary.maximumLength
        return make(input.bytes(upTo: length))
    }

    /// Makes `raw` a valid boundary as ``read(from:)`` does (an empty one becomes `b`).
    public static func make(_ raw: some Collection<UInt8>) -> Boundary {
        var bytes = raw.map { Boundary.isBChar($0) ? $0 : replacements[Int($0) % replacements.count] }
        if bytes.isEmpty { bytes = [UInt8(ascii: "b")] }
        if bytes.last == UInt8(ascii: " ") { bytes[bytes.count - 1] = UInt8(ascii: "-") }
        guard let boundary = Boundary(bytes) else {
            fatalError("harness bug: derived boundary \(bytes) is invalid")
        }
        return boundary
    }
}
