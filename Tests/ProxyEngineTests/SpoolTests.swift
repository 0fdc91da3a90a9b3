import CEventTLS
import Foundation
import Testing

@testable import ProxyEngine

/// The spool on its own: memory up to its limit, then an unlinked file; bounded memory while it grows; the
/// bytes read back in slices exactly as written.
@Suite("Spool")
struct SpoolTests {
    static let staging = 256 * 1024

    /// Writes `bytes` in pieces of `piece`; returns the most memory the spool held between writes.
    static func fill(_ spool: Spool, _ bytes: [UInt8], piece: Int) -> Int {
        var most = 0
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let end = min(raw.count, offset + piece)
                spool.write(UnsafeRawBufferPointer(rebasing: raw[offset..<end]))
                most = max(most, spool.memoryBytes)
                offset = end
            }
        }
        return most
    }

    /// Sends the finished spool through an evbuffer standing in for a TLS upstream's output, draining it
    /// between calls as a socket would; returns the bytes and the most the output held.
    static func drain(_ spool: Spool, highWater: Int, slice: Int) throws -> (bytes: [UInt8], most: Int, calls: Int) {
        let output = evbuffer_new()!
        defer { evbuffer_free(output) }
        var bytes: [UInt8] = []
        var most = 0
        var calls = 0
        while true {
            calls += 1
            let done = try spool.send(to: output, sendfile: false, highWater: highWater, slice: slice)
            let length = EvBuffer.length(output)
            most = max(most, length)
            var chunk = [UInt8](repeating: 0, count: length)
            _ = chunk.withUnsafeMutableBytes { evbuffer_remove(output, $0.baseAddress, length) }
            bytes += chunk
            if done { return (bytes, most, calls) }
        }
    }

    @Test func smallBodyStaysInMemory() throws {
        let directory = try SpoolDirectory()
        let spool = Spool(memoryLimit: 64 * 1024, stagingBytes: Self.staging, directory: directory.path)
        let body = SpoolRequests.bytes(64 * 1024, seed: 3)
        _ = Self.fill(spool, body, piece: 1000)
        try spool.finish()
        #expect(!spool.isSpilled && spool.length == Int64(body.count))
        #expect(directory.openDeletedFiles.isEmpty)
        let sent = try Self.drain(spool, highWater: 1024, slice: 512)
        #expect(sent.bytes == body && sent.calls == 1)
    }

    @Test func largeBodyMovesToAnUnlinkedFile() throws {
        let directory = try SpoolDirectory()
        let spool = Spool(memoryLimit: 64 * 1024, stagingBytes: Self.staging, directory: directory.path)
        let body = SpoolRequests.bytes(3 << 20, seed: 4)
        let most = Self.fill(spool, body, piece: 10_000)
        try spool.finish()
        #expect(spool.isSpilled && spool.length == Int64(body.count))
        // Never more than the staging size plus one write, although 3 MiB went through.
        #expect(most < Self.staging + 10_000)
        #expect(spool.memoryBytes == 0)
        #expect(directory.entries.isEmpty && directory.openDeletedFiles.count == 1)
        let sent = try Self.drain(spool, highWater: 256 * 1024, slice: 64 * 1024)
        #expect(sent.bytes == body)
        #expect(sent.most <= 256 * 1024 + 64 * 1024 && sent.calls > 10)
        spool.close()
        #expect(directory.isClean)
    }

    @Test func deinitDeletesTheFile() throws {
        let directory = try SpoolDirectory()
        do {
            let spool = Spool(memoryLimit: 0, stagingBytes: Self.staging, directory: directory.path)
            _ = Self.fill(spool, [1, 2, 3], piece: 3)
            #expect(spool.isSpilled && directory.openDeletedFiles.count == 1)
        }
        #expect(directory.isClean)
    }

    @Test func bodyOfExactlyTheLimitStaysInMemory() throws {
        let directory = try SpoolDirectory()
        let spool = Spool(memoryLimit: 1000, stagingBytes: Self.staging, directory: directory.path)
        _ = Self.fill(spool, [UInt8](repeating: 9, count: 1000), piece: 100)
        #expect(!spool.isSpilled)
        [UInt8(1)].withUnsafeBytes { spool.write($0) }
        #expect(spool.isSpilled && spool.length == 1001)
    }

    @Test func fileThatCannotBeCreatedIsAFailure() throws {
        let spool = Spool(memoryLimit: 10, stagingBytes: Self.staging, directory: "/nonexistent/partgate")
        _ = Self.fill(spool, [UInt8](repeating: 1, count: 100), piece: 20)
        #expect(spool.failure == SpoolError(.create, ENOENT))
        #expect(throws: SpoolError(.create, ENOENT)) { try spool.finish() }
        #expect(!spool.isSpilled)
    }
}
