import Foundation

/// One part of a ``MultipartFormData``: its validated head, its exact length, and where its bytes come from.
///
/// The head is checked when the part is appended (the canonical encoder accepts its name and filename, and
/// the MIME type is in canonical form), so the form's length is known without reading any body.
public struct FormDataBodyPart {
    /// Where a part's bytes come from.
    enum Body {
        /// Bytes held in memory.
        case bytes([UInt8])
        /// A regular file, opened and read in bounded chunks when the form is encoded.
        case file(URL)
        /// A caller's stream, read once when the form is encoded.
        case stream(any FormDataStream)
    }

    /// The part's head as the encoder writes it: name, filename and canonical Content-Type.
    public let head: PartHead
    /// The exact number of body bytes the part contributes.
    public let length: UInt64
    /// Where the bytes come from.
    let body: Body

    /// The field name.
    public var name: String { head.name }
    /// The filename, if the part has one.
    public var fileName: String? { head.filename }
    /// The canonical MIME type, if the part has one.
    public var mimeType: String? { head.contentType }
    /// The file the part reads, if it is a file part.
    public var fileURL: URL? {
        if case .file(let url) = body { return url }
        return nil
    }
    /// True if the part reads a caller's stream (which can be encoded only once).
    public var isStream: Bool {
        if case .stream = body { return true }
        return false
    }
}
