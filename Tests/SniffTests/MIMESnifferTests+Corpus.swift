import Sniff
import Testing

/// Real files from the shared corpus (`../shared/corpus` beside the repository root).
extension MIMESnifferTests {
    static let corpusFiles: [(path: String, type: SniffedType)] = [
        ("formidable/file/beta-sticker-1.png", .png),
        ("formidable/file/menu_separator.png", .png),
        ("formidable/file/blank.gif", .gif),
        ("formidable/file/binaryfile.tar.gz", .gzip),
        ("formidable/file/plain.txt", .plainText),
        ("formidable/file/funkyfilename.txt", .plainText),
        ("werkzeug/multipart/firefox3-2png1txt/file1.png", .png),
        ("werkzeug/multipart/firefox3-2png1txt/file2.png", .png),
        ("werkzeug/multipart/firefox3-2pnglongtext/file1.png", .png),
        ("werkzeug/multipart/ie6-2png1txt/file1.png", .png),
        ("werkzeug/multipart/opera8-2png1txt/file2.png", .png),
        ("werkzeug/multipart/webkit3-2png1txt/file1.png", .png),
        ("werkzeug/multipart/webkit3-2png1txt/text.txt", .plainText),
    ]

    @Test func corpusFilesAreFound() {
        let missing = Self.corpusFiles.filter { Fixture.corpusFile($0.path) == nil }.map(\.path)
        #expect(missing.isEmpty, "corpus at \(Fixture.corpusPath)")
    }

    @Test func corpusFilesSniffAsTheirType() throws {
        for (path, type) in Self.corpusFiles {
            let bytes = try #require(Fixture.corpusFile(path), "\(path)")
            let whole = sniff(bytes, complete: true)
            #expect(whole.type == type, "\(path)")
            #expect(whole.isFinal)
            // Streamed in 7-byte spans through a SniffWindow: the same answer once the window fills or the
            // part ends.
            var window = SniffWindow()
            var offset = 0
            while offset < bytes.count && !window.isFull {
                offset += window.append(contentsOf: bytes[offset..<min(offset + 7, bytes.count)])
            }
            #expect(window.sniff(complete: offset == bytes.count) == whole, "\(path)")
            #expect(
                FileExtensions.matches(
                    extension: FileExtensions.fileExtension(ofFilename: path) ?? "",
                    mimeType: whole.mimeType
                )
            )
        }
    }
}
