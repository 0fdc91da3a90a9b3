import Multipart

/// Counts what partgate's parser emits; the bytes are only counted, never copied.
struct CountingHandler: MultipartHandler {
    var parts = 0
    var bodyBytes = 0
    var ended = false
    mutating func partHead(_ head: PartHead) { parts += 1 }
    mutating func partBody(_ bytes: UnsafeRawBufferPointer, offset: Int64) { bodyBytes += bytes.count }
    mutating func partEnd() {}
    mutating func end() { ended = true }
    mutating func violation(_ violation: MultipartViolation) {}
}

enum PartgateRunner {
    /// Parses `body` in `chunk`-byte spans; returns (parts, body bytes).
    static func run(_ body: [UInt8], chunk: Int) -> (parts: Int, bodyBytes: Int) {
        let limits = MultipartLimits(parts: 1_000_000, fieldBytes: Int64.max)
        var parser = Multipart.MultipartParser(boundary: Boundary(BenchBodies.boundary)!, limits: limits)
        var handler = CountingHandler()
        body.withUnsafeBytes { whole in
            var offset = 0
            do {
                while offset < whole.count {
                    let end = min(whole.count, offset + chunk)
                    try parser.parse(UnsafeRawBufferPointer(rebasing: whole[offset..<end]), into: &handler)
                    offset = end
                }
                try parser.finish(into: &handler)
            } catch {
                fatalError("partgate parser rejected the benchmark body: \(error)")
            }
        }
        precondition(handler.ended)
        return (handler.parts, handler.bodyBytes)
    }
}
