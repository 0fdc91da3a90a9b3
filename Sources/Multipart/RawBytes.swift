/// `withUnsafeBytes` with a typed error (the standard library's version rethrows `any Error`).
@inline(__always)
func withRawBytes<Result, Failure: Error>(
    _ array: [UInt8], _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
) throws(Failure) -> Result {
    var outcome: Swift.Result<Result, Failure>?
    array.withUnsafeBytes { bytes in
        outcome = Swift.Result { () throws(Failure) -> Result in try body(bytes) }
    }
    return try outcome!.get()
}
