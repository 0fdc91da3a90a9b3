/// Walks a PNG: the signature, then chunks (length, type, data, CRC) from `IHDR` to `IEND`.
///
/// Fails on a bad signature, a first chunk other than a 13-byte `IHDR`, a length over 2³¹−1, a type that is
/// not four ASCII letters, a CRC mismatch, an `IEND` with data or before any `IDAT`, and any byte after `IEND`
/// (a PNG with a ZIP or script appended is a polyglot). The file must end right after `IEND`'s CRC.
package struct PNGWalker: StructureWalking {
    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    private static let ihdr: UInt32 = 0x4948_4452
    private static let idat: UInt32 = 0x4944_4154
    private static let iend: UInt32 = 0x4945_4E44

    private enum State: Sendable {
        case signature
        case chunkHeader
        case chunkData
        case crc
        case ended
    }

    private var state = State.signature
    /// Bytes of the current fixed-size field (signature, chunk header, CRC) read so far.
    private var got = 0
    private var field: UInt32 = 0
    private var length: UInt32 = 0
    private var type: UInt32 = 0
    private var remaining: UInt32 = 0
    private var crc = CRC32()
    private var chunks = 0
    private var sawIDAT = false
    private(set) var failure: String?

    init() {}

    mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        while failure == nil, index < bytes.count {
            switch state {
            case .signature:
                guard bytes[index] == Self.signature[got] else { return fail("not a PNG signature") }
                got += 1
                index += 1
                if got == Self.signature.count { startChunk() }
            case .chunkHeader:
                let byte = bytes[index]
                index += 1
                header(byte)
            case .chunkData:
                let count = min(Int(remaining), bytes.count - index)
                crc.update(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + count)]))
                remaining -= UInt32(count)
                index += count
                if remaining == 0 { state = .crc }
            case .crc:
                field = field << 8 | UInt32(bytes[index])
                got += 1
                index += 1
                if got == 4 { endChunk() }
            case .ended:
                return fail("data after the IEND chunk")
            }
        }
    }

    func finish() -> StructureVerdict {
        if let failure { return .invalid(failure) }
        return state == .ended ? .valid : .invalid("the PNG ends before its IEND chunk")
    }

    private mutating func startChunk() {
        state = .chunkHeader
        got = 0
        field = 0
    }

    private mutating func header(_ byte: UInt8) {
        got += 1
        if got <= 4 {
            field = field << 8 | UInt32(byte)
            if got == 4 {
                length = field
                guard length <= 0x7FFF_FFFF else { return fail("a PNG chunk length over 2^31-1") }
                crc = CRC32()
                field = 0
            }
            return
        }
        guard (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) else {
            return fail("a PNG chunk type that is not four letters")
        }
        crc.update(byte)
        field = field << 8 | UInt32(byte)
        guard got == 8 else { return }
        type = field
        if chunks == 0, type != Self.ihdr || length != 13 { return fail("a PNG whose first chunk is not IHDR") }
        if type == Self.idat { sawIDAT = true }
        if type == Self.iend {
            guard length == 0 else { return fail("an IEND chunk with data") }
            guard sawIDAT else { return fail("an IEND chunk before any IDAT") }
        }
        remaining = length
        state = remaining > 0 ? .chunkData : .crc
        got = 0
        field = 0
    }

    private mutating func endChunk() {
        guard field == crc.value else { return fail("a PNG chunk whose CRC does not match") }
        chunks += 1
        if type == Self.iend {
            state = .ended
        } else {
            startChunk()
        }
    }

    private mutating func fail(_ reason: String) {
        failure = reason
    }
}
