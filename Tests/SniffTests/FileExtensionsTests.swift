import Sniff
import Testing

@Suite struct FileExtensionsTests {
    @Test(arguments: SniffedType.all)
    func everySniffedTypeHasAPreferredExtensionThatMatchesIt(_ type: SniffedType) throws {
        let extensions = FileExtensions.extensions(forMIMEType: type.mimeType)
        let preferred = try #require(FileExtensions.preferredExtension(forMIMEType: type.mimeType))
        #expect(extensions.first == preferred)
        #expect(FileExtensions.matches(extension: preferred, mimeType: type.mimeType))
        #expect(FileExtensions.canonicalMIMEType(type.mimeType) == type.mimeType)
    }

    @Test func tableRoundTrips() {
        var seen = Set<String>()
        for mimeType in FileExtensions.allMIMETypes {
            #expect(seen.insert(mimeType).inserted, "\(mimeType) listed once")
            #expect(mimeType == mimeType.lowercased())
            let extensions = FileExtensions.extensions(forMIMEType: mimeType)
            #expect(!extensions.isEmpty, "\(mimeType)")
            #expect(extensions.contains(FileExtensions.preferredExtension(forMIMEType: mimeType) ?? "none"))
            for fileExtension in extensions {
                #expect(fileExtension.hasPrefix(".") && fileExtension == fileExtension.lowercased())
                #expect(FileExtensions.mimeTypes(forExtension: fileExtension).contains(mimeType))
                #expect(FileExtensions.matches(extension: fileExtension, mimeType: mimeType))
            }
        }
    }

