import Foundation
import Testing

@testable import ProxyEngine

/// Access lines made during one loop turn are written together once its callbacks end; a batch that reaches
/// the limit is written at once.
@Suite("AccessLineBatch")
struct AccessLineBatchTests {
    /// A file to write to, its descriptor, and its size as written so far.
    private final class Sink {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("access-\(UUID().uuidString).log")
        let descriptor: Int32
        init() { descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600) }
        var size: Int {
            var info = stat()
            _ = fstat(descriptor, &info)
            return Int(info.st_size)
        }
        var text: String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }
        deinit {
            close(descriptor)
            try? FileManager.default.removeItem(at: url)
        }
    }

    private static func line(_ index: Int) -> String { "{\"n\":\(index)}\n" }

    @Test func linesOfOneTurnAreWrittenTogetherWhenItsCallbacksEnd() throws {
        nonisolated(unsafe) let sink = Sink()  // the loop runs on this thread
        let loop = EventLoop()
        nonisolated(unsafe) let batch = AccessLineBatch(base: loop.base, descriptor: sink.descriptor)
        nonisolated(unsafe) var sizeDuringTurn = -1
        nonisolated(unsafe) var pendingDuringTurn = -1
        nonisolated(unsafe) var sizeNextTurn = -1
        nonisolated(unsafe) var pendingNextTurn = -1
        loop.schedule {
            for index in 0..<3 { batch.append { $0.append(contentsOf: Array(Self.line(index).utf8)) } }
            sizeDuringTurn = sink.size
            pendingDuringTurn = batch.pending
            loop.schedule {
                sizeNextTurn = sink.size
                pendingNextTurn = batch.pending
                loop.stop()
            }
        }
        loop.run()
        batch.close()
        #expect(sizeDuringTurn == 0)
        #expect(pendingDuringTurn == (0..<3).map { Self.line($0).utf8.count }.reduce(0, +))
        #expect(pendingNextTurn == 0)
        #expect(sizeNextTurn == pendingDuringTurn)
        #expect(sink.text == (0..<3).map(Self.line).joined())
    }

    @Test func aBatchAtTheLimitIsWrittenAtOnceAndCloseWritesTheRest() throws {
        nonisolated(unsafe) let sink = Sink()  // the loop runs on this thread
        let loop = EventLoop()
        nonisolated(unsafe) let batch = AccessLineBatch(base: loop.base, descriptor: sink.descriptor)
        let long = String(repeating: "x", count: 1000) + "\n"
        let count = AccessLineBatch.limit / long.utf8.count + 1
        nonisolated(unsafe) var sizeDuringTurn = -1
        loop.schedule {
            for _ in 0..<count { batch.append { $0.append(contentsOf: Array(long.utf8)) } }
            sizeDuringTurn = sink.size
            batch.append { $0.append(contentsOf: Array("tail\n".utf8)) }
            loop.stop()
        }
        loop.run()
        #expect(sizeDuringTurn == count * long.utf8.count)  // written inside the turn: the limit was reached
        batch.close()  // what the worker does when its loop stops
        #expect(sink.size == count * long.utf8.count + 5)
        #expect(sink.text.hasSuffix("x\ntail\n"))
    }
}
