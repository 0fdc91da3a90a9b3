import Multipart
import Policy
import Sniff
import Testing

/// A digest that records sizes: enough to see every byte reach it exactly once.
struct CountingDigest: PartDigest {
    var total = 0
    var sum: UInt64 = 0
    init() {}
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        total += bytes.count
        for byte in bytes { sum = sum &* 31 &+ UInt64(byte) }
    }
    mutating func finalize() -> [UInt8] {
        defer { total = 0; sum = 0 }
        return withUnsafeBytes(of: sum.bigEndian) { Array($0) } + [UInt8(truncatingIfNeeded: total)]
    }
}

@Suite("PartInspector")
struct PartInspectorTests {
    static func inspect(_ body: String, boundary: String = "b", pieces: Int) throws -> PartInspector<CountingDigest> {
        try inspect(Array(body.utf8), boundary: boundary, pieces: pieces)
    }

    static func inspect(_ bytes: [UInt8], boundary: String = "b", pieces: Int) throws -> PartInspector<CountingDigest> {
        var parser = MultipartParser(boundary: Boundary(boundary)!)
        var inspector = PartInspector<CountingDigest>()
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + pieces)
            try Array(bytes[offset..<end]).withUnsafeBytes { try parser.parse($0, into: &inspector) }
            offset = end
        }
        try parser.finish(into: &inspector)
        return inspector
    }

    @Test(arguments: [1, 3, 64, 100_000])
    func summarisesEachPartWhateverTheSplit(pieces: Int) throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0x78, count: 3000)
        var inspector = try Self.inspect(
            Array(("preamble\r\n--b\r\nContent-Disposition: form-data; name=\"t\"\r\n\r\nhi\r\n"
                + "--b\r\nContent-Disposition: form-data; name=\"p\"; filename=\"x.png\"\r\nContent-Type: image/png\r\n\r\n").utf8)
                + png + Array("\r\n--b--".utf8), pieces: pieces)
        let parts = inspector.takeCompleted()
        #expect(parts.count == 2)
        #expect(parts[0].name == "t" && parts[0].size == 2 && parts[0].sniffed.mimeType == "text/plain")
        #expect(parts[1].filename == "x.png" && parts[1].declaredType == "image/png")
        #expect(parts[1].size == Int64(png.count))
        #expect(parts[1].sniffed.mimeType == "image/png")
        var digest = CountingDigest()
        png.withUnsafeBytes { digest.update($0) }
        #expect(parts[1].digest == digest.finalize())
        #expect(inspector.violations.map(\.flag) == [.preamble])
        #expect(inspector.ended)
        #expect(inspector.takeCompleted().isEmpty)
    }

    @Test func shortPartsAreSniffedAsComplete() throws {
        var inspector = try Self.inspect("--b\r\nContent-Disposition: form-data; name=\"t\"; filename=\"e\"\r\n\r\n\r\n--b--",
                                         pieces: 5)
        let part = inspector.takeCompleted()[0]
        #expect(part.size == 0)
        #expect(part.sniffed.isFinal)
    }

    @Test func hexStringIsLowercase() {
        #expect([0x00, 0xAB, 0x0F, 0xF0].hexString == "00ab0ff0")
    }
}
