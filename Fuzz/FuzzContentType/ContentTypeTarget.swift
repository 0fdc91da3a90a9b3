import FuzzSupport
import Multipart

/// `MultipartContentType.parse` on arbitrary header values.
///
/// Invariants: it never crashes; a failure's offset lies within the value; a success has a valid
/// boundary that occurs verbatim in the value; `headerValue(for:)` of it re-parses (as bytes and as a
/// String) to the same boundary; and OWS around the value does not change the outcome (the HTTP layer
/// may or may not strip it).
enum ContentTypeTarget {
    static func run(_ input: UnsafeRawBufferPointer) {
        let parsed: MultipartContentType
        do {
            parsed = try MultipartContentType.parse(input)
        } catch {
            invariant(error.offset >= 0 && error.offset <= Int64(input.count),
                      "error \(error) offset outside the value of \(input.count) bytes")
            return
        }
        let boundary = parsed.boundary
        invariant(Boundary.isValid(boundary.bytes), "accepted invalid boundary \(boundary.bytes)")
        invariant(ByteSearch.firstRange(of: boundary.bytes, in: input) != nil,
                  "boundary \(boundary) does not occur in the value")

        let canonical = MultipartContentType.headerValue(for: boundary)
        do {
            let again = try MultipartContentType.parse(canonical)
            invariant(again.boundary == boundary, "headerValue \(canonical) re-parses to \(again.boundary)")
            let bytes = Array(canonical.utf8)
            let fromBytes = try bytes.withUnsafeBytes { try MultipartContentType.parse($0) }
            invariant(fromBytes == again, "String and byte parse of \(canonical) differ")
        } catch {
            invariant(false, "headerValue \(canonical.debugDescription) does not re-parse: \(error)")
        }

        let padded = [UInt8(ascii: " "), 9] + Array(input) + [9, UInt8(ascii: " ")]
        do {
            let again = try padded.withUnsafeBytes { try MultipartContentType.parse($0) }
            invariant(again == parsed, "OWS around the value changed the boundary to \(again.boundary)")
        } catch {
            invariant(false, "OWS around an accepted value made it fail: \(error)")
        }
    }
}
