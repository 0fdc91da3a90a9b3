import CByteCopy
import Testing

/// `partgate_copy_bytes` copies exactly what `memcpy` does, at every distance between source and destination
/// modulo 4096 and every length around the loop's 64-byte step and glibc's 2 KiB `rep movsb` threshold.
@Suite("Bulk byte copies")
struct ByteCopyTests {
    static let lengths = [0, 1, 15, 16, 63, 64, 65, 127, 2047, 2048, 2049, 4096 + 37, 70_000]

    /// Copies `length` bytes from offset `from` to offset `to` of two page-aligned buffers with `copy`, and checks
    /// the copied bytes and that the bytes around the destination were left alone.
    static func check(
        length: Int, from: Int, to: Int, _ copy: (UnsafeMutableRawPointer, UnsafeRawPointer, Int) -> Void
    ) -> Bool {
        let size = length + 8192
        let source = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 4096)
        let destination = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 4096)
        defer {
            source.deallocate()
            destination.deallocate()
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &* UInt64(length + 1) &+ UInt64(from * 4099 + to)
        for index in 0..<size {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            source.storeBytes(of: UInt8(truncatingIfNeeded: state >> 56), toByteOffset: index, as: UInt8.self)
        }
        destination.initializeMemory(as: UInt8.self, repeating: 0xA5, count: size)
        copy(destination + to, source + from, length)
        let copied = UnsafeRawBufferPointer(start: destination + to, count: length)
        let original = UnsafeRawBufferPointer(start: source + from, count: length)
        let before = UnsafeRawBufferPointer(start: destination, count: to)
        let after = UnsafeRawBufferPointer(start: destination + to + length, count: size - to - length)
        return copied.elementsEqual(original) && before.allSatisfy { $0 == 0xA5 } && after.allSatisfy { $0 == 0xA5 }
    }

    /// Destination offsets 0–130 past a source at offset 0 (the window the SSE2 loop takes is 1–63), and a few
    /// the other way round.
    static let distances = Array(0...130).map { (from: 0, to: $0) } + [(from: 7, to: 0), (from: 100, to: 3)]

    @Test(arguments: lengths)
    func theDispatcherCopiesExactly(_ length: Int) {
        for (from, to) in Self.distances {
            #expect(Self.check(length: length, from: from, to: to) { partgate_copy_bytes($0, $1, $2) },
                    "length \(length), source +\(from), destination +\(to)")
        }
    }

    @Test(arguments: lengths, [0, 1])
    func eachPathCopiesExactly(_ length: Int, level: Int32) {
        for (from, to) in Self.distances {
            #expect(Self.check(length: length, from: from, to: to) { partgate_copy_bytes_using($0, $1, $2, level) },
                    "length \(length), source +\(from), destination +\(to), level \(level)")
        }
    }
}
