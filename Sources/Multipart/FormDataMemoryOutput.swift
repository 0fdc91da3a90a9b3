/// An encoding held in memory.
struct FormDataMemoryOutput: FormDataOutput {
    /// The encoded bytes.
    var bytes: [UInt8] = []

    /// - Parameter capacity: the bytes to reserve up front.
    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws(FormDataError) {
        self.bytes.append(contentsOf: bytes)
    }

    var count: Int64 { Int64(bytes.count) }
}
