// The extension <-> MIME type data behind `FileExtensions`.

extension FileExtensions {
    /// One MIME type: its canonical essence, its extensions (preferred first, lowercase, no dot) and the other
    /// names clients send for it.
    struct Entry: Sendable {
        let mimeType: String
        let extensions: [String]
        let aliases: [String]

        init(_ mimeType: String, _ extensions: [String], aliases: [String] = []) {
            self.mimeType = mimeType
            self.extensions = extensions
            self.aliases = aliases
        }
    }

    /// Every known type. Where two entries share an extension, the first listed is that extension's primary type.
    static let entries: [Entry] =
        imageEntries + mediaEntries + archiveEntries + documentEntries + codeEntries + textEntries

    private static let imageEntries: [Entry] = [
        Entry("image/png", ["png", "apng"], aliases: ["image/x-png", "image/apng", "image/vnd.mozilla.apng"]),
        Entry("image/jpeg", ["jpg", "jpeg", "jpe", "jfif", "pjpeg", "pjp"], aliases: ["image/jpg", "image/pjpeg"]),
        Entry("image/gif", ["gif"]),
        Entry("image/webp", ["webp"]),
        Entry("image/bmp", ["bmp", "dib"], aliases: ["image/x-bmp", "image/x-ms-bmp", "image/x-windows-bmp"]),
        Entry("image/x-icon", ["ico", "cur"], aliases: ["image/vnd.microsoft.icon", "image/ico", "image/icon"]),
        Entry("image/tiff", ["tif", "tiff"], aliases: ["image/x-tiff"]),
        Entry("image/avif", ["avif", "avifs"], aliases: ["image/avif-sequence"]),
        Entry("image/heif", ["heif", "heifs", "hif"], aliases: ["image/heif-sequence"]),
        Entry("image/heic", ["heic", "heics"], aliases: ["image/heic-sequence"]),
        Entry("image/jxl", ["jxl"]),
        Entry(
            "image/vnd.adobe.photoshop",
            ["psd"],
            aliases: ["image/x-photoshop", "application/x-photoshop", "image/psd"]
        ),
        Entry("image/svg+xml", ["svg", "svgz"]),
    ]

    private static let mediaEntries: [Entry] = [
        Entry("audio/basic", ["au", "snd"]),
        Entry("audio/aiff", ["aif", "aiff", "aifc"], aliases: ["audio/x-aiff"]),
        Entry(
            "audio/mpeg",
            ["mp3", "mpga", "mp2"],
            aliases: ["audio/mp3", "audio/x-mp3", "audio/mpeg3", "audio/x-mpeg"]
        ),
        Entry("audio/ogg", ["ogg", "oga", "opus", "spx"], aliases: ["audio/vorbis", "audio/opus", "audio/x-ogg"]),
        Entry("audio/midi", ["mid", "midi", "kar", "rmi"], aliases: ["audio/x-midi", "audio/mid"]),
        Entry("audio/wav", ["wav"], aliases: ["audio/wave", "audio/x-wav", "audio/vnd.wave", "audio/x-pn-wav"]),
        Entry("audio/flac", ["flac"], aliases: ["audio/x-flac"]),
        Entry("audio/mp4", ["m4a", "m4b", "m4p"], aliases: ["audio/x-m4a", "audio/m4a"]),
        Entry("audio/amr", ["amr"]),
        Entry("audio/amr-wb", ["awb"]),
        Entry("video/x-msvideo", ["avi"], aliases: ["video/avi", "video/msvideo", "video/vnd.avi"]),
        Entry("video/mp4", ["mp4", "m4v", "mp4v", "mpg4"], aliases: ["video/x-m4v", "application/mp4"]),
        Entry("video/quicktime", ["mov", "qt"]),
        Entry("video/3gpp", ["3gp", "3gpp"], aliases: ["audio/3gpp"]),
        Entry("video/3gpp2", ["3g2", "3gpp2"], aliases: ["audio/3gpp2"]),
        Entry("video/webm", ["webm", "weba"], aliases: ["audio/webm"]),
        Entry("video/x-matroska", ["mkv", "mka", "mk3d", "mks"], aliases: ["audio/x-matroska", "video/matroska"]),
        Entry("video/ogg", ["ogv"]),
        Entry("application/ogg", ["ogx"], aliases: ["application/x-ogg"]),
        Entry("font/ttf", ["ttf"], aliases: ["application/x-font-ttf", "application/x-font-truetype", "font/sfnt"]),
        Entry(
            "font/otf",
            ["otf"],
            aliases: ["font/opentype", "application/x-font-opentype", "application/x-font-otf"]
        ),
        Entry("font/collection", ["ttc", "otc"]),
        Entry("font/woff", ["woff"], aliases: ["application/font-woff", "application/x-font-woff"]),
        Entry("font/woff2", ["woff2"], aliases: ["application/font-woff2"]),
        Entry("application/vnd.ms-fontobject", ["eot"]),
    ]

