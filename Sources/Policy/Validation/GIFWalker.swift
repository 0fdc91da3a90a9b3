/// Walks a GIF: the `GIF87a`/`GIF89a` header, the logical screen descriptor and global color table, then
/// blocks (extensions and images, each a chain of data sub-blocks) up to the trailer `0x3B`.
///
/// Fails on a bad header, a byte that starts no block (`GIF89a` followed by `<script>` or `/*` fails here),
/// an LZW code size outside 2…12, and any byte after the trailer (a valid GIF with script appended is a
/// polyglot). The file must end right after the trailer.
package struct GIFWalker: StructureWalking {
    private enum State: Sendable {
        case header
        case screen
        case colorTable
        case block
        case extensionLabel
        case imageDescriptor
        case lzwCodeSize
        case subBlockSize
        case subBlockData
        case ended
    }

    private var state = State.header
    private var got = 0
    private var remaining = 0
    /// The descriptor's packed byte (color table flag and size).
    private var packed: UInt8 = 0
    /// Where a color table leads: to the blocks (global) or to the LZW code size (local).
    private var afterTable = State.block
    private(set) var failure: String?

    init() {}

    mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        while failure == nil, index < bytes.count {
            switch state {
            case .colorTable, .subBlockData:
                let count = min(remaining, bytes.count - index)
                remaining -= count
                index += count
                if remaining == 0 { state = self.state == .colorTable ? afterTable : .subBlockSize }
            default:
                let byte = bytes[index]
                index += 1
                step(byte)
            }
        }
    }

    func finish() -> StructureVerdict {
        if let failure { return .invalid(failure) }
        return state == .ended ? .valid : .invalid("the GIF ends before its trailer")
    }

    private mutating func step(_ byte: UInt8) {
        switch state {
        case .header:
            let expected = Array("GIF8".utf8)
            let ok = got < 4 ? byte == expected[got] : got == 4 ? (byte == 0x37 || byte == 0x39) : byte == 0x61
            guard ok else { return fail("not a GIF header") }
            got += 1
            if got == 6 {
                state = .screen
                got = 0
            }
        case .screen:
            got += 1
            if got == 5 { packed = byte }
            if got == 7 { colorTable(then: .block) }
        case .block:
            switch byte {
            case 0x21: state = .extensionLabel
            case 0x2C:
                state = .imageDescriptor
                got = 0
            case 0x3B: state = .ended
            default: fail("a byte that starts no GIF block")
            }
        case .extensionLabel:
            state = .subBlockSize
        case .imageDescriptor:
            got += 1
            if got == 9 {
                packed = byte
                colorTable(then: .lzwCodeSize)
            }
        case .lzwCodeSize:
            guard (2...12).contains(byte) else { return fail("a GIF LZW code size outside 2...12") }
            state = .subBlockSize
        case .subBlockSize:
            if byte == 0 {
                state = .block
            } else {
                remaining = Int(byte)
                state = .subBlockData
            }
        case .ended:
            fail("data after the GIF trailer")
        case .colorTable, .subBlockData:
            preconditionFailure("bulk states are handled in feed")
        }
    }

    /// After a descriptor: skip its color table if the packed byte announces one.
    private mutating func colorTable(then next: State) {
        if packed & 0x80 != 0 {
            remaining = 3 << (Int(packed & 0x07) + 1)
            afterTable = next
            state = .colorTable
        } else {
            state = next
        }
    }

    private mutating func fail(_ reason: String) {
        failure = reason
    }
}
