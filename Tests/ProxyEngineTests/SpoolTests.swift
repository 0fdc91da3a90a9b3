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

    /// A spilled spool goes to a socket by `sendfile` in chains of `slice` bytes, added while the output is under
    /// its high-water mark: libevent sends a `sendfile` chain whole in one call, so one chain for the file was one
    /// call for all of it (the loop's other connections, and an upstream's early answer, waited). A blocking
    /// socket, drained by a reader thread, lets each call send its chain whole, as a fast upstream does.
    @Test func fileGoesBySendfileInSlices() throws {
        let directory = try SpoolDirectory()
        let spool = Spool(memoryLimit: 0, stagingBytes: Self.staging, directory: directory.path)
        let body = SpoolRequests.bytes(3 << 20, seed: 6)
        _ = Self.fill(spool, body, piece: 100_000)
        try spool.finish()
        var pair: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { Glibc.close(pair[0]) }
        let reader = pair[1]
        let received = Received()
        let readerThread = Thread {
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                let count = chunk.withUnsafeMutableBytes { recv(reader, $0.baseAddress, $0.count, 0) }
                if count <= 0 { break }
                received.append(chunk[0..<count])
            }
            Glibc.close(reader)
            received.finish()
        }
        readerThread.start()
        let output = evbuffer_new()!
        defer { evbuffer_free(output) }
        _ = evbuffer_set_flags(output, UInt64(EVBUFFER_FLAG_DRAINS_TO_FD))
        let slice = 64 * 1024
        let highWater = 256 * 1024
        var largestWrite = 0
        var mostQueued = 0
        var done = false
        while !done || EvBuffer.length(output) > 0 {
            if !done { done = try spool.send(to: output, sendfile: true, highWater: highWater, slice: slice) }
            mostQueued = max(mostQueued, EvBuffer.length(output))
            let written = Int(evbuffer_write(output, pair[0]))
            try #require(written > 0)
            largestWrite = max(largestWrite, written)
        }
        shutdown(pair[0], Int32(SHUT_WR))
        #expect(received.wait() == body)
        #expect(largestWrite <= slice, "one sendfile call sent \(largestWrite) bytes")
        #expect(mostQueued <= highWater + slice)
        spool.close()
        #expect(directory.isClean, "the segment's descriptor is closed with its last chain")
    }
}

/// Bytes a reader thread collected, handed over once it saw the end.
private final class Received: @unchecked Sendable {
    private var bytes: [UInt8] = []
    private let ended = DispatchSemaphore(value: 0)
    func append(_ more: ArraySlice<UInt8>) { bytes += more }
    func finish() { ended.signal() }
    func wait() -> [UInt8]? { ended.wait(timeout: .now() + 10) == .success ? bytes : nil }
}