    private static let archiveEntries: [Entry] = [
        Entry(
            "application/gzip",
            ["gz", "tgz", "gzip"],
            aliases: [
                "application/x-gzip", "application/x-gunzip", "application/gzipped", "application/x-compressed-tar",
            ]
        ),
        Entry("application/zip", ["zip"], aliases: ["application/x-zip-compressed", "application/x-zip"]),
        Entry("application/vnd.rar", ["rar"], aliases: ["application/x-rar-compressed", "application/x-rar"]),
        Entry("application/x-7z-compressed", ["7z"]),
        Entry("application/x-bzip2", ["bz2", "tbz2", "tbz"], aliases: ["application/x-bzip"]),
        Entry("application/x-xz", ["xz", "txz"]),
        Entry("application/zstd", ["zst", "tzst"], aliases: ["application/x-zstd"]),
        Entry("application/x-tar", ["tar"], aliases: ["application/x-gtar", "application/x-ustar"]),
        Entry("application/vnd.ms-cab-compressed", ["cab"]),
        Entry("application/x-archive", ["a", "ar"]),
        Entry("application/vnd.debian.binary-package", ["deb", "udeb"], aliases: ["application/x-debian-package"]),
        Entry("application/x-rpm", ["rpm"], aliases: ["application/x-redhat-package-manager"]),
        Entry("application/x-apple-diskimage", ["dmg"]),
        Entry("application/x-iso9660-image", ["iso"]),
    ]

    private static let documentEntries: [Entry] = [
        Entry("application/pdf", ["pdf"], aliases: ["application/x-pdf", "application/acrobat"]),
        Entry("application/postscript", ["ps", "eps", "epsf"]),
        Entry("application/rtf", ["rtf"], aliases: ["text/rtf"]),
        Entry("application/x-ole-storage", ["cfb"]),
        Entry("application/msword", ["doc", "dot"]),
        Entry(
            "application/vnd.ms-excel",
            ["xls", "xlt", "xla"],
            aliases: ["application/excel", "application/x-msexcel"]
        ),
        Entry("application/vnd.ms-powerpoint", ["ppt", "pps", "pot"], aliases: ["application/mspowerpoint"]),
        Entry("application/vnd.ms-outlook", ["msg"]),
        Entry("application/vnd.openxmlformats-officedocument.wordprocessingml.document", ["docx"]),
        Entry("application/vnd.openxmlformats-officedocument.wordprocessingml.template", ["dotx"]),
        Entry("application/vnd.ms-word.document.macroenabled.12", ["docm"]),
        Entry("application/vnd.ms-word.template.macroenabled.12", ["dotm"]),
        Entry("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", ["xlsx"]),
        Entry("application/vnd.openxmlformats-officedocument.spreadsheetml.template", ["xltx"]),
        Entry("application/vnd.ms-excel.sheet.macroenabled.12", ["xlsm"]),
        Entry("application/vnd.ms-excel.sheet.binary.macroenabled.12", ["xlsb"]),
        Entry("application/vnd.openxmlformats-officedocument.presentationml.presentation", ["pptx"]),
        Entry("application/vnd.openxmlformats-officedocument.presentationml.slideshow", ["ppsx"]),
        Entry("application/vnd.openxmlformats-officedocument.presentationml.template", ["potx"]),
        Entry("application/vnd.ms-powerpoint.presentation.macroenabled.12", ["pptm"]),
        Entry("application/epub+zip", ["epub"]),
        Entry("application/vnd.oasis.opendocument.text", ["odt"]),
        Entry("application/vnd.oasis.opendocument.text-template", ["ott"]),
        Entry("application/vnd.oasis.opendocument.text-master", ["odm"]),
        Entry("application/vnd.oasis.opendocument.spreadsheet", ["ods"]),
        Entry("application/vnd.oasis.opendocument.spreadsheet-template", ["ots"]),
        Entry("application/vnd.oasis.opendocument.presentation", ["odp"]),
        Entry("application/vnd.oasis.opendocument.presentation-template", ["otp"]),
        Entry("application/vnd.oasis.opendocument.graphics", ["odg"]),
        Entry("application/vnd.oasis.opendocument.graphics-template", ["otg"]),
        Entry("application/vnd.oasis.opendocument.formula", ["odf"]),
        Entry("application/vnd.oasis.opendocument.chart", ["odc"]),
        Entry("application/vnd.oasis.opendocument.base", ["odb"]),
    ]

