/// Walks a JPEG: `SOI`, marker segments (each with its length), entropy-coded scans after `SOS` (stuffed
/// `FF 00` and `RSTn` markers skipped), up to `EOI`.
///
/// Fails on a missing `SOI`, a second `SOI`, a segment length under 2, a scan before any frame header (`SOFn`),
/// `EOI` before any scan, a byte where a marker belongs, and any byte after `EOI` (PHP or a ZIP appended to a
/// photo is a polyglot). Segments are skipped by their length, so an EXIF thumbnail inside `APP1` is no end.
package struct JPEGWalker: StructureWalking {
    private enum State: Sendable {
        case soi(Int)
        /// Expecting `FF`.
        case marker
        /// After `FF`: the marker code (more `FF`s are fill).
        case markerCode
        /// The two length bytes of a segment.
        case length(Int)
        case segment
        case entropy
        /// An `FF` inside entropy-coded data.
        case entropyFF
        case ended
    }

    private var state = State.soi(0)
    private var code: UInt8 = 0
    private var length = 0
    private var remaining = 0
    private var sawFrame = false
    private var sawScan = false
    private(set) var failure: String?

    init() {}

    mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        while failure == nil, index < bytes.count {
            switch state {
            case .segment:
                let count = min(remaining, bytes.count - index)
                remaining -= count
                index += count
                if remaining == 0 { endSegment() }
            case .entropy:
                guard let marker = ByteScan.firstIndex(of: 0xFF, in: bytes, from: index) else { return }
                state = .entropyFF
                index = marker + 1
            default:
                let byte = bytes[index]
                index += 1
                step(byte)
            }
        }
    }

    func finish() -> StructureVerdict {
        if let failure { return .invalid(failure) }
        if case .ended = state { return .valid }
        return .invalid("the JPEG ends before its EOI marker")
    }

    private mutating func step(_ byte: UInt8) {
        switch state {
        case .soi(let got):
            guard byte == (got == 0 ? 0xFF : 0xD8) else { return fail("not a JPEG SOI marker") }
            state = got == 0 ? .soi(1) : .marker
        case .marker:
            guard byte == 0xFF else { return fail("a byte where a JPEG marker belongs") }
            state = .markerCode
        case .markerCode:
            markerCode(byte)
        case .length(let got):
            length = length << 8 | Int(byte)
            guard got == 1 else {
                state = .length(1)
                return
            }
            guard length >= 2 else { return fail("a JPEG segment length under 2") }
            remaining = length - 2
            if remaining == 0 { endSegment() } else { state = .segment }
        case .entropyFF:
            switch byte {
            case 0x00, 0xD0...0xD7: state = .entropy
            case 0xFF: break
            default: markerCode(byte)
            }
        case .ended:
            fail("data after the JPEG EOI marker")
        case .segment, .entropy:
            preconditionFailure("bulk states are handled in feed")
        }
    }

    private mutating func markerCode(_ byte: UInt8) {
        switch byte {
        case 0xFF:
            state = .markerCode
        case 0x00:
            fail("a stuffed byte outside a JPEG scan")
        case 0xD8:
            fail("a second JPEG SOI marker")
        case 0xD9:
            guard sawScan else { return fail("a JPEG EOI before any scan") }
            state = .ended
        case 0x01, 0xD0...0xD7:
            state = .marker
        default:
            code = byte
            length = 0
            if Self.isFrameHeader(byte) { sawFrame = true }
            if byte == 0xDA, !sawFrame { return fail("a JPEG scan before any frame header") }
            state = .length(0)
        }
    }

    private mutating func endSegment() {
        if code == 0xDA {
            sawScan = true
            state = .entropy
        } else {
            state = .marker
        }
    }

    /// `SOF0`–`SOF15` except `DHT` (C4), `JPG` (C8) and `DAC` (CC).
    private static func isFrameHeader(_ code: UInt8) -> Bool {
        (0xC0...0xCF).contains(code) && code != 0xC4 && code != 0xC8 && code != 0xCC
    }

    private mutating func fail(_ reason: String) {
        failure = reason
    }
}
