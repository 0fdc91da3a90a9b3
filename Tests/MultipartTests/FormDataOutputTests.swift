import Foundation
import Multipart
import Testing

@Suite("MultipartFormData output files and the memory threshold")
struct FormDataOutputTests {
    typealias Expect = FormDataFileErrorTests

    static func smallForm() -> MultipartFormData {
        let form = MultipartFormData()
        try? form.append([UInt8]("value"), withName: "field")
        return form
    }

    @Test func refusesToOverwriteAnExistingFile() throws {
        let scratch = FormDataScratchDirectory()
        defer { scratch.remove() }
        let existing = scratch.write([UInt8]("keep me"), to: "existing")
        let error = Expect.expectError(.outputFileExists) { () throws(FormDataError) in
            try Self.smallForm().writeEncodedData(to: existing)
        }
        #expect(error?.url == existing)
        #expect(try Data(contentsOf: existing) == Data("keep me".utf8))
    }

    @Test func refusesToWriteThroughASymlink() throws {
        let scratch = FormDataScratchDirectory()
        defer { scratch.remove() }
        let link = scratch.file("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: scratch.file("target"))
        Expect.expectError(.outputFileExists) { () throws(FormDataError) in
            try Self.smallForm().writeEncodedData(to: link)
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.file("target").path))
    }

    @Test func refusesANonFileOutputURL() throws {
        let url = try #require(URL(string: "https://example.com/body"))
        Expect.expectError(.outputNotFileURL) { () throws(FormDataError) in
            try Self.smallForm().writeEncodedData(to: url)
        }
        Expect.expectError(.outputNotFileURL) { () throws(FormDataError) in
            _ = try Self.smallForm().encode(memoryThreshold: 0, temporaryDirectory: url)
        }
    }

    @Test func reportsAnOutputThatCannotBeCreated() {
        let scratch = FormDataScratchDirectory()
        defer { scratch.remove() }
        let error = Expect.expectError(.outputCreationFailed) { () throws(FormDataError) in
            try Self.smallForm().writeEncodedData(to: scratch.file("no-such-dir/body"))
        }
        #expect(error?.detail?.contains("errno \(ENOENT)") == true)
    }

    @Test(arguments: [Int64(0), 1, 100_000, 250_000])
    func aFailureMidwayRemovesThePartialFile(_ deliveredBeforeFailure: Int64) throws {
        let scratch = FormDataScratchDirectory()
        defer { scratch.remove() }
        let form = MultipartFormData(bufferSize: 4096)
        try form.append(FormDataProbeStream(available: 300_000), withLength: 300_000, name: "first")
        try form.append(
            FormDataProbeStream(available: 300_000, failAfter: deliveredBeforeFailure),
            withLength: 300_000, name: "second")
        let output = scratch.file("body")
        Expect.expectError(.readFailed) { () throws(FormDataError) in try form.writeEncodedData(to: output) }
        #expect(!FileManager.default.fileExists(atPath: output.path))
        #expect(scratch.entries.isEmpty)
    }

    @Test func aShortStreamRemovesThePartialFile() throws {
        let scratch = FormDataScratchDirectory()
        defer { scratch.remove() }
        let form = MultipartFormData()
        try form.append(FormDataProbeStream(available: 200_000), withLength: 200_001, name: "short")
        Expect.expectError(.bodyTooShort) { () throws(FormDataError) in
            try form.writeEncodedData(to: scratch.file("body"))
        }
        #expect(scratch.entries.isEmpty)
    }

