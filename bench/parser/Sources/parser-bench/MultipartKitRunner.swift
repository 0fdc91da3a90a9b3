import MultipartKit
import NIOCore

/// Drives vapor/multipart-kit 4.7.1's callback parser over zero-copy ByteBuffer slices.
enum MultipartKitRunner {
    static func run(_ whole: ByteBuffer, chunk: Int) -> (parts: Int, bodyBytes: Int) {
        let parser = MultipartKit.MultipartParser(boundary: BenchBodies.boundary)
        nonisolated(unsafe) var parts = 0
        nonisolated(unsafe) var bodyBytes = 0
        parser.onHeader = { _, _ in }
        parser.onBody = { buffer in bodyBytes += buffer.readableBytes }
        parser.onPartComplete = { parts += 1 }
        var offset = 0
        let total = whole.readableBytes
        do {
            while offset < total {
                let length = min(chunk, total - offset)
                try parser.execute(whole.getSlice(at: offset, length: length)!)
                offset += length
            }
        } catch {
            fatalError("multipart-kit rejected the benchmark body: \(error)")
        }
        return (parts, bodyBytes)
    }
}
