import Foundation

/// Builds a `multipart/form-data` body for Swift callers, in the manner of Alamofire's `MultipartFormData`,
/// on top of partgate's canonical encoder: every delimiter and part head comes from ``MultipartEncoder``,
/// so a form built here reads the same way in every backend (DESIGN.md, "Canonical output").
///
/// ```swift
/// let form = MultipartFormData()
/// try form.append(Array("Ada".utf8), withName: "author")
/// try form.append(URL(fileURLWithPath: "/tmp/report.pdf"), withName: "report")
/// request.setValue(form.contentType, forHTTPHeaderField: "Content-Type")
/// switch try form.encode(temporaryDirectory: spoolDirectory) {
/// case .memory(let bytes): upload(bytes, contentLength: form.contentLength)
/// case .file(let url): upload(contentsOf: url, contentLength: form.contentLength) // then remove the file
/// }
/// ```
///
/// Decisions:
/// - **Checked at append, thrown at append.** Alamofire records the first bad part and throws it from
///   `encode`; here each `append` throws ``FormDataError`` at once and leaves the form unchanged. The caller
///   learns which call failed, and an existing form is always encodable as far as names, types and lengths
///   go, so ``contentLength`` is exact without reading any body. What can only be seen while reading (a file
///   removed, shrunk or grown since it was appended; a stream of the wrong length; a read error) throws
///   from the encoding methods.
/// - **Exact lengths.** Every part has a known length; a body that delivers fewer or more bytes fails the
///   encoding (`FormDataError.Code.bodyTooShort`, `FormDataError.Code.bodyTooLong`)
///   instead of producing a body that contradicts its `Content-Length`.
/// - **Bounded memory.** Files and streams are read in chunks of at most ``bufferSize`` bytes; writing to a
///   file never holds the body. Only ``encode()`` holds it, by request.
/// - **Names.** Names and filenames the canonical encoder cannot spell safely (`"`, `\`, CR, LF, control
///   characters, `%22`, `%0D`, `%0A`) are refused; MIME types are put in canonical form, and `multipart/*`
///   is refused (RFC 7578 §4.3 deprecates nesting; partgate rejects it by default).
///
/// A class, not a struct: a stream part is consumed when it is encoded (encoding it again throws
/// `FormDataError.Code.streamConsumed`). Not `Sendable`: use a form from one task at a time.
public final class MultipartFormData {
    /// Below this many encoded bytes, ``encode(memoryThreshold:temporaryDirectory:)`` encodes in memory
    /// (Alamofire's default, 10 MB).
    public static let encodingMemoryThreshold: UInt64 = 10_000_000

    /// The default size of the buffer that file and stream parts are read through: 64 KiB.
    public static let defaultBufferSize = 64 * 1024

    /// The boundary every encoding of this form uses.
    public let boundary: Boundary

    /// The largest read request made to a file or stream part; the bound on the encoder's own buffer.
    public let bufferSize: Int

    /// The parts, in order.
    public private(set) var parts: [FormDataBodyPart] = []

    /// An upper bound on the encoded length (the sum of each part's encoding alone), so that appending
    /// refuses a form whose ``contentLength`` would not fit in 63 bits, before computing it could overflow.
    private var lengthBound: Int64 = 0

    /// Indices of stream parts that an encoding has started to read.
    var consumedStreams: Set<Int> = []

    /// Creates an empty form.
    /// - Parameters:
    ///   - boundary: the boundary; a fresh one from the system CSPRNG by default. Pass a fixed one only for
    ///     reproducible tests.
    ///   - bufferSize: the read buffer for file and stream parts, in bytes (values below 1 count as 1).
    public init(boundary: Boundary = .random(), bufferSize: Int = MultipartFormData.defaultBufferSize) {
        self.boundary = boundary
        self.bufferSize = max(1, bufferSize)
    }

    /// The request `Content-Type` value: `multipart/form-data; boundary=…`, as the encoder spells it.
    public var contentType: String { MultipartEncoder(boundary: boundary).contentType }

