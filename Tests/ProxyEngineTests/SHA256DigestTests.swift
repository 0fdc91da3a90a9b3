import Policy
import ProxyEngine
import Testing

@Suite("SHA256Digest")
struct SHA256DigestTests {
    static func digest(_ pieces: [String]) -> String {
        let digest = SHA256Digest()
        for piece in pieces { Array(piece.utf8).withUnsafeBytes { digest.update($0) } }
        return digest.finalize().hexString
    }

    @Test func knownVectors() {
        // FIPS 180-2 examples.
        #expect(Self.digest([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Self.digest(["abc"]) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Self.digest(["abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"])
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func incrementalEqualsWholeAndRestartsAfterFinalize() {
        let text = String(repeating: "partgate ", count: 1000)
        let whole = Self.digest([text])
        let pieces = stride(from: 0, to: text.utf8.count, by: 7).map { start in
            String(decoding: Array(text.utf8)[start..<min(start + 7, text.utf8.count)], as: UTF8.self)
        }
        #expect(Self.digest(pieces) == whole)
        let digest = SHA256Digest()
        Array("abc".utf8).withUnsafeBytes { digest.update($0) }
        _ = digest.finalize()
        #expect(digest.finalize().hexString == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}
