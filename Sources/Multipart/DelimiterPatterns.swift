/// The three byte patterns the parser searches for, so the hot loops read them through plain pointers: `--B`
/// (the first delimiter), `CRLF--B`, and `LF--B`, overlapping in one run of bytes `CR LF - - B`.
///
/// One allocation per body: the bytes lie in the tail of a `ManagedBuffer` (whose header is their count). A class
/// with an `UnsafeMutablePointer.allocate`d array was two, and the runtime serves that call's default alignment with
/// `posix_memalign`, at about three times the cost of `malloc`.
struct DelimiterPatterns: @unchecked Sendable {
    // @unchecked Sendable: the bytes are written once in `make` and only read afterwards.
    private let buffer: ManagedBuffer<Int, UInt8>

    private init(buffer: ManagedBuffer<Int, UInt8>) { self.buffer = buffer }

    /// The patterns for `boundary`.
    static func make(_ boundary: Boundary) -> DelimiterPatterns {
        let count = boundary.bytes.count + 4
        let buffer = ManagedBuffer<Int, UInt8>.create(minimumCapacity: count) { _ in count }
        buffer.withUnsafeMutablePointerToElements { storage in
            storage[0] = 13
            storage[1] = 10
            storage[2] = UInt8(ascii: "-")
            storage[3] = UInt8(ascii: "-")
            boundary.bytes.withUnsafeBufferPointer { (storage + 4).initialize(from: $0.baseAddress!, count: $0.count) }
        }
        return DelimiterPatterns(buffer: buffer)
    }

    /// The first byte of the run; valid while the buffer lives (the parser holds it for the body's length).
    @inline(__always)
    private var start: UnsafePointer<UInt8> { UnsafePointer(buffer.withUnsafeMutablePointerToElements { $0 }) }

    /// CR LF `--` boundary.
    var crlfDelimiter: UnsafePointer<UInt8> { start }
    /// LF `--` boundary.
    var lfDelimiter: UnsafePointer<UInt8> { start + 1 }
    /// `--` boundary.
    var dashBoundary: UnsafePointer<UInt8> { start + 2 }
    /// Length of `--B`; the CRLF pattern is 2 longer, the LF one 1 longer.
    var dashLength: Int { buffer.header - 2 }
}
