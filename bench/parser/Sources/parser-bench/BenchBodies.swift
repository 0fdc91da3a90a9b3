/// Deterministic benchmark bodies, built in memory (same shapes as ../../shared/bench/gen-bodies.sh).
enum BenchBodies {
    static let boundary = "mpbench-0c8f6e1d2b3a49587a6b5c4d3e2f1a09"

    struct Body {
        var name: String
        var bytes: [UInt8]
        var parts: Int
        var dataBytes: Int
    }

    /// xorshift64*: fast, deterministic filler (random-looking binary, so CR appears once per 256 bytes).
    struct Filler {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 2_685_821_657_736_338_717
        }
        mutating func fill(_ count: Int, into out: inout [UInt8]) {
            var remaining = count
            while remaining > 0 {
                var word = next()
                for _ in 0..<min(8, remaining) {
                    out.append(UInt8(truncatingIfNeeded: word))
                    word >>= 8
                }
                remaining -= min(8, remaining)
            }
        }
    }

    static func fileHead(_ name: String, _ filename: String) -> [UInt8] {
        Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
    }

    /// Binary file parts of `size` bytes each; the boundary never occurs in the data (checked).
    static func fileParts(name: String, count: Int, size: Int, seed: UInt64) -> Body {
        var out: [UInt8] = []
        out.reserveCapacity(count * (size + 160) + 64)
        var filler = Filler(state: seed)
        for index in 0..<count {
            if index > 0 { out += Array("\r\n".utf8) }
            out += fileHead("file\(index)", "blob\(index).bin")
            filler.fill(size, into: &out)
        }
        out += Array("\r\n--\(boundary)--\r\n".utf8)
        return Body(name: name, bytes: out, parts: count, dataBytes: count * size)
    }

    /// `count` fields of 100 hex characters (the shape of parser-many-parts.multipart).
    static func smallParts(count: Int) -> Body {
        var out: [UInt8] = []
        var filler = Filler(state: 0x6d70_6265_6e63_6832)
        let hex = Array("0123456789abcdef".utf8)
        for index in 0..<count {
            out += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"f\(index)\"\r\n\r\n".utf8)
            for _ in 0..<50 {
                let byte = UInt8(truncatingIfNeeded: filler.next())
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 15)])
            }
            out += Array("\r\n".utf8)
        }
        out += Array("--\(boundary)--\r\n".utf8)
        return Body(name: "small-10000x100B", bytes: out, parts: count, dataBytes: count * 100)
    }
}
