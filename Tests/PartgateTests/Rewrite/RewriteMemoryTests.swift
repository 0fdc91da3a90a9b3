import Foundation
import Testing

/// `partgate rewrite` streams: a 256 MiB upload goes through both passes with a flat, small peak RSS.
@Suite("partgate rewrite: memory")
struct RewriteMemoryTests {
    @Test func aLargeUploadIsRewrittenInBoundedMemory() throws {
        let size = 256 << 20
        let boundary = "big-b0undary"
        let head = Array(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"f\"; filename=\"big.bin\"\r\n\r\n".utf8)
        let tail = Array("\r\n--\(boundary)--\r\n".utf8)
        let requestHead = Array(
            ("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=\(boundary)\r\n"
                + "Content-Length: \(head.count + size + tail.count)\r\n\r\n").utf8)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("partgate-big-\(UUID().uuidString)")
        try #require(FileManager.default.createFile(atPath: file.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: file) }
        let handle = try FileHandle(forWritingTo: file)
        try handle.write(contentsOf: Data(requestHead + head))
        let megabyte = Data(repeating: 0x61, count: 1 << 20)
        for _ in 0..<(size >> 20) { try handle.write(contentsOf: megabyte) }
        try handle.write(contentsOf: Data(tail))
        try handle.close()

        let process = Process()
        process.executableURL = PartgateBinary.url
        process.arguments = [
            "rewrite", "--config", RawRequest.conf("gateway.yaml"), "--request", file.path,
            "--framing", "content-length", "--boundary", "out",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let counter = OutputCounter()
        let reader = Thread { counter.drain(output.fileHandleForReading) }
        reader.start()
        var peak = 0
        while process.isRunning {
            peak = max(peak, PartgateBinary.peakMemoryKiB(process.processIdentifier) ?? 0)
            Thread.sleep(forTimeInterval: 0.01)
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let expectedBody =
            "--out\r\nContent-Disposition: form-data; name=\"f\"; filename=\"big.bin\"\r\n\r\n".utf8.count
            + size + "\r\n--out--\r\n".utf8.count
        let upstreamHead =
            "POST /upload HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 127.0.0.1\r\nX-Forwarded-Proto: http\r\n"
            + "Forwarded: for=127.0.0.1;proto=http\r\nVia: 1.1 partgate\r\nContent-Type: multipart/form-data; boundary=out\r\nContent-Length: \(expectedBody)\r\n\r\n"
        #expect(counter.wait() == Int64(upstreamHead.utf8.count + expectedBody))
        #expect(peak > 0 && peak < 48 * 1024, "peak RSS \(peak) KiB for a \(size >> 20) MiB body")
    }
}

/// Counts what a pipe delivers, on the reading thread.
final class OutputCounter: @unchecked Sendable {
    // @unchecked Sendable: `total` and `done` are only touched while holding `condition`.
    private let condition = NSCondition()
    private var total: Int64 = 0
    private var done = false

    func drain(_ handle: FileHandle) {
        while true {
            let data = handle.availableData
            condition.lock()
            total += Int64(data.count)
            if data.isEmpty {
                done = true
                condition.broadcast()
            }
            condition.unlock()
            if data.isEmpty { return }
        }
    }

    /// The byte count once the pipe closed.
    func wait() -> Int64 {
        condition.lock()
        defer { condition.unlock() }
        while !done { condition.wait() }
        return total
    }
}
