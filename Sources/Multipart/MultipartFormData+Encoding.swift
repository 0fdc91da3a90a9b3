import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension MultipartFormData {
    /// Encodes the whole body in memory.
    ///
    /// Holds the entire body (``contentLength`` bytes; up to 16 MiB of it reserved up front, so that a
    /// wrongly declared stream length cannot make a huge allocation before the stream is read); prefer
    /// ``writeEncodedData(to:)`` or ``encode(memoryThreshold:temporaryDirectory:)`` for large forms.
    /// - Returns: the body, exactly ``contentLength`` bytes.
    /// - Throws: ``FormDataError``: `stream_consumed`, `too_large`, `file_unreachable`, `file_unreadable`,
    ///   `read_failed`, `body_too_short`, `body_too_long`.
    public func encode() throws(FormDataError) -> [UInt8] {
        let length = contentLength
        guard let capacity = Int(exactly: length) else {
            throw FormDataError(.tooLarge, detail: "\(length) bytes do not fit in memory")
        }
        try checkStreamsUnread()
        var output = FormDataMemoryOutput(capacity: min(capacity, 16 << 20))
        try write(into: &output)
        return output.bytes
    }

    /// Writes the encoded body to a new file, streaming: parts are copied through one buffer of
    /// ``bufferSize`` bytes, so memory does not grow with the body.
    ///
    /// The file is created exclusively (an existing file, or a symlink, at `fileURL` is never overwritten)
    /// with mode 0644 before the umask. If the encoding fails midway the partial file is removed. On success
    /// the file belongs to the caller.
    /// - Parameter fileURL: a `file:` URL where nothing exists yet.
    /// - Throws: ``FormDataError``: `output_not_file_url`, `output_file_exists`, `output_creation_failed`,
    ///   `write_failed`, and the reading errors of ``encode()``.
    public func writeEncodedData(to fileURL: URL) throws(FormDataError) {
        try writeEncodedData(to: fileURL, permissions: 0o644)
    }

    /// Encodes in memory when the body is smaller than `memoryThreshold`, otherwise streams it to a new
    /// temporary file (Alamofire's `encodingMemoryThreshold` choice).
    ///
    /// The temporary file is `partgate-form-<UUID>.multipart` in `temporaryDirectory`, mode 0600. **The caller
    /// owns it** and deletes it when the upload is done or abandoned (``EncodedFormData/removeFile()``); this
    /// method deletes it itself only when the encoding fails.
    /// - Parameters:
    ///   - memoryThreshold: bodies of fewer bytes are encoded in memory; 10 MB by default.
    ///   - temporaryDirectory: where a larger body is written.
    /// - Returns: the bytes, or the URL of the file that holds them; either way ``contentLength`` bytes.
    /// - Throws: ``FormDataError``: the errors of ``encode()`` or ``writeEncodedData(to:)``.
    public func encode(
        memoryThreshold: UInt64 = MultipartFormData.encodingMemoryThreshold,
        temporaryDirectory: URL = FileManager.default.temporaryDirectory
    ) throws(FormDataError) -> EncodedFormData {
        if contentLength < memoryThreshold {
            return .memory(try encode())
        }
        let url = temporaryDirectory.appendingPathComponent(
            "partgate-form-\(UUID().uuidString).multipart", isDirectory: false)
        try writeEncodedData(to: url, permissions: 0o600)
        return .file(url)
    }

    /// ``writeEncodedData(to:)`` with the new file's mode.
    func writeEncodedData(to fileURL: URL, permissions: mode_t) throws(FormDataError) {
        try checkStreamsUnread()
        var output = try FormDataFileOutput(creating: fileURL, permissions: permissions)
        do throws(FormDataError) {
            try write(into: &output)
            try output.finish()
        } catch {
            output.discard()
            throw error
        }
    }

    /// Throws if a stream part was read by an earlier encoding (before any output is created).
    private func checkStreamsUnread() throws(FormDataError) {
        for (index, part) in parts.enumerated() where part.isStream && consumedStreams.contains(index) {
            throw FormDataError(.streamConsumed, partIndex: index, partName: part.name)
        }
    }

    /// Writes the body: each part's head from the canonical encoder, its bytes, then the close delimiter.
    private func write(into output: inout some FormDataOutput) throws(FormDataError) {
        var encoder = MultipartEncoder(boundary: boundary)
        var head: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        for (index, part) in parts.enumerated() {
            head.removeAll(keepingCapacity: true)
            do {
                try encoder.writePartHead(part.head, into: &head)
            } catch {
                throw FormDataError(encoding: error, partIndex: index, partName: part.name)
            }
            try output.write(head)
            switch part.body {
            case .bytes(let bytes):
                try output.write(bytes)
            case .file(let url):
                let source = FormDataFileSource(url: url, partIndex: index, partName: part.name)
                try copy(source, of: part, index: index, through: buffer, into: &output)
            case .stream(let stream):
                consumedStreams.insert(index)
                try copy(stream, of: part, index: index, through: buffer, into: &output)
            }
        }
        head.removeAll(keepingCapacity: true)
        encoder.writeEnd(into: &head)
        try output.write(head)
        precondition(UInt64(output.count) == contentLength, "MultipartFormData: wrote \(output.count) bytes")
    }

    /// Copies exactly `part.length` bytes from `stream` through `buffer`, then checks that the stream ends.
    private func copy(
        _ stream: any FormDataStream, of part: FormDataBodyPart, index: Int,
        through buffer: UnsafeMutableRawBufferPointer, into output: inout some FormDataOutput
    ) throws(FormDataError) {
        func failure(_ code: FormDataError.Code, _ detail: String) -> FormDataError {
            FormDataError(code, partIndex: index, partName: part.name, url: part.fileURL, detail: detail)
        }
        func read(upTo count: Int) throws(FormDataError) -> Int {
            let target = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])
            let delivered: Int
            do {
                delivered = try stream.read(into: target)
            } catch let error as FormDataError {
                throw error
            } catch {
                throw failure(.readFailed, String(describing: error))
            }
            guard delivered >= 0, delivered <= count else {
                throw failure(.readFailed, "a read of \(count) bytes returned \(delivered)")
            }
            return delivered
        }
        do {
            try stream.open()
        } catch let error as FormDataError {
            throw error
        } catch {
            throw failure(.readFailed, String(describing: error))
        }
        defer { stream.close() }
        var remaining = part.length
        while remaining > 0 {
            let count = try read(upTo: Int(min(UInt64(buffer.count), remaining)))
            guard count > 0 else {
                throw failure(.bodyTooShort, "declared \(part.length) bytes, delivered \(part.length - remaining)")
            }
            try output.write(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            remaining -= UInt64(count)
        }
        guard try read(upTo: 1) == 0 else {
            throw failure(.bodyTooLong, "declared \(part.length) bytes, delivered more")
        }
    }
}
