import Foundation

/// Why a ``MultipartFormData`` refused a part, or could not encode or write its body.
///
/// One ``Code`` with a stable name, plus the context that locates it: the part (index and name), the file
/// URL concerned, a short detail (an `errno` text, the declared and delivered lengths), and for names and
/// types the canonical encoder refused, the ``MultipartEncodingError`` it threw.
public struct FormDataError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, with a stable `snake_case` name for logs and tests.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable name.
        public let name: String

        private init(_ name: String) {
            self.name = name
        }

        /// The part name is empty.
        public static let emptyName = Code("empty_name")
        /// The part name holds `"`, `\`, CR, LF, a control character or a literal `%22` / `%0D` / `%0A`.
        public static let unsafeName = Code("unsafe_name")
        /// The filename holds one of the characters that have no safe spelling.
        public static let unsafeFilename = Code("unsafe_filename")
        /// The MIME type is not `type/subtype *(; name=value)`, holds a control character, or is `multipart/*`.
        public static let invalidMimeType = Code("invalid_mime_type")
        /// The URL given for a part's file is not a `file:` URL.
        public static let notFileURL = Code("not_file_url")
        /// The file does not exist or cannot be reached (`stat` failed, or `open` found it missing at encode time).
        public static let fileUnreachable = Code("file_unreachable")
        /// The URL names a directory.
        public static let fileIsDirectory = Code("file_is_directory")
        /// The file's size cannot be read: it is not a regular file (a FIFO, socket or device).
        public static let fileSizeUnavailable = Code("file_size_unavailable")
        /// The file cannot be opened for reading.
        public static let fileUnreadable = Code("file_unreadable")
        /// A part's body ended before its declared length (a stream, or a file that shrank after it was appended).
        public static let bodyTooShort = Code("body_too_short")
        /// A part's body has more bytes than its declared length.
        public static let bodyTooLong = Code("body_too_long")
        /// Reading a part's body failed.
        public static let readFailed = Code("read_failed")
        /// A stream part was already read by an earlier encoding; streams are read once.
        public static let streamConsumed = Code("stream_consumed")
        /// The form's encoded length does not fit in 63 bits, or an in-memory encoding in this address space.
        public static let tooLarge = Code("too_large")
        /// The output URL is not a `file:` URL.
        public static let outputNotFileURL = Code("output_not_file_url")
        /// A file already exists at the output URL; it is never overwritten.
        public static let outputFileExists = Code("output_file_exists")
        /// The output file could not be created.
        public static let outputCreationFailed = Code("output_creation_failed")
        /// Writing or closing the output file failed (the partial file was removed).
        public static let writeFailed = Code("write_failed")
        /// An encoded body's file could not be removed.
        public static let removeFailed = Code("remove_failed")

        /// The stable name.
        public var description: String { name }
    }

    /// What went wrong.
    public var code: Code
    /// The zero-based index of the part concerned, if any (for a refused append: the index it would have had).
    public var partIndex: Int?
    /// The name of the part concerned, if any.
    public var partName: String?
    /// The file concerned: a part's file or the output file.
    public var url: URL?
    /// Further detail: the system error text, or the declared and delivered lengths.
    public var detail: String?
    /// The canonical encoder's error, for names, filenames and MIME types it refused.
    public var encodingError: MultipartEncodingError?

    /// - Parameters:
    ///   - code: what went wrong.
    ///   - partIndex: the part's index, if any.
    ///   - partName: the part's name, if any.
    ///   - url: the file concerned, if any.
    ///   - detail: further detail, if any.
    ///   - encodingError: the canonical encoder's error, if any.
    public init(
        _ code: Code, partIndex: Int? = nil, partName: String? = nil, url: URL? = nil, detail: String? = nil,
        encodingError: MultipartEncodingError? = nil
    ) {
        self.code = code
        self.partIndex = partIndex
        self.partName = partName
        self.url = url
        self.detail = detail
        self.encodingError = encodingError
    }

    /// The error for a part head the canonical encoder refused.
    /// - Parameters:
    ///   - error: the encoder's error.
    ///   - partIndex: the part's index.
    ///   - partName: the part's name.
    init(encoding error: MultipartEncodingError, partIndex: Int, partName: String) {
        let code: Code
        switch error.code {
        case .emptyName: code = .emptyName
        case .unsafeName: code = .unsafeName
        case .unsafeFilename: code = .unsafeFilename
        case .invalidHeaderName, .invalidHeaderValue: code = .invalidMimeType
        }
        self.init(code, partIndex: partIndex, partName: partName, encodingError: error)
    }

    /// `code: part 1 "avatar", file:///path: detail`.
    public var description: String {
        var context: [String] = []
        if let partIndex {
            context.append("part \(partIndex)" + (partName.map { " \($0.debugDescription)" } ?? ""))
        } else if let partName {
            context.append("part \(partName.debugDescription)")
        }
        if let url { context.append(url.isFileURL ? url.path : url.absoluteString) }
        if let encodingError { context.append(encodingError.description) }
        if let detail { context.append(detail) }
        return context.isEmpty ? code.name : code.name + ": " + context.joined(separator: ", ")
    }
}
