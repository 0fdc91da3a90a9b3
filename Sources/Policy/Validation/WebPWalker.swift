/// Walks a WebP: the RIFF header (`RIFF`, size, `WEBP`), then chunks (FourCC, size, data, pad byte) that must
/// fill the RIFF size exactly, the first being `VP8 `, `VP8L` or `VP8X`.
///
/// The RIFF size must match the part: a part shorter than it is truncated, and any byte past it is data the
/// container does not own (a polyglot).
package struct WebPWalker: StructureWalking {
    private enum State: Sendable {
        case riffHeader
        case chunkHeader
        case chunkData
        case ended
    }

    private static let riff: UInt32 = 0x5249_4646
    private static let webp: UInt32 = 0x5745_4250
    private static let firstChunks: [UInt32] = [0x5650_3820, 0x5650_384C, 0x5650_3858]  // "VP8 ", VP8L, VP8X

    private var state = State.riffHeader
    /// The header being read, as big-endian 32-bit words (no heap storage: the walker is copied freely).
    private var words: (UInt32, UInt32, UInt32) = (0, 0, 0)
    private var headerCount = 0
    /// Bytes seen so far.
    private var position: Int64 = 0
    /// RIFF size + 8: the whole file's length.
    private var total: Int64 = 0
    private var remaining: Int64 = 0
    private var chunks = 0
    private(set) var failure: String?

    init() {}

    mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        while failure == nil, index < bytes.count {
            switch state {
            case .riffHeader, .chunkHeader:
                let byte = UInt32(bytes[index])
                switch headerCount / 4 {
                case 0: words.0 = words.0 << 8 | byte
                case 1: words.1 = words.1 << 8 | byte
                default: words.2 = words.2 << 8 | byte
                }
                headerCount += 1
                index += 1
                position += 1
                if state == .riffHeader, headerCount == 12 {
                    riffHeader()
                } else if state == .chunkHeader, headerCount == 8 {
                    chunkHeader()
                }
            case .chunkData:
                let count = Int(min(remaining, Int64(bytes.count - index)))
                remaining -= Int64(count)
                index += count
                position += Int64(count)
                if remaining == 0 { nextChunk() }
            case .ended:
                return fail("data after the WebP RIFF container (its size field says \(total) bytes)")
            }
        }
    }

    func finish() -> StructureVerdict {
        if let failure { return .invalid(failure) }
        guard state == .ended else {
            if total > 0 {
                return .invalid("the WebP RIFF size says \(total) bytes, the part has \(position)")
            }
            return .invalid("the WebP ends inside its RIFF header")
        }
        return .valid
    }

    private mutating func riffHeader() {
        guard words.0 == Self.riff, words.2 == Self.webp else { return fail("not a WebP RIFF header") }
        let size = words.1.byteSwapped
        guard size >= 4 + 8 else { return fail("a WebP RIFF size too small for one chunk") }
        total = Int64(size) + 8
        headerCount = 0
        state = .chunkHeader
    }

    private mutating func chunkHeader() {
        if chunks == 0, !Self.firstChunks.contains(words.0) {
            return fail("a WebP whose first chunk is not VP8, VP8L or VP8X")
        }
        let size = Int64(words.1.byteSwapped)
        remaining = size + (size & 1)
        guard position + remaining <= total else { return fail("a WebP chunk that runs past the RIFF size") }
        headerCount = 0
        chunks += 1
        if remaining == 0 { nextChunk() } else { state = .chunkData }
    }

    private mutating func nextChunk() {
        if position == total {
            state = .ended
        } else if total - position < 8 {
            fail("a WebP RIFF size that ends inside a chunk header")
        } else {
            state = .chunkHeader
        }
    }

    private mutating func fail(_ reason: String) {
        failure = reason
    }
}
