import CEventTLS

/// An OpenSSL `BIO`: in memory (`BIO_s_mem`), to parse PEM from strings and write PEM into strings, or on a file,
/// to parse PEM files.
///
/// Owns its `BIO`, freed in `deinit`. Never shared: each use creates its own.
final class OpenSSLBIO {
    let bio: OpaquePointer

    private init(_ bio: OpaquePointer) {
        self.bio = bio
    }

    deinit {
        BIO_free(bio)
    }

    /// An empty memory BIO to write into.
    static func memory() throws(TLSError) -> OpenSSLBIO {
        guard let bio = BIO_new(BIO_s_mem()) else {
            throw TLSError.openSSL(.context, "cannot create a memory BIO")
        }
        return OpenSSLBIO(bio)
    }

    /// A memory BIO holding a copy of `text`, to read from.
    static func memory(copying text: String) throws(TLSError) -> OpenSSLBIO {
        let buffer = try memory()
        var text = text
        let written = text.withUTF8 { bytes in
            bytes.isEmpty ? 0 : BIO_write(buffer.bio, bytes.baseAddress, Int32(clamping: bytes.count))
        }
        guard written == text.utf8.count else {
            throw TLSError.openSSL(.context, "cannot fill a memory BIO")
        }
        return buffer
    }

    /// A BIO reading the file at `path`.
    ///
    /// - Parameters:
    ///   - code: the error code if the file cannot be opened.
    ///   - what: names the file in the error, e.g. `cannot load certificate /x/y.pem`.
    static func reading(file path: String, code: TLSError.Code, what: String) throws(TLSError) -> OpenSSLBIO {
        ERR_clear_error()
        guard let bio = BIO_new_file(path, "r") else {
            throw TLSError.openSSL(code, what)
        }
        return OpenSSLBIO(bio)
    }

    /// Everything a memory BIO holds, as text (PEM is ASCII).
    var text: String {
        var data: UnsafeMutablePointer<CChar>? = nil
        let count = cshim_BIO_get_mem_data(bio, &data)
        guard let data, count > 0 else { return "" }
        return data.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
            String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        }
    }
}