    @Test func belowTheThresholdEncodesInMemory() throws {
        let scratch = FormDataScratchDirectory()
        defer { scratch.remove() }
        let form = MultipartFormData()
        try form.append(scratch.write(FormDataPattern.bytes(at: 0, count: 5000), to: "f.bin"), withName: "file")
        let encoded = try form.encode(memoryThreshold: form.contentLength + 1, temporaryDirectory: scratch.url)
        guard case .memory(let bytes) = encoded else {
            Issue.record("expected memory, got \(encoded)")
            return
        }
        #expect(encoded.isInMemory && encoded.fileURL == nil)
        #expect(UInt64(bytes.count) == form.contentLength)
        #expect(scratch.entries == ["f.bin"], "no temporary file")
        try encoded.removeFile()
        let parsed = FormDataParsedBody.parse(bytes, boundary: form.boundary)
        #expect(parsed.isClean && parsed.parts.first?.matchesPattern == true && parsed.parts.first?.count == 5000)
    }

    @Test(arguments: [UInt64(0), 1])
    func atOrAboveTheThresholdStreamsToATemporaryFileTheCallerRemoves(_ below: UInt64) throws {
        let scratch = FormDataScratchDirectory()
        defer { scratch.remove() }
        let form = MultipartFormData()
        try form.append(FormDataProbeStream(available: 70_000), withLength: 70_000, name: "s", fileName: "s.bin")
        let encoded = try form.encode(memoryThreshold: form.contentLength - below, temporaryDirectory: scratch.url)
        let url = try #require(encoded.fileURL)
        #expect(!encoded.isInMemory)
        #expect(url.deletingLastPathComponent().standardizedFileURL == scratch.url.standardizedFileURL)
        #expect(url.lastPathComponent.hasPrefix("partgate-form-") && url.pathExtension == "multipart")
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.size] as? NSNumber)?.uint64Value == form.contentLength)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let parsed = try FormDataParsedBody.parse(fileAt: url, boundary: form.boundary)
        #expect(parsed.isClean && parsed.parts.first?.count == 70_000 && parsed.parts.first?.matchesPattern == true)
        try encoded.removeFile()
        #expect(!FileManager.default.fileExists(atPath: url.path))
        try encoded.removeFile()  // already gone: nothing to do
    }

    @Test func aFailedThresholdEncodingLeavesNoTemporaryFile() throws {
        let scratch = FormDataScratchDirectory()
        defer { scratch.remove() }
        let form = MultipartFormData()
        try form.append(FormDataProbeStream(available: 10), withLength: 11, name: "short")
        Expect.expectError(.bodyTooShort) { () throws(FormDataError) in
            _ = try form.encode(memoryThreshold: 0, temporaryDirectory: scratch.url)
        }
        #expect(scratch.entries.isEmpty)
    }

    @Test func largeFormsStreamToAFileThroughABoundedBuffer() throws {
        let scratch = FormDataScratchDirectory()
        defer { scratch.remove() }
        let fileLength = 16 << 20
        let streamLength: Int64 = 64 << 20
        let file = try scratch.writePattern(length: fileLength, to: "big.bin")
        let probe = FormDataProbeStream(available: streamLength, maxPerRead: 50_000)
        let form = MultipartFormData()
        try form.append([UInt8]("meta"), withName: "meta")
        try form.append(file, withName: "file")
        try form.append(probe, withLength: UInt64(streamLength), name: "stream", fileName: "s.bin")
        let encoded = try form.encode(temporaryDirectory: scratch.url)
        defer { try? encoded.removeFile() }
        let url = try #require(encoded.fileURL, "80 MiB is over the 10 MB default threshold")
        #expect(probe.largestRequest <= MultipartFormData.defaultBufferSize)
        #expect(probe.reads > Int(streamLength) / 50_000)
        let parsed = try FormDataParsedBody.parse(fileAt: url, boundary: form.boundary)
        #expect(parsed.isClean)
        #expect(parsed.totalBytes == Int64(form.contentLength))
        #expect(parsed.parts.map(\.head.name) == ["meta", "file", "stream"])
        #expect(parsed.parts.map(\.count) == [4, Int64(fileLength), streamLength])
        #expect(parsed.parts[1].matchesPattern && parsed.parts[2].matchesPattern)
        #expect(parsed.parts[1].head.contentType == "application/octet-stream")
    }
}
