// Catalog: images, audio, video and fonts.

extension SniffedType {
    /// PNG (also APNG).
    public static let png = SniffedType("image/png", .image)
    /// JPEG / JFIF / Exif.
    public static let jpeg = SniffedType("image/jpeg", .image)
    /// GIF87a and GIF89a.
    public static let gif = SniffedType("image/gif", .image)
    /// WebP in a RIFF container.
    public static let webp = SniffedType("image/webp", .image)
    /// Windows bitmap.
    public static let bmp = SniffedType("image/bmp", .image)
    /// Windows icon and cursor (the WHATWG name; IANA's is image/vnd.microsoft.icon).
    public static let icon = SniffedType("image/x-icon", .image)
    /// TIFF and BigTIFF (and TIFF-based camera raw files).
    public static let tiff = SniffedType("image/tiff", .image)
    /// AVIF (ISO-BMFF brands `avif`, `avis`).
    public static let avif = SniffedType("image/avif", .image)
    /// HEIC (ISO-BMFF brands `heic`, `heix`, `heim`, `heis`, `hevc`, `hevx`).
    public static let heic = SniffedType("image/heic", .image)
    /// HEIF of no more specific brand (`mif1`, `msf1`).
    public static let heif = SniffedType("image/heif", .image)
    /// JPEG XL, bare codestream or ISO-BMFF container.
    public static let jpegXL = SniffedType("image/jxl", .image)
    /// Adobe Photoshop document.
    public static let photoshop = SniffedType("image/vnd.adobe.photoshop", .image)
    /// SVG; scriptable, see `isScriptable`.
    public static let svg = SniffedType("image/svg+xml", .image)

    /// Sun/NeXT audio (`.snd`).
    public static let basicAudio = SniffedType("audio/basic", .audio)
    /// AIFF and AIFF-C.
    public static let aiff = SniffedType("audio/aiff", .audio)
    /// MPEG audio (MP3), with or without an ID3v2 tag.
    public static let mpegAudio = SniffedType("audio/mpeg", .audio)
    /// Ogg whose first stream is Vorbis, Opus, Speex or FLAC.
    public static let oggAudio = SniffedType("audio/ogg", .audio)
    /// Standard MIDI file.
    public static let midi = SniffedType("audio/midi", .audio)
    /// RIFF WAVE (canonical "audio/wav"; WHATWG says audio/wave).
    public static let wav = SniffedType("audio/wav", .audio)
    /// Native FLAC.
    public static let flac = SniffedType("audio/flac", .audio)
    /// MPEG-4 audio (ISO-BMFF major brand `M4A `, `M4B `, `M4P `).
    public static let mp4Audio = SniffedType("audio/mp4", .audio)
    /// AMR narrow-band.
    public static let amr = SniffedType("audio/amr", .audio)
    /// AMR wide-band.
    public static let amrWB = SniffedType("audio/amr-wb", .audio)
    /// AVI (canonical "video/x-msvideo"; WHATWG says video/avi).
    public static let avi = SniffedType("video/x-msvideo", .video)
    /// MPEG-4 video and generic ISO-BMFF media.
    public static let mp4 = SniffedType("video/mp4", .video)
    /// QuickTime movie.
    public static let quickTime = SniffedType("video/quicktime", .video)
    /// 3GPP.
    public static let threeGPP = SniffedType("video/3gpp", .video)
    /// 3GPP2.
    public static let threeGPP2 = SniffedType("video/3gpp2", .video)
    /// WebM (EBML DocType `webm`).
    public static let webm = SniffedType("video/webm", .video)
    /// Matroska (EBML DocType `matroska`).
    public static let matroska = SniffedType("video/x-matroska", .video)
    /// Ogg whose first stream is Theora.
    public static let oggVideo = SniffedType("video/ogg", .video)
    /// Ogg of another or unknown first stream (e.g. a Skeleton track).
    public static let ogg = SniffedType("application/ogg", .video)

    /// TrueType (sfnt version 1.0 or `true`).
    public static let ttf = SniffedType("font/ttf", .font)
    /// OpenType with CFF outlines (`OTTO`).
    public static let otf = SniffedType("font/otf", .font)
    /// TrueType/OpenType collection (`ttcf`).
    public static let fontCollection = SniffedType("font/collection", .font)
    /// WOFF 1.0.
    public static let woff = SniffedType("font/woff", .font)
    /// WOFF 2.0.
    public static let woff2 = SniffedType("font/woff2", .font)
    /// Embedded OpenType.
    public static let eot = SniffedType("application/vnd.ms-fontobject", .font)

    /// Every image type.
    public static let images: [SniffedType] = [
        .png, .jpeg, .gif, .webp, .bmp, .icon, .tiff, .avif, .heic, .heif, .jpegXL, .photoshop, .svg,
    ]
    /// Every audio and video type.
    public static let audioAndVideo: [SniffedType] = [
        .basicAudio, .aiff, .mpegAudio, .oggAudio, .midi, .wav, .flac, .mp4Audio, .amr, .amrWB,
        .avi, .mp4, .quickTime, .threeGPP, .threeGPP2, .webm, .matroska, .oggVideo, .ogg,
    ]
    /// Every font type.
    public static let fonts: [SniffedType] = [.ttf, .otf, .fontCollection, .woff, .woff2, .eot]
}
