/// The three byte patterns the parser searches for, in one immutable allocation so the hot loops read
/// them through plain pointers: `--B` (the first delimiter), `CRLF--B`, and `LF--B`.
final class DelimiterPatterns: @unchecked Sendable {
    // @unchecked Sendable: the storage is written once in init and only read afterwards.
    private let storage: UnsafeMutablePointer<UInt8>
    /// `--` boundary.
    let dashBoundary: UnsafePointer<UInt8>
    /// CR LF `--` boundary.
    let crlfDelimiter: UnsafePointer<UInt8>
    /// LF `--` boundary.
    let lfDelimiter: UnsafePointer<UInt8>
    /// Length of `--B`; the CRLF pattern is 2 longer, the LF one 1 longer.
    let dashLength: Int

    init(_ boundary: Boundary) {
        let bytes = [13, 10, UInt8(ascii: "-"), UInt8(ascii: "-")] + boundary.bytes
        storage = .allocate(capacity: bytes.count)
        storage.initialize(from: bytes, count: bytes.count)
        crlfDelimiter = UnsafePointer(storage)
        lfDelimiter = UnsafePointer(storage + 1)
        dashBoundary = UnsafePointer(storage + 2)
        dashLength = bytes.count - 2
    }

    deinit {
        storage.deallocate()
    }
}
