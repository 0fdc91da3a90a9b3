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
        // Written straight into the storage (a concatenated array first was one more allocation per body).
        let count = boundary.bytes.count + 4
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
        storage[0] = 13
        storage[1] = 10
        storage[2] = UInt8(ascii: "-")
        storage[3] = UInt8(ascii: "-")
        boundary.bytes.withUnsafeBufferPointer { (storage + 4).initialize(from: $0.baseAddress!, count: $0.count) }
        self.storage = storage
        crlfDelimiter = UnsafePointer(storage)
        lfDelimiter = UnsafePointer(storage + 1)
        dashBoundary = UnsafePointer(storage + 2)
        dashLength = count - 2
    }

    deinit {
        storage.deallocate()
    }
}
