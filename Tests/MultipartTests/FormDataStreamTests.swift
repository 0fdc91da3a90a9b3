import Foundation
import Multipart
import Testing

@Suite("MultipartFormData stream parts")
struct FormDataStreamTests {
    typealias Expect = FormDataFileErrorTests

    @Test(arguments: [0, 1, 99, 100])
    func streamThatEndsEarlyFails(_ available: Int64) {
        let form = MultipartFormData(bufferSize: 16)
        let probe = FormDataProbeStream(available: available)
        try? form.append(probe, withLength: 101, name: "upload", fileName: "u.bin")
        let error = Expect.expectError(.bodyTooShort) { () throws(FormDataError) in _ = try form.encode() }
        #expect(error?.detail == "declared 101 bytes, delivered \(available)")
        #expect(error?.partName == "upload" && error?.partIndex == 0)
        #expect(probe.opens == 1 && probe.closes == 1)
    }

    @Test(arguments: [1, 2, 1000])
    func streamThatRunsLongFails(_ extra: Int64) {
        let form = MultipartFormData(bufferSize: 16)
        let probe = FormDataProbeStream(available: 50 + extra)
        try? form.append(probe, withLength: 50, name: "upload")
        let error = Expect.expectError(.bodyTooLong) { () throws(FormDataError) in _ = try form.encode() }
        #expect(error?.detail == "declared 50 bytes, delivered more")
        #expect(probe.delivered == 51, "reads stop one byte past the declared length")
        #expect(probe.closes == 1)
    }

    @Test func inputStreamOfTheWrongLengthFails() {
        let short = MultipartFormData()
        try? short.append(InputStream(data: Data([1, 2, 3])), withLength: 4, name: "s")
        Expect.expectError(.bodyTooShort) { () throws(FormDataError) in _ = try short.encode() }
        let long = MultipartFormData()
        try? long.append(InputStream(data: Data([1, 2, 3])), withLength: 2, name: "s")
        Expect.expectError(.bodyTooLong) { () throws(FormDataError) in _ = try long.encode() }
    }

    @Test func anInputStreamThatCannotOpenFails() throws {
        let scratch = FormDataScratchDirectory()
        defer { scratch.remove() }
        let stream = try #require(InputStream(url: scratch.file("missing")))
        let form = MultipartFormData()
        try form.append(stream, withLength: 3, name: "s")
        let error = Expect.expectError(.readFailed) { () throws(FormDataError) in _ = try form.encode() }
        #expect(error?.partName == "s" && error?.detail?.isEmpty == false)
    }

    @Test func readErrorsAreReportedAndTheStreamIsClosed() {
        let form = MultipartFormData(bufferSize: 8)
        let probe = FormDataProbeStream(available: 100, failAfter: 24)
        try? form.append(probe, withLength: 100, name: "flaky")
        let error = Expect.expectError(.readFailed) { () throws(FormDataError) in _ = try form.encode() }
        #expect(error?.detail == "probe failure")
        #expect(probe.closes == 1)
    }

    @Test func aStreamReportingMoreThanItWasAskedForFails() {
        let form = MultipartFormData(bufferSize: 8)
        try? form.append(FormDataProbeStream(available: 100, overReport: true), withLength: 100, name: "broken")
        let error = Expect.expectError(.readFailed) { () throws(FormDataError) in _ = try form.encode() }
        #expect(error?.detail == "a read of 8 bytes returned 9")
    }

    @Test func aStreamIsEncodedOnlyOnce() throws {
        let form = MultipartFormData()
        try form.append([1], withName: "data")
        try form.append(FormDataProbeStream(available: 10), withLength: 10, name: "once")
        let first = try form.encode()
        #expect(UInt64(first.count) == form.contentLength)
        let error = Expect.expectError(.streamConsumed) { () throws(FormDataError) in _ = try form.encode() }
        #expect(error?.partIndex == 1 && error?.partName == "once")
        let scratch = FormDataScratchDirectory()
        defer { scratch.remove() }
        Expect.expectError(.streamConsumed) { () throws(FormDataError) in
            try form.writeEncodedData(to: scratch.file("again"))
        }
        #expect(scratch.entries.isEmpty, "the check comes before the output file is created")
    }

    @Test func formsWithoutStreamsEncodeRepeatably() throws {
        let scratch = FormDataScratchDirectory()
        defer { scratch.remove() }
        let form = MultipartFormData()
        try form.append(scratch.write([5, 6, 7], to: "f.bin"), withName: "file")
        try form.append([1, 2], withName: "data")
        #expect(try form.encode() == (try form.encode()))
    }

    @Test(arguments: [1, 7, 4096, MultipartFormData.defaultBufferSize])
    func readsAreBoundedByTheBufferSize(_ bufferSize: Int) throws {
        let length: Int64 = 300_000
        let probe = FormDataProbeStream(available: length)
        let form = MultipartFormData(bufferSize: bufferSize)
        try form.append(probe, withLength: UInt64(length), name: "big", fileName: "big.bin")
        let body = try form.encode()
        #expect(probe.largestRequest == bufferSize)
        #expect(probe.reads >= Int(length) / bufferSize + 1)
        let parsed = FormDataParsedBody.parse(body, boundary: form.boundary)
        #expect(parsed.isClean)
        #expect(parsed.parts.first?.count == length && parsed.parts.first?.matchesPattern == true)
    }

    @Test func shortReadsAreContinued() throws {
        let probe = FormDataProbeStream(available: 10_000, maxPerRead: 3)
        let form = MultipartFormData()
        try form.append(probe, withLength: 10_000, name: "trickle")
        let parsed = FormDataParsedBody.parse(try form.encode(), boundary: form.boundary)
        #expect(parsed.isClean && parsed.parts.first?.count == 10_000 && parsed.parts.first?.matchesPattern == true)
    }

    @Test func bufferSizeBelowOneCountsAsOne() {
        #expect(MultipartFormData(bufferSize: 0).bufferSize == 1)
        #expect(MultipartFormData(bufferSize: -5).bufferSize == 1)
    }

    @Test func lengthsThatCannotBeEncodedAreRefused() throws {
        let form = MultipartFormData()
        Expect.expectError(.tooLarge) { () throws(FormDataError) in
            try form.append(FormDataProbeStream(available: 0), withLength: .max, name: "huge")
        }
        try form.append(FormDataProbeStream(available: 0), withLength: UInt64(Int64.max) / 2, name: "half")
        Expect.expectError(.tooLarge) { () throws(FormDataError) in
            try form.append(FormDataProbeStream(available: 0), withLength: UInt64(Int64.max) / 2, name: "other-half")
        }
        #expect(form.parts.count == 1)
        #expect(form.contentLength > UInt64(Int64.max) / 2)
    }
}
