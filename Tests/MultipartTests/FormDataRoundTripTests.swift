import Foundation
import Multipart
import Testing

@Suite("MultipartFormData round trips")
struct FormDataRoundTripTests {
    static let boundary = Boundary("partgate-test-0123456789abcdef")!

    @Test func encodesTheCanonicalFormByteForByte() throws {
        let form = MultipartFormData(boundary: Boundary("XyZzy")!)
        try form.append([UInt8]("Ada"), withName: "author")
        try form.append([UInt8]("x,y\n"), withName: "doc", fileName: "a b.csv", mimeType: "Text/CSV; Charset=UTF-8")
        let expected = [UInt8](
            "--XyZzy\r\nContent-Disposition: form-data; name=\"author\"\r\n\r\nAda"
                + "\r\n--XyZzy\r\nContent-Disposition: form-data; name=\"doc\"; filename=\"a b.csv\"\r\n"
                + "Content-Type: text/csv; charset=UTF-8\r\n\r\nx,y\n\r\n--XyZzy--\r\n")
        let body = try form.encode()
        #expect(body == expected)
        #expect(form.contentLength == UInt64(expected.count))
        #expect(form.contentType == "multipart/form-data; boundary=XyZzy")
    }

    @Test func formWithNoPartsIsTheCloseDelimiter() throws {
        let form = MultipartFormData(boundary: Boundary("XyZzy")!)
        let body = try form.encode()
        #expect(body == [UInt8]("--XyZzy--\r\n"))
        #expect(form.contentLength == UInt64(body.count))
        let outcome = SplitFeeder.verify(body, boundary: "XyZzy")
        #expect(outcome.error == nil)
        #expect(outcome.events == [.end])
    }

    @Test func dataPartsIncludingEmptyOnesRoundTripAtEverySplit() throws {
        let form = MultipartFormData(boundary: Self.boundary)
        try form.append([], withName: "empty")
        try form.append([], withName: "no-file", fileName: "", mimeType: "application/octet-stream")
        try form.append(Data("größe ✓".utf8), withName: "ünïcode", fileName: "résumé.txt", mimeType: "text/plain")
        try form.append([UInt8]("line1\r\n--partgate-test-0123456789abcdeX\r\n"), withName: "lookalike")
        let body = try form.encode()
        #expect(form.contentLength == UInt64(body.count))
        let outcome = SplitFeeder.verify(body, boundary: Self.boundary.description)
        #expect(outcome.error == nil)
        #expect(outcome.violations.isEmpty)
        let parts = outcome.parts
        try #require(parts.count == 4)
        #expect(parts.map(\.head.name) == ["empty", "no-file", "ünïcode", "lookalike"])
        #expect(parts.map(\.head.filename) == [nil, "", "résumé.txt", nil])
        #expect(parts.map(\.head.contentType) == [nil, "application/octet-stream", "text/plain", nil])
        #expect(parts[0].data.isEmpty && parts[1].data.isEmpty)
        #expect(parts[2].data == Array("größe ✓".utf8))
        #expect(parts[3].data == [UInt8]("line1\r\n--partgate-test-0123456789abcdeX\r\n"))
    }

