import Multipart

/// An instrumented ``FormDataStream`` that delivers ``FormDataPattern`` bytes: it records every read
/// request, can deliver fewer bytes per read than asked, can deliver a different total than declared, and
/// can fail after some bytes.
final class FormDataProbeStream: FormDataStream {
    /// A failure the probe throws on purpose.
    struct Failure: Error, CustomStringConvertible {
        var description: String { "probe failure" }
    }

    /// How many bytes the stream really has.
    let available: Int64
    /// The most bytes one read delivers (to exercise short reads).
    let maxPerRead: Int
    /// Throw once this many bytes were delivered.
    let failAfter: Int64?
    /// Report a count larger than the buffer on the first read (a broken stream).
    let overReport: Bool

    private(set) var delivered: Int64 = 0
    private(set) var largestRequest = 0
    private(set) var reads = 0
    private(set) var opens = 0
    private(set) var closes = 0

    init(available: Int64, maxPerRead: Int = .max, failAfter: Int64? = nil, overReport: Bool = false) {
        self.available = available
        self.maxPerRead = maxPerRead
        self.failAfter = failAfter
        self.overReport = overReport
    }

    func open() throws {
        opens += 1
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        reads += 1
        largestRequest = max(largestRequest, buffer.count)
        if overReport { return buffer.count + 1 }
        if let failAfter, delivered >= failAfter { throw Failure() }
        let count = Int(min(Int64(min(buffer.count, maxPerRead)), available - delivered))
        FormDataPattern.fill(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]), at: delivered)
        delivered += Int64(count)
        return count
    }

    func close() {
        closes += 1
    }
}
