import Foundation
import Multipart

/// One part a corpus (or a decision's `expect_parts`) says a parser must produce.
struct ExpectedPart: Sendable, Decodable {
    /// How the part's Content-Type is checked.
    enum ContentTypeCheck: Sendable {
        case unchecked
        /// partgate's canonical value must equal this.
        case exact(String)
        /// partgate's `type/subtype` (lowercased, parameters dropped; `text/plain` when absent, as busboy
        /// reports it) must equal this.
        case mediaType(String)
    }

    /// How the part's data is checked.
    enum DataCheck: Sendable {
        case unchecked
        case bytes([UInt8])
        case sha256(String, size: Int)
        case sha1(String)
    }

    var name: String
    /// A file part (it had a `filename` parameter, possibly empty) rather than a field.
    var isFile: Bool
    /// The filename, compared when non-nil.
    var filename: String?
    var contentType: ContentTypeCheck
    var data: DataCheck

    init(
        name: String, isFile: Bool, filename: String? = nil, contentType: ContentTypeCheck = .unchecked,
        data: DataCheck = .unchecked
    ) {
        self.name = name
        self.isFile = isFile
        self.filename = filename
        self.contentType = contentType
        self.data = data
    }

    private enum CodingKeys: String, CodingKey {
        case name, filename
        case contentType = "content_type"
        case dataUTF8 = "data_utf8"
        case dataBase64 = "data_base64"
    }

    /// `{"name", "filename" (present: a file part), "content_type", "data_utf8" | "data_base64"}`.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        isFile = container.contains(.filename)
        filename = try container.decodeIfPresent(String.self, forKey: .filename)
        contentType = try container.decodeIfPresent(String.self, forKey: .contentType).map { .exact($0) } ?? .unchecked
        if let text = try container.decodeIfPresent(String.self, forKey: .dataUTF8) {
            data = .bytes(Array(text.utf8))
        } else if let base64 = try container.decodeIfPresent(String.self, forKey: .dataBase64) {
            guard let decoded = Data(base64Encoded: base64) else {
                throw ConformanceError("expect_parts '\(name)': bad base64")
            }
            data = .bytes([UInt8](decoded))
        } else {
            data = .unchecked
        }
    }

    /// Differences between this expectation and a part partgate produced (empty when they agree).
    /// - Parameter filenameOverride: the filename partgate reports instead of ``filename``, if the decision
    ///   records one.
    func mismatches(_ head: PartHead, _ bytes: [UInt8], filenameOverride: String? = nil) -> [String] {
        var found: [String] = []
        let label = "part \(head.index) '\(head.name)'"
        if head.name != name { found.append("\(label): name, expected '\(name)'") }
        if head.hasFilename != isFile {
            found.append(
                "\(label): \(isFile ? "expected a file part" : "expected a field, got filename '\(head.filename!)'")")
        }
        if isFile, let expected = filenameOverride ?? filename, head.filename != expected {
            found.append("\(label): filename '\(head.filename ?? "nil")', expected '\(expected)'")
        }
        switch contentType {
        case .unchecked:
            break
        case .exact(let expected):
            if head.contentType != expected {
                found.append("\(label): content type '\(head.contentType ?? "nil")', expected '\(expected)'")
            }
        case .mediaType(let expected):
            let media = head.contentType.map { String($0.prefix { $0 != ";" }) } ?? "text/plain"
            if media != expected { found.append("\(label): media type '\(media)', expected '\(expected)'") }
        }
        switch data {
        case .unchecked:
            break
        case .bytes(let expected):
            if bytes != expected {
                found.append("\(label): \(bytes.count) data bytes differ from the \(expected.count) expected")
            }
        case .sha256(let digest, let size):
            let actual = SHA256.hex(bytes)
            if actual != digest || bytes.count != size {
                found.append("\(label): data sha256 \(actual) size \(bytes.count), expected \(digest) size \(size)")
            }
        case .sha1(let digest):
            let actual = SHA1.hex(bytes)
            if actual != digest { found.append("\(label): data sha1 \(actual), expected \(digest)") }
        }
        return found
    }
}