    /// The exact length of the encoded body: delimiters and part heads counted by the encoder, plus each
    /// part's declared length. No body is read.
    public var contentLength: UInt64 {
        let encoder = MultipartEncoder(boundary: boundary)
        do {
            return UInt64(try encoder.encodedLength(of: parts.map { ($0.head, Int64($0.length)) }))
        } catch {
            preconditionFailure("MultipartFormData: every part head passed the encoder when appended: \(error)")
        }
    }

    /// Appends a part whose body is `data`.
    /// - Parameters:
    ///   - data: the body.
    ///   - name: the field name.
    ///   - fileName: the filename, if the part is a file.
    ///   - mimeType: the Content-Type, if any; written in canonical form.
    /// - Throws: ``FormDataError``: `empty_name`, `unsafe_name`, `unsafe_filename`, `invalid_mime_type`, `too_large`.
    public func append(
        _ data: [UInt8], withName name: String, fileName: String? = nil, mimeType: String? = nil
    ) throws(FormDataError) {
        let head = try validatedHead(name: name, fileName: fileName, mimeType: mimeType)
        try commit(head, length: UInt64(data.count), body: .bytes(data))
    }

    /// Appends a part whose body is `data`.
    /// - Parameters:
    ///   - data: the body.
    ///   - name: the field name.
    ///   - fileName: the filename, if the part is a file.
    ///   - mimeType: the Content-Type, if any; written in canonical form.
    /// - Throws: ``FormDataError``: `empty_name`, `unsafe_name`, `unsafe_filename`, `invalid_mime_type`, `too_large`.
    public func append(
        _ data: Data, withName name: String, fileName: String? = nil, mimeType: String? = nil
    ) throws(FormDataError) {
        try append([UInt8](data), withName: name, fileName: fileName, mimeType: mimeType)
    }

    /// Appends a file part named after the file: the filename is the URL's last path component, the MIME
    /// type comes from its extension (``FormDataMIMEType``; `application/octet-stream` when unknown or absent).
    /// - Parameters:
    ///   - fileURL: a `file:` URL of a regular, readable file.
    ///   - name: the field name.
    /// - Throws: ``FormDataError``: the checks of `append(_:withName:fileName:mimeType:)` for file URLs.
    public func append(_ fileURL: URL, withName name: String) throws(FormDataError) {
        guard fileURL.isFileURL else {
            throw FormDataError(.notFileURL, partIndex: parts.count, partName: name, url: fileURL)
        }
        try append(
            fileURL, withName: name, fileName: fileURL.lastPathComponent,
            mimeType: FormDataMIMEType.forPathExtension(fileURL.pathExtension))
    }

    /// Appends a file part. The file is checked now, and opened again and read in bounded chunks when the
    /// form is encoded; its size now is the part's length.
    /// - Parameters:
    ///   - fileURL: a `file:` URL of a regular, readable file.
    ///   - name: the field name.
    ///   - fileName: the filename to send.
    ///   - mimeType: the Content-Type; written in canonical form.
    /// - Throws: ``FormDataError``: `not_file_url`, the name and type codes, `file_unreachable`,
    ///   `file_is_directory`, `file_size_unavailable`, `file_unreadable`, `too_large`.
    public func append(
        _ fileURL: URL, withName name: String, fileName: String, mimeType: String
    ) throws(FormDataError) {
        guard fileURL.isFileURL else {
            throw FormDataError(.notFileURL, partIndex: parts.count, partName: name, url: fileURL)
        }
        let head = try validatedHead(name: name, fileName: fileName, mimeType: mimeType)
        let url = fileURL.absoluteURL
        let size = try FormDataFile.checkedSize(of: url, partIndex: parts.count, partName: name)
        try commit(head, length: size, body: .file(url))
    }