    private static let codeEntries: [Entry] = [
        Entry(
            "application/x-msdownload",
            ["exe", "dll", "sys", "scr", "cpl", "ocx", "drv", "efi"],
            aliases: [
                "application/vnd.microsoft.portable-executable", "application/x-dosexec", "application/x-msdos-program",
                "application/x-ms-dos-executable", "application/exe", "application/x-exe", "application/x-winexe",
            ]
        ),
        Entry(
            "application/x-executable",
            ["elf", "so", "o", "out", "axf", "prx"],
            aliases: [
                "application/x-elf", "application/x-sharedlib", "application/x-object", "application/x-pie-executable",
            ]
        ),
        Entry(
            "application/x-mach-binary",
            ["dylib", "macho"],
            aliases: ["application/x-mach-o", "application/x-mach-o-executable"]
        ),
        Entry("application/java-vm", ["class"], aliases: ["application/x-java-class", "application/x-java-vm"]),
        Entry("application/wasm", ["wasm"]),
        Entry("application/x-shockwave-flash", ["swf"], aliases: ["application/vnd.adobe.flash-movie"]),
        Entry(
            "application/java-archive",
            ["jar", "war", "ear"],
            aliases: ["application/x-java-archive", "application/x-jar"]
        ),
        Entry("application/vnd.android.package-archive", ["apk"]),
        Entry(
            "application/x-msi",
            ["msi", "msp", "mst"],
            aliases: ["application/x-ms-installer", "application/x-windows-installer"]
        ),
        Entry(
            "text/x-shellscript",
            ["sh", "bash", "zsh", "ksh", "csh", "command"],
            aliases: ["application/x-sh", "application/x-shellscript", "text/x-sh", "application/x-csh"]
        ),
        Entry(
            "text/x-python",
            ["py", "pyw"],
            aliases: ["text/x-script.python", "application/x-python", "text/python"]
        ),
        Entry("text/x-perl", ["pl", "pm"], aliases: ["application/x-perl", "text/perl"]),
        Entry("text/x-ruby", ["rb"], aliases: ["application/x-ruby", "text/ruby"]),
        Entry(
            "text/javascript",
            ["js", "mjs", "cjs"],
            aliases: [
                "application/javascript", "application/x-javascript", "text/ecmascript", "application/ecmascript",
            ]
        ),
        Entry(
            "text/x-php",
            ["php", "phtml", "php3", "php4", "php5", "php7", "phps", "pht"],
            aliases: ["application/x-httpd-php", "application/x-php", "text/php"]
        ),
    ]