    @Test func fileAndStreamPartsRoundTripInMemoryAndThroughAFile() throws {
        let scratch = FormDataScratchDirectory()
        defer { scratch.remove() }
        let photo = scratch.write(FormDataPattern.bytes(at: 0, count: 200_000), to: "photo.PNG")
        let empty = scratch.write([], to: "empty.txt")
        let noExtension = scratch.write([UInt8]("plain"), to: "README")

        func build() throws -> MultipartFormData {
            let form = MultipartFormData(boundary: Self.boundary, bufferSize: 4096)
            try form.append([UInt8]("caption"), withName: "title")
            try form.append(photo, withName: "photo")
            try form.append(empty, withName: "nothing")
            try form.append(noExtension, withName: "readme")
            try form.append(photo, withName: "renamed", fileName: "p.bin", mimeType: "image/png")
            try form.append(
                InputStream(data: Data(FormDataPattern.bytes(at: 0, count: 70_001))), withLength: 70_001,
                name: "upload", fileName: "stream.dat", mimeType: "application/octet-stream")
            try form.append(FormDataProbeStream(available: 9_999, maxPerRead: 333), withLength: 9_999, name: "probe")
            return form
        }

        let inMemory = try build()
        let bytes = try inMemory.encode()
        #expect(inMemory.contentLength == UInt64(bytes.count))
        let onDisk = try build()
        let output = scratch.file("body.multipart")
        try onDisk.writeEncodedData(to: output)
        let written = try [UInt8](Data(contentsOf: output))
        #expect(written == bytes, "both encodings write the same bytes for the same boundary")
        #expect(onDisk.contentLength == UInt64(written.count))

        for parsed in [
            FormDataParsedBody.parse(bytes, boundary: Self.boundary),
            try FormDataParsedBody.parse(fileAt: output, boundary: Self.boundary),
        ] {
            #expect(parsed.isClean)
            #expect(parsed.totalBytes == Int64(inMemory.contentLength))
            try #require(parsed.parts.count == 7)
            let heads = parsed.parts.map(\.head)
            #expect(heads.map(\.name) == ["title", "photo", "nothing", "readme", "renamed", "upload", "probe"])
            #expect(heads.map(\.filename) == [nil, "photo.PNG", "empty.txt", "README", "p.bin", "stream.dat", nil])
            #expect(
                heads.map(\.contentType) == [
                    nil, "image/png", "text/plain", "application/octet-stream", "image/png", "application/octet-stream",
                    nil,
                ])
            #expect(parsed.parts.map(\.count) == [7, 200_000, 0, 5, 200_000, 70_001, 9_999])
            #expect(parsed.parts[0].bytes == [UInt8]("caption"))
            #expect(parsed.parts[3].bytes == [UInt8]("plain"))
            for index in [1, 4, 5, 6] { #expect(parsed.parts[index].matchesPattern, "part \(index)") }
        }
    }

    @Test func contentLengthIsComputedWithoutReadingBodies() throws {
        let probe = FormDataProbeStream(available: 1_000_000)
        let form = MultipartFormData(boundary: Self.boundary)
        try form.append(probe, withLength: 1_000_000, name: "big", fileName: "big.bin")
        let expected = try MultipartEncoder(boundary: Self.boundary).encodedLength(
            of: [(PartHead(index: 0, name: "big", filename: "big.bin"), 1_000_000)])
        #expect(form.contentLength == UInt64(expected))
        #expect(probe.reads == 0 && probe.opens == 0)
        let body = try form.encode()
        #expect(UInt64(body.count) == form.contentLength)
    }

    @Test func defaultBoundaryIsFreshPerForm() {
        let first = MultipartFormData()
        let second = MultipartFormData()
        #expect(first.boundary != second.boundary)
        #expect(first.boundary.description.hasPrefix("partgate-"))
        #expect(first.contentType == "multipart/form-data; boundary=\(first.boundary)")
    }

    @Test func partsDescribeWhatWasAppended() throws {
        let scratch = FormDataScratchDirectory()
        defer { scratch.remove() }
        let file = scratch.write([1, 2, 3], to: "three.json")
        let form = MultipartFormData(boundary: Self.boundary)
        try form.append([9], withName: "one")
        try form.append(file, withName: "file")
        try form.append(FormDataProbeStream(available: 4), withLength: 4, name: "stream", mimeType: "Image/PNG")
        #expect(form.parts.map(\.name) == ["one", "file", "stream"])
        #expect(form.parts.map(\.length) == [1, 3, 4])
        #expect(form.parts.map(\.mimeType) == [nil, "application/json", "image/png"])
        #expect(form.parts.map(\.isStream) == [false, false, true])
        #expect(form.parts[1].fileURL?.lastPathComponent == "three.json")
        #expect(form.parts.map(\.head.index) == [0, 1, 2])
    }

    @Test(arguments: [
        ("PNG", "image/png"), ("jpeg", "image/jpeg"), ("txt", "text/plain"), ("pdf", "application/pdf"),
        ("json", "application/json"), ("", "application/octet-stream"), ("weird", "application/octet-stream"),
    ])
    func mimeTypeFromExtension(_ pathExtension: String, _ type: String) {
        #expect(FormDataMIMEType.forPathExtension(pathExtension) == type)
    }
}
