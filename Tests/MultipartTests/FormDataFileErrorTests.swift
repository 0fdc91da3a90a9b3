import Foundation
import Multipart
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("MultipartFormData file checks")
struct FormDataFileErrorTests {
    /// Whether `chmod 000` stops this process from opening a file (not as root with CAP_DAC_OVERRIDE).
    static let chmodBlocksReads: Bool = {
        let scratch = FormDataScratchDirectory()
        defer { scratch.remove() }
        let file = scratch.write([1], to: "probe")
        guard chmod(file.path, 0) == 0 else { return false }
        let descriptor = open(file.path, O_RDONLY)
        if descriptor >= 0 { _ = close(descriptor) }
        return descriptor < 0
    }()

    /// A regular file that even root cannot open for reading: procfs sysctl files check the owner bits
    /// for root too, and `vm/drop_caches` is write-only (0200).
    static let writeOnlyProcFile = "/proc/sys/vm/drop_caches"
    static let writeOnlyProcFileRefusesReads: Bool = {
        var info = stat()
        guard stat(writeOnlyProcFile, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        let descriptor = open(writeOnlyProcFile, O_RDONLY)
        if descriptor >= 0 { _ = close(descriptor) }
        return descriptor < 0
    }()

    /// Expects `body` to throw a ``FormDataError`` with `code` and returns it.
    @discardableResult
    static func expectError(
        _ code: FormDataError.Code, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () throws(FormDataError) -> Void
    ) -> FormDataError? {
        do {
            try body()
            Issue.record("expected \(code), nothing was thrown", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            return error
        }
        return nil
    }

    @Test func refusesANonFileURL() throws {
        let form = MultipartFormData()
        let url = try #require(URL(string: "https://example.com/photo.png"))
        let error = Self.expectError(.notFileURL) { () throws(FormDataError) in try form.append(url, withName: "photo")
        }
        #expect(error?.url == url && error?.partName == "photo" && error?.partIndex == 0)
        Self.expectError(.notFileURL) { () throws(FormDataError) in
            try form.append(url, withName: "photo", fileName: "p.png", mimeType: "image/png")
        }
        #expect(form.parts.isEmpty)
    }

    @Test func refusesAMissingFile() {
        let scratch = FormDataScratchDirectory()
        defer { scratch.remove() }
        let form = MultipartFormData()
        try? form.append([1], withName: "first")
        let missing = scratch.file("missing.txt")
        let error = Self.expectError(.fileUnreachable) { () throws(FormDataError) in
            try form.append(missing, withName: "doc")
        }
        #expect(error?.partIndex == 1 && error?.url?.path == missing.path)
        #expect(error?.detail?.contains("errno \(ENOENT)") == true)
        Self.expectError(.fileUnreachable) { () throws(FormDataError) in
            try form.append(scratch.file("missing.txt/below"), withName: "doc")
        }
        #expect(form.parts.count == 1, "a refused append leaves the form unchanged")
    }

    @Test func refusesADirectory() {
        let scratch = FormDataScratchDirectory()
        defer { scratch.remove() }
        let form = MultipartFormData()
        Self.expectError(.fileIsDirectory) { () throws(FormDataError) in try form.append(scratch.url, withName: "dir") }
        Self.expectError(.fileIsDirectory) { () throws(FormDataError) in
            try form.append(URL(fileURLWithPath: "/"), withName: "root")
        }
    }

    @Test func refusesAFileWithoutAMeaningfulSize() throws {
        let scratch = FormDataScratchDirectory()
        defer { scratch.remove() }
        let fifo = scratch.file("pipe")
        try #require(mkfifo(fifo.path, 0o600) == 0)
        let form = MultipartFormData()
        Self.expectError(.fileSizeUnavailable) { () throws(FormDataError) in try form.append(fifo, withName: "pipe") }
        Self.expectError(.fileSizeUnavailable) { () throws(FormDataError) in
            try form.append(URL(fileURLWithPath: "/dev/zero"), withName: "zero")
        }
    }

    @Test(.enabled(if: chmodBlocksReads, "running with CAP_DAC_OVERRIDE (root): chmod 000 does not stop open(2)"))
    func refusesAFileWithoutReadPermission() throws {
        let scratch = FormDataScratchDirectory()
        defer { scratch.remove() }
        let file = scratch.write([1, 2, 3], to: "secret.txt")
        try #require(chmod(file.path, 0) == 0)
        let error = Self.expectError(.fileUnreadable) { () throws(FormDataError) in
            try MultipartFormData().append(file, withName: "secret")
        }
        #expect(error?.detail?.contains("errno \(EACCES)") == true)
    }

    @Test(.enabled(if: writeOnlyProcFileRefusesReads, "no write-only procfs file to test an unopenable regular file"))
    func refusesARegularFileThatCannotBeOpened() {
        let url = URL(fileURLWithPath: Self.writeOnlyProcFile)
        let error = Self.expectError(.fileUnreadable) { () throws(FormDataError) in
            try MultipartFormData().append(url, withName: "caches")
        }
        #expect(error?.url?.path == Self.writeOnlyProcFile)
    }

    @Test func aFileRemovedAfterAppendFailsTheEncoding() throws {
        let scratch = FormDataScratchDirectory()
        defer { scratch.remove() }
        let file = scratch.write([1, 2, 3], to: "gone.txt")
        let form = MultipartFormData()
        try form.append(file, withName: "gone")
        try FileManager.default.removeItem(at: file)
        let error = Self.expectError(.fileUnreachable) { () throws(FormDataError) in _ = try form.encode() }
        #expect(error?.partName == "gone" && error?.partIndex == 0)
    }

    @Test func aFileThatChangedSizeAfterAppendFailsTheEncoding() throws {
        let scratch = FormDataScratchDirectory()
        defer { scratch.remove() }
        let file = scratch.write([1, 2, 3, 4], to: "changing.bin")
        let form = MultipartFormData(bufferSize: 2)
        try form.append(file, withName: "changing")
        scratch.write([1, 2], to: "changing.bin")
        let short = Self.expectError(.bodyTooShort) { () throws(FormDataError) in _ = try form.encode() }
        #expect(short?.detail == "declared 4 bytes, delivered 2")
        scratch.write([1, 2, 3, 4, 5], to: "changing.bin")
        Self.expectError(.bodyTooLong) { () throws(FormDataError) in _ = try form.encode() }
        scratch.write([4, 3, 2, 1], to: "changing.bin")
        let bytes = try form.encode()
        #expect(UInt64(bytes.count) == form.contentLength)
        let parsed = FormDataParsedBody.parse(bytes, boundary: form.boundary)
        #expect(parsed.isClean && parsed.parts.first?.bytes == [4, 3, 2, 1])
    }

    @Test func errorsDescribeTheirContext() {
        let error = FormDataError(
            .fileIsDirectory, partIndex: 2, partName: "doc",
            url: URL(fileURLWithPath: "/tmp/x"), detail: "more")
        #expect(error.description == "file_is_directory: part 2 \"doc\", /tmp/x, more")
        #expect(FormDataError(.tooLarge).description == "too_large")
        #expect(FormDataError.Code.outputFileExists.description == "output_file_exists")
    }
}
