import Foundation
import Multipart
import Testing

/// Parses an encoded form with ``MultipartParser`` in 64 KiB pieces (from memory or from a file) and
/// records each part: its head, its byte count, its bytes up to a cap, and whether its bytes follow
/// ``FormDataPattern``. Unlike ``RecordingHandler`` it never copies a large body, so it checks big bodies.
struct FormDataParsedBody: MultipartHandler {
    struct Part {
        var head: PartHead
        var count: Int64 = 0
        /// The first bytes (all of them when `count` ≤ the cap).
        var bytes: [UInt8] = []
        var matchesPattern = true
    }

    static let keep = 1 << 20
    /// Parser limits that let any part size through: the form is checked, not the gateway's limits.
    static let limits = MultipartLimits(fieldBytes: .max)

    var parts: [Part] = []
    var ended = false
    var violations: [MultipartViolation] = []
    var error: MultipartError?
    var totalBytes: Int64 = 0

    mutating func partHead(_ head: PartHead) { parts.append(Part(head: head)) }

    mutating func partBody(_ bytes: UnsafeRawBufferPointer, offset: Int64) {
        let index = parts.count - 1
        if parts[index].matchesPattern, !FormDataPattern.matches(bytes, at: parts[index].count) {
            parts[index].matchesPattern = false
        }
        let room = Self.keep - parts[index].bytes.count
        if room > 0 { parts[index].bytes += bytes.prefix(room) }
        parts[index].count += Int64(bytes.count)
    }

    mutating func partEnd() {}
    mutating func end() { ended = true }
    mutating func violation(_ violation: MultipartViolation) { violations.append(violation) }

    /// True if the body ended well-formed with no normalised violation.
    var isClean: Bool { ended && error == nil && violations.isEmpty }

    /// Parses `body`.
    static func parse(_ body: [UInt8], boundary: Boundary) -> FormDataParsedBody {
        var result = FormDataParsedBody()
        var parser = MultipartParser(boundary: boundary, limits: limits)
        do {
            var start = 0
            while start < body.count {
                let end = min(body.count, start + 65536)
                try body[start..<end].withUnsafeBytes { try parser.parse($0, into: &result) }
                start = end
            }
            try parser.finish(into: &result)
        } catch {
            result.error = error as? MultipartError
            if result.error == nil { Issue.record("unexpected \(error)") }
        }
        result.totalBytes = Int64(body.count)
        return result
    }

    /// Parses the file at `url`, read in 64 KiB pieces.
    static func parse(fileAt url: URL, boundary: Boundary) throws -> FormDataParsedBody {
        var result = FormDataParsedBody()
        var parser = MultipartParser(boundary: boundary, limits: limits)
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        do {
            while let chunk = try handle.read(upToCount: 65536), !chunk.isEmpty {
                result.totalBytes += Int64(chunk.count)
                try chunk.withUnsafeBytes { try parser.parse($0, into: &result) }
            }
            try parser.finish(into: &result)
        } catch let error as MultipartError {
            result.error = error
        }
        return result
    }
}
