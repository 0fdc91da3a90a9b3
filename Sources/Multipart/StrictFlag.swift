/// A named strictness check of the multipart reader.
///
/// Each flag names one way a body can be read differently by different parsers (in the spirit of
/// ModSecurity's `MULTIPART_STRICT_ERROR` sub-flags). The raw value is the stable name used in
/// configuration files, problem responses, logs and metrics.
public enum StrictFlag: String, CaseIterable, Sendable, Hashable, Codable {
    // Request Content-Type (always reject: no reading of them is unambiguous).
    /// The media type is not `multipart/form-data`.
    case notMultipartFormData = "not_multipart_form_data"
    /// The Content-Type header does not follow `type/subtype *(OWS ";" OWS name=value)`.
    case contentTypeSyntax = "content_type_syntax"
    /// No `boundary` parameter.
    case boundaryMissing = "boundary_missing"
    /// The boundary is empty, longer than 70 characters, ends in a space or has a non-RFC 2046 character.
    case boundaryInvalid = "boundary_invalid"
    /// A parameter appears twice (`boundary=a; boundary=b`, `name="a"; name="b"`).
    case duplicateParameter = "duplicate_parameter"
    /// An RFC 2231 `*` or `*0` parameter (`boundary*0=…`, `name*=…`, `filename*0=…`).
    case parameterContinuation = "parameter_continuation"
    /// Whitespace around `=`, a missing `;`, an empty value, or a non-token parameter name.
    case invalidParameter = "invalid_parameter"
    /// An unterminated quoted-string, a quoted-pair (`\x`), or bytes after the closing quote.
    case invalidQuoting = "invalid_quoting"

    // Body structure.
    /// Bytes before the first delimiter.
    case preamble
    /// Bytes after the close delimiter.
    case epilogue
    /// Whitespace between a delimiter and its line break (RFC 2046 transport padding).
    case transportPadding = "transport_padding"
    /// Lines ended by a bare LF instead of CRLF.
    case lfLine = "lf_line"
    /// CRLF and bare-LF line endings in one body.
    case mixedLineEndings = "mixed_line_endings"
    /// A delimiter followed by something other than transport padding and a line break, or `--`.
    case delimiterGarbage = "delimiter_garbage"
    /// The body ended without a close delimiter.
    case missingFinalBoundary = "missing_final_boundary"

    // Part headers.
    /// A part header line that begins with whitespace (obs-fold).
    case headerFolding = "header_folding"
    /// A control character (NUL, bare CR, …) in a part header.
    case headerCTL = "header_ctl"
    /// A part header line that is not `name: value` (no colon, whitespace before it, empty or invalid name).
    case invalidHeader = "invalid_header"
    /// A part without a Content-Disposition header.
    case missingContentDisposition = "missing_content_disposition"
    /// A Content-Disposition whose type is not `form-data`.
    case dispositionNotFormData = "disposition_not_form_data"
    /// Two Content-Disposition headers in one part.
    case duplicateContentDisposition = "duplicate_content_disposition"
    /// Two Content-Type headers in one part.
    case duplicateContentType = "duplicate_content_type"
    /// A part Content-Type that is not `type/subtype *(; param=value)`.
    case partContentTypeSyntax = "part_content_type_syntax"
    /// No `name` parameter, or an empty one.
    case missingName = "missing_name"
    /// Both `filename` and `filename*`.
    case filenameConflict = "filename_conflict"
    /// A lone RFC 5987 `filename*` (RFC 7578 forbids it); normalised by decoding it into `filename`.
    case filenameExtended = "filename_extended"
    /// A field name containing `"`, `\`, CR, LF or a literal `%22`, `%0D`, `%0A`: no spelling reads alike.
    case unsafeName = "unsafe_name"
    /// A filename with the same characters; normalised by replacing them with `_`.
    case unsafeFilename = "unsafe_filename"
    /// A part with an empty `filename` (`filename=""`) and content. Browsers send `filename=""` only for a file
    /// input left empty, with no content; with content, parsers disagree: Go reads the part as a field, PHP,
    /// Django and Rack drop it, Werkzeug, python-multipart and busboy read a file. Normalised by naming the
    /// file ``StrictFlag/emptyFilenameReplacement``, so every parser reads the file the policy judged.
    case emptyFilename = "empty_filename"
    /// A name or filename that is not valid UTF-8; normalised by replacing bad sequences with U+FFFD.
    case invalidUTF8 = "invalid_utf8"
    /// A Content-Transfer-Encoding header (RFC 7578 §4.7). Identity values (7bit, 8bit, binary) have one
    /// reading and are dropped by default (normalize); base64 and quoted-printable are always refused.
    case contentTransferEncoding = "content_transfer_encoding"
    /// A part whose Content-Type is `multipart/*` (RFC 7578 §4.3 deprecates nesting).
    case nestedMultipart = "nested_multipart"

    /// The actions an operator may choose for this flag; `reject` is always allowed.
    public var permittedActions: Set<StrictAction> {
        switch self {
        case .preamble, .epilogue, .transportPadding, .emptyFilename:
            return [.reject, .normalize, .allow]
        case .lfLine, .headerFolding, .filenameExtended, .unsafeFilename, .invalidUTF8,
            .contentTransferEncoding, .missingFinalBoundary:
            return [.reject, .normalize]
        case .nestedMultipart:
            return [.reject, .allow]
        default:
            return [.reject]
        }
    }

    /// The filename `empty_filename` gives a part under `normalize`.
    public static let emptyFilenameReplacement = "unnamed"

    /// The action partgate takes when the configuration does not name one.
    public var defaultAction: StrictAction {
        switch self {
        case .preamble, .epilogue, .filenameExtended, .contentTransferEncoding, .emptyFilename: return .normalize
        case .transportPadding: return .allow
        default: return .reject
        }
    }
}

/// What to do when a ``StrictFlag`` fires.
public enum StrictAction: String, CaseIterable, Sendable, Hashable, Codable {
    /// Refuse the request (400, naming the flag).
    case reject
    /// Accept it, write the canonical form, and record the violation.
    case normalize
    /// Accept it without recording anything.
    case allow
}