    /// Appends a part read from `stream` when the form is encoded. The stream must deliver exactly `length`
    /// bytes, and can be encoded once.
    /// - Parameters:
    ///   - stream: the byte source.
    ///   - length: the exact number of bytes it will deliver.
    ///   - name: the field name.
    ///   - fileName: the filename, if the part is a file.
    ///   - mimeType: the Content-Type, if any; written in canonical form.
    /// - Throws: ``FormDataError``: `empty_name`, `unsafe_name`, `unsafe_filename`, `invalid_mime_type`, `too_large`.
    public func append(
        _ stream: any FormDataStream, withLength length: UInt64, name: String, fileName: String? = nil,
        mimeType: String? = nil
    ) throws(FormDataError) {
        let head = try validatedHead(name: name, fileName: fileName, mimeType: mimeType)
        try commit(head, length: length, body: .stream(stream))
    }

    /// Appends a part read from a Foundation `InputStream` (through ``FormDataInputStream``) when the form
    /// is encoded. The stream must deliver exactly `length` bytes, and can be encoded once.
    /// - Parameters:
    ///   - stream: an unopened input stream.
    ///   - length: the exact number of bytes it will deliver.
    ///   - name: the field name.
    ///   - fileName: the filename, if the part is a file.
    ///   - mimeType: the Content-Type, if any; written in canonical form.
    /// - Throws: ``FormDataError``: `empty_name`, `unsafe_name`, `unsafe_filename`, `invalid_mime_type`, `too_large`.
    public func append(
        _ stream: InputStream, withLength length: UInt64, name: String, fileName: String? = nil,
        mimeType: String? = nil
    ) throws(FormDataError) {
        try append(
            FormDataInputStream(stream), withLength: length, name: name, fileName: fileName,
            mimeType: mimeType)
    }

    /// The head of the next part, checked by the canonical encoder, with the length of a body that holds
    /// only this part and no data.
    private func validatedHead(
        name: String, fileName: String?, mimeType: String?
    ) throws(FormDataError) -> (head: PartHead, encodedLength: Int64) {
        let index = parts.count
        var contentType: String?
        if let mimeType {
            contentType = try Self.canonicalMimeType(mimeType, partIndex: index, partName: name)
        }
        let head = PartHead(index: index, name: name, filename: fileName, contentType: contentType)
        do {
            return (head, try MultipartEncoder(boundary: boundary).encodedLength(of: [(head, 0)]))
        } catch {
            throw FormDataError(encoding: error, partIndex: index, partName: name)
        }
    }

    /// Adds a checked part, unless the form's length would no longer fit in 63 bits.
    private func commit(
        _ checked: (head: PartHead, encodedLength: Int64), length: UInt64, body: FormDataBodyPart.Body
    ) throws(FormDataError) {
        let head = checked.head
        let tooLarge = FormDataError(
            .tooLarge, partIndex: head.index, partName: head.name,
            detail: "a part of \(length) bytes")
        guard let dataLength = Int64(exactly: length) else { throw tooLarge }
        let (alone, overflow) = checked.encodedLength.addingReportingOverflow(dataLength)
        let (bound, overflowTotal) = lengthBound.addingReportingOverflow(alone)
        guard !overflow, !overflowTotal else { throw tooLarge }
        lengthBound = bound
        parts.append(FormDataBodyPart(head: head, length: length, body: body))
    }

    /// `mimeType` in the canonical form the parser produces, or a typed error.
    private static func canonicalMimeType(
        _ mimeType: String, partIndex: Int, partName: String
    ) throws(FormDataError) -> String {
        let canonical: PartContentType.Canonical
        do {
            canonical = try withRawBytes(Array(mimeType.utf8)) { (raw) throws(ParameterScanner.Failure) in
                try PartContentType.canonical(raw)
            }
        } catch {
            throw FormDataError(
                .invalidMimeType, partIndex: partIndex, partName: partName,
                detail: "\(mimeType.debugDescription): \(error.flag.rawValue)")
        }
        guard !canonical.isMultipart else {
            throw FormDataError(
                .invalidMimeType, partIndex: partIndex, partName: partName,
                detail: "\(mimeType.debugDescription): \(StrictFlag.nestedMultipart.rawValue)")
        }
        return canonical.value
    }
}

@available(*, unavailable, message: "a form holds non-Sendable streams; use it from one task at a time")
extension MultipartFormData: Sendable {}