    private static let textEntries: [Entry] = [
        Entry("text/html", ["html", "htm", "shtml"]),
        Entry("application/xhtml+xml", ["xhtml", "xht"]),
        Entry("text/xml", ["xml", "xsl", "xsd"], aliases: ["application/xml"]),
        Entry("text/plain", ["txt", "text", "log", "conf", "ini", "list"]),
        Entry("text/csv", ["csv"], aliases: ["application/csv", "text/x-csv", "text/comma-separated-values"]),
        Entry("text/tab-separated-values", ["tsv"]),
        Entry("application/json", ["json"], aliases: ["text/json"]),
        Entry("text/markdown", ["md", "markdown"], aliases: ["text/x-markdown"]),
        Entry("application/yaml", ["yaml", "yml"], aliases: ["text/yaml", "application/x-yaml", "text/x-yaml"]),
        Entry("text/css", ["css"]),
        Entry("application/vnd.sqlite3", ["sqlite", "sqlite3", "db", "db3"], aliases: ["application/x-sqlite3"]),
        Entry("application/octet-stream", ["bin"]),
    ]

    /// Types that content with a given extension may also sniff as, because the window cannot be more specific
    /// (a zip whose first entries do not reveal OOXML), or because the format is a variant (a HEIC saved as
    /// `.heif`, a TrueType-flavoured `.otf`), or because sniffing finds no marker (a `.csv` is `text/plain`).
    static let fallbacks: [String: [String]] = {
        let zip = "application/zip"
        let cfb = "application/x-ole-storage"
        let text = "text/plain"
        let docx = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
        let xlsx = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        let pptx = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
        var table: [String: [String]] = [
            "heif": ["image/heic"], "heifs": ["image/heic"], "hif": ["image/heic"],
            "heic": ["image/heif"], "heics": ["image/heif"],
            "svg": ["text/xml"], "svgz": ["application/gzip"],
            "m4a": ["video/mp4"], "m4b": ["video/mp4"], "m4p": ["video/mp4"], "m4v": ["video/quicktime"],
            "3gp": ["video/mp4"], "3g2": ["video/mp4"], "mov": ["video/mp4"],
            "ogg": ["application/ogg", "video/ogg"], "oga": ["application/ogg"], "opus": ["application/ogg"],
            "spx": ["application/ogg"], "ogv": ["application/ogg"], "ogx": ["audio/ogg", "video/ogg"],
            "ttf": ["font/otf"], "otf": ["font/ttf"],
            "docx": [zip], "xlsx": [zip], "pptx": [zip], "epub": [zip], "jar": [zip], "war": [zip], "ear": [zip],
            "apk": ["application/java-archive", zip],
            "docm": [docx, zip], "dotx": [docx, zip], "dotm": [docx, zip],
            "xlsm": [xlsx, zip], "xltx": [xlsx, zip], "xlsb": [xlsx, zip],
            "pptm": [pptx, zip], "ppsx": [pptx, zip], "potx": [pptx, zip],
            "doc": [cfb], "dot": [cfb], "xls": [cfb], "xlt": [cfb], "xla": [cfb], "ppt": [cfb], "pps": [cfb],
            "pot": [cfb], "msg": [cfb], "msi": [cfb], "msp": [cfb], "mst": [cfb],
            "o": ["application/x-mach-binary"], "bin": ["application/x-executable"],
            "dmg": ["application/octet-stream"], "iso": ["application/octet-stream"],
            "html": ["application/xhtml+xml", text], "htm": ["application/xhtml+xml", text],
            "xhtml": ["text/xml", "text/html"], "xht": ["text/xml", "text/html"],
            "xml": [text], "xsl": [text], "xsd": [text],
            "php": [text, "text/html"], "phtml": [text, "text/html"],
        ]
        for textual in [
            "csv", "tsv", "json", "md", "markdown", "yaml", "yml", "css", "js", "mjs", "cjs", "sh", "bash", "zsh",
            "ksh", "csh", "command", "py", "pyw", "pl", "pm", "rb",
        ] {
            table[textual, default: []].append(text)
        }
        for odf in ["odt", "ott", "odm", "ods", "ots", "odp", "otp", "odg", "otg", "odf", "odc", "odb"] {
            table[odf] = [zip]
        }
        return table
    }()
}
