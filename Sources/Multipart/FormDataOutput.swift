/// Where ``MultipartFormData`` writes an encoded body: memory or a file. Unlike ``ByteSink``, writing can
/// fail, and the failure stops the encoding.
protocol FormDataOutput {
    /// Appends `bytes`.
    /// - Throws: ``FormDataError`` (`write_failed`) if the bytes could not be stored.
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws(FormDataError)

    /// Bytes written so far.
    var count: Int64 { get }
}

extension FormDataOutput {
    /// Appends the bytes of an array.
    mutating func write(_ bytes: [UInt8]) throws(FormDataError) {
        try withRawBytes(bytes) { (raw) throws(FormDataError) in try write(raw) }
    }
}
