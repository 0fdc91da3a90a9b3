/// The CRC-32 of ISO 3309 / ITU-T V.42 (PNG chunks), slicing-by-8 (eight bytes per step; about 4× the
/// byte-at-a-time table).
struct CRC32: Sendable {
    /// `tables[k][b]`: the CRC of byte `b` followed by `k` zero bytes.
    private static let tables: [[UInt32]] = {
        var first = [UInt32](repeating: 0, count: 256)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
            first[index] = value
        }
        var tables = [first]
        for k in 1..<8 {
            tables.append(
                (0..<256).map { index in
                    let previous = tables[k - 1][index]
                    return (previous >> 8) ^ first[Int(previous & 0xFF)]
                })
        }
        return tables
    }()

    /// The eight tables flattened (`flat[k * 256 + b]`), for one bounds-free pointer.
    private static let flat: [UInt32] = tables.flatMap { $0 }

    private var state: UInt32 = 0xFFFF_FFFF

    /// Adds bytes.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var crc = state
        Self.flat.withUnsafeBufferPointer { table in
            let t0 = table.baseAddress!
            let (t1, t2, t3, t4) = (t0 + 256, t0 + 512, t0 + 768, t0 + 1024)
            let (t5, t6, t7) = (t0 + 1280, t0 + 1536, t0 + 1792)
            var index = 0
            let count = bytes.count
            while count &- index >= 8 {
                let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let low = crc ^ UInt32(truncatingIfNeeded: word)
                let high = UInt32(truncatingIfNeeded: word &>> 32)
                crc =
                    t7[Int(low & 0xFF)] ^ t6[Int(low &>> 8 & 0xFF)] ^ t5[Int(low &>> 16 & 0xFF)]
                    ^ t4[Int(low &>> 24)] ^ t3[Int(high & 0xFF)] ^ t2[Int(high &>> 8 & 0xFF)]
                    ^ t1[Int(high &>> 16 & 0xFF)] ^ t0[Int(high &>> 24)]
                index &+= 8
            }
            while index < count {
                crc = t0[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc &>> 8)
                index &+= 1
            }
        }
        state = crc
    }

    /// Adds one byte.
    mutating func update(_ byte: UInt8) {
        state = Self.flat[Int((state ^ UInt32(byte)) & 0xFF)] ^ (state >> 8)
    }

    /// The checksum of the bytes added so far.
    var value: UInt32 { state ^ 0xFFFF_FFFF }
}