    @Test func lookupsIgnoreCaseAndTheLeadingDot() {
        for spelling in ["jpg", ".jpg", "JPG", ".JpG"] {
            #expect(FileExtensions.mimeTypes(forExtension: spelling) == ["image/jpeg"])
        }
        #expect(FileExtensions.mimeTypes(forExtension: "nope").isEmpty)
        #expect(FileExtensions.mimeTypes(forExtension: "").isEmpty)
        #expect(
            FileExtensions.extensions(forMIMEType: "image/jpeg") == [
                ".jpg", ".jpeg", ".jpe", ".jfif", ".pjpeg", ".pjp",
            ]
        )
        #expect(FileExtensions.preferredExtension(forMIMEType: "IMAGE/JPEG; charset=binary") == ".jpg")
        #expect(FileExtensions.preferredExtension(forMIMEType: "application/x-unknown") == nil)
    }

    @Test(arguments: [
        ("jpg", "image/jpeg"), ("jpeg", "image/jpeg"), ("jpe", "image/jpeg"), ("jfif", "image/jpeg"),
        ("JPG", "image/jpg"), ("jpeg", "image/pjpeg"), ("tif", "image/tiff"), ("tiff", "image/tiff"),
        ("htm", "text/html"), ("html", "text/html; charset=utf-8"), ("heic", "image/heic"), ("heic", "image/heif"),
        ("heif", "image/heic"), ("heif", "image/heif"), ("hif", "image/heic"), ("avif", "image/avif"),
        ("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
        ("docx", "application/zip"),
        ("docm", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
        ("xlsx", "application/zip"), ("pptx", "application/zip"), ("odt", "application/zip"),
        ("odt", "application/vnd.oasis.opendocument.text"), ("epub", "application/zip"),
        ("doc", "application/msword"), ("doc", "application/x-ole-storage"), ("xls", "application/x-ole-storage"),
        ("msi", "application/x-msi"), ("msi", "application/x-ole-storage"), ("exe", "application/x-msdownload"),
        ("dll", "application/vnd.microsoft.portable-executable"), ("so", "application/x-sharedlib"),
        ("elf", "application/x-executable"), ("bin", "application/x-executable"), ("bin", "application/octet-stream"),
        ("sh", "text/x-shellscript"), ("sh", "application/x-sh"), ("sh", "text/plain"), ("py", "text/x-python"),
        ("svg", "image/svg+xml"), ("svgz", "application/gzip"), ("gz", "application/x-gzip"),
        ("tgz", "application/gzip"),
        ("rar", "application/x-rar-compressed"), ("rar", "application/vnd.rar"), ("wav", "audio/x-wav"),
        ("wav", "audio/wave"), ("avi", "video/avi"), ("ico", "image/vnd.microsoft.icon"), ("csv", "text/plain"),
        ("json", "text/plain"), ("md", "text/plain"), ("txt", "text/plain"), ("mp3", "audio/mpeg"),
        ("mp4", "video/mp4"),
        ("m4a", "video/mp4"), ("mov", "video/quicktime"), ("webm", "video/webm"), ("ogg", "audio/ogg"),
        ("ogg", "application/ogg"), ("flac", "audio/flac"), ("zip", "application/x-zip-compressed"),
        ("tar", "application/x-tar"),
        ("7z", "application/x-7z-compressed"), ("pdf", "application/pdf"), ("ps", "application/postscript"),
        ("rtf", "text/rtf"), ("woff2", "font/woff2"), ("ttf", "font/otf"), ("otf", "font/ttf"),
        ("jar", "application/zip"),
        ("apk", "application/java-archive"), ("class", "application/java-vm"), ("dylib", "application/x-mach-binary"),
        ("php", "text/html"), ("xhtml", "text/xml"), ("xml", "application/xml"), ("dmg", "application/octet-stream"),
    ])
    func aliasesAndFallbacksMatch(fileExtension: String, mimeType: String) {
        #expect(FileExtensions.matches(extension: fileExtension, mimeType: mimeType))
    }

    @Test(arguments: [
        ("jpg", "image/png"), ("png", "image/jpeg"), ("txt", "text/html"), ("txt", "application/x-msdownload"),
        ("pdf", "text/plain"), ("zip", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
        ("svg", "text/html"), ("svg", "text/plain"), ("gif", "image/svg+xml"), ("exe", "application/zip"),
        ("docx", "application/x-ole-storage"), ("doc", "application/zip"), ("heic", "image/avif"),
        ("html", "image/svg+xml"), ("xyz", "application/octet-stream"), ("", "text/plain"), ("jpg", ""),
    ])
    func mismatchesDoNotMatch(fileExtension: String, mimeType: String) {
        #expect(!FileExtensions.matches(extension: fileExtension, mimeType: mimeType))
    }

    @Test func canonicalMIMETypes() {
        #expect(FileExtensions.canonicalMIMEType(" Image/JPG ; q=1") == "image/jpeg")
        #expect(FileExtensions.canonicalMIMEType("application/x-gzip") == "application/gzip")
        #expect(FileExtensions.canonicalMIMEType("application/x-rar-compressed") == "application/vnd.rar")
        #expect(FileExtensions.canonicalMIMEType("audio/wave") == "audio/wav")
        #expect(FileExtensions.canonicalMIMEType("application/xml") == "text/xml")
        #expect(FileExtensions.canonicalMIMEType("Application/X-Unknown; a=b") == "application/x-unknown")
        #expect(
            FileExtensions.acceptedMIMETypes(forExtension: ".DOCX") == [
                "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "application/zip",
            ]
        )
    }

    @Test(
        arguments: [
            ("photo.JPG", ".jpg"), ("archive.tar.gz", ".gz"), ("C:\\Users\\me\\Report.PDF", ".pdf"),
            ("dir/sub.d/file", nil), ("dir.x\\file", nil), (".bashrc", nil), ("..bashrc", nil),
            (".config.json", ".json"),
            ("evil.exe.", ".exe"), ("evil.exe . .", ".exe"), ("trailing.", nil), ("noext", nil), ("", nil), (".", nil),
            ("a.b c", ".b c"), ("shell.php.jpg", ".jpg"), ("ünïcödé.TXT", ".txt"),
        ] as [(String, String?)]
    )
    func fileExtensionOfFilename(filename: String, expected: String?) {
        #expect(FileExtensions.fileExtension(ofFilename: filename) == expected)
    }
}
