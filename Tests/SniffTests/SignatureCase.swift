import Sniff
import Testing

/// One fixture per sniffing signature: the bytes and the type and rule name they must give.
struct SignatureCase: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let type: SniffedType
    let signature: String

    init(_ name: String, _ bytes: [UInt8], _ type: SniffedType, _ signature: String) {
        self.name = name
        self.bytes = bytes
        self.type = type
        self.signature = signature
    }

    var testDescription: String { name }

    /// Every case, across all families.
    static let all: [SignatureCase] = images + media + fonts + archives + executables + scripts + documents

    static let images: [SignatureCase] = {
        typealias F = Fixture
        return [
            .init("ICO", [0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0] + F.le32(0x468) + F.le32(22), .icon, "ico"),
            .init("CUR", [0, 0, 2, 0, 1, 0, 32, 32, 0, 0, 1, 0, 1, 0] + F.le32(0x130) + F.le32(22), .icon, "ico"),
            .init(
                "BMP",
                F.ascii("BM") + F.le32(70) + F.le32(0) + F.le32(54) + F.le32(40) + F.le32(1) + F.le32(1),
                .bmp,
                "bmp"
            ),
            .init("GIF87a", F.ascii("GIF87a") + [1, 0, 1, 0, 0x80, 0, 0], .gif, "gif"),
            .init(
                "GIF89a",
                F.ascii("GIF89a") + [1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x21, 0xF9],
                .gif,
                "gif"
            ),
            .init(
                "WebP",
                F.ascii("RIFF") + F.le32(26) + F.ascii("WEBPVP8 ") + F.le32(14) + [0x30, 0x01, 0, 0x9D],
                .webp,
                "webp"
            ),
            .init("PNG", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + F.be32(13) + F.ascii("IHDR"), .png, "png"),
            .init(
                "JPEG",
                [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + F.ascii("JFIF\0") + [1, 1, 0, 0, 1, 0, 1, 0, 0],
                .jpeg,
                "jpeg"
            ),
            .init("TIFF LE", F.ascii("II*\0") + F.le32(8) + F.le16(0), .tiff, "tiff"),
            .init("TIFF BE", F.ascii("MM\0*") + F.be32(8) + [0, 0], .tiff, "tiff"),
            .init("BigTIFF", F.ascii("II+\0") + F.le16(8) + F.le16(0) + F.le32(16) + F.le32(0), .tiff, "tiff"),
            .init("JPEG XL codestream", [0xFF, 0x0A, 0xFA, 0x7F, 0x01, 0x90], .jpegXL, "jxl"),
            .init(
                "JPEG XL container",
                F.be32(12) + F.ascii("JXL ") + [0x0D, 0x0A, 0x87, 0x0A] + F.be32(20) + F.ascii("ftypjxl "),
                .jpegXL,
                "jxl"
            ),
            .init(
                "Photoshop",
                F.ascii("8BPS") + [0, 1, 0, 0, 0, 0, 0, 0, 0, 3] + F.be32(1) + F.be32(1),
                .photoshop,
                "psd"
            ),
            .init("SVG", F.ascii("<svg xmlns=\"http://www.w3.org/2000/svg\"><rect/></svg>"), .svg, "svg-root"),
        ]
    }()

    static let media: [SignatureCase] = {
        typealias F = Fixture
        return [
            .init(
                "AU",
                F.ascii(".snd") + F.be32(24) + F.be32(-1 & 0xFFFF_FFFF) + F.be32(3) + F.be32(8000) + F.be32(1),
                .basicAudio,
                "snd"
            ),
            .init("AIFF", F.ascii("FORM") + F.be32(46) + F.ascii("AIFFCOMM") + F.be32(18) + [0, 1], .aiff, "aiff"),
            .init("AIFF-C", F.ascii("FORM") + F.be32(46) + F.ascii("AIFCFVER") + F.be32(4), .aiff, "aiff"),
            .init(
                "MP3 with ID3v2.4",
                F.ascii("ID3") + [4, 0, 0, 0, 0, 0x02, 0x01] + F.ascii("TIT2"),
                .mpegAudio,
                "id3"
            ),
            .init(
                "Ogg Vorbis",
                F.oggPage(packet: [0x01] + F.ascii("vorbis") + F.le32(0) + [2]),
                .oggAudio,
                "ogg-audio"
            ),
            .init("Ogg Opus", F.oggPage(packet: F.ascii("OpusHead") + [1, 2, 0x38, 0x01]), .oggAudio, "ogg-audio"),
            .init("Ogg FLAC", F.oggPage(packet: [0x7F] + F.ascii("FLAC") + [1, 0, 0, 1]), .oggAudio, "ogg-audio"),
            .init("Ogg Theora", F.oggPage(packet: [0x80] + F.ascii("theora") + [3, 2, 1]), .oggVideo, "ogg-video"),
            .init("Ogg Skeleton", F.oggPage(packet: F.ascii("fishead\0") + [3, 0, 0, 0]), .ogg, "ogg"),
            .init("MIDI", F.ascii("MThd") + F.be32(6) + [0, 1, 0, 2, 0, 0x60] + F.ascii("MTrk"), .midi, "midi"),
            .init(
                "AVI",
                F.ascii("RIFF") + F.le32(2048) + F.ascii("AVI LIST") + F.le32(192) + F.ascii("hdrl"),
                .avi,
                "avi"
            ),
            .init(
                "WAVE",
                F.ascii("RIFF") + F.le32(36) + F.ascii("WAVEfmt ") + F.le32(16) + [1, 0, 1, 0],
                .wav,
                "wave"
            ),
            .init("FLAC", F.ascii("fLaC") + [0x80, 0, 0, 0x22] + [UInt8](repeating: 0x10, count: 34), .flac, "flac"),
            .init("MP4 (isom)", F.ftyp("isom", ["isom", "iso2", "avc1", "mp41"]), .mp4, "ftyp-mp4"),
            .init("MP4 (mp42 major, WHATWG)", F.ftyp("mp42", ["mp42", "isom"]), .mp4, "ftyp-mp4"),
            .init("MP4 (mp4 only as compatible)", F.ftyp("XAVC", ["XAVC", "mp42"]), .mp4, "ftyp-mp4"),
            .init("QuickTime ftyp", F.ftyp("qt  ", ["qt  "]), .quickTime, "ftyp-qt"),
            .init("M4A", F.ftyp("M4A ", ["M4A ", "mp42", "isom"]), .mp4Audio, "ftyp-m4a"),
            .init("3GP", F.ftyp("3gp4", ["isom", "3gp4"]), .threeGPP, "ftyp-3gp"),
            .init("3G2", F.ftyp("3g2a", ["3g2a"]), .threeGPP2, "ftyp-3g2"),
            .init("AVIF", F.ftyp("avif", ["mif1", "avif", "miaf", "MA1B"]), .avif, "ftyp-avif"),
            .init("AVIF sequence", F.ftyp("avis", ["avis", "msf1", "miaf"]), .avif, "ftyp-avif"),
            .init("HEIC", F.ftyp("heic", ["mif1", "heic"]), .heic, "ftyp-heic"),
            .init("HEIC sequence", F.ftyp("hevc", ["msf1", "hevc"]), .heic, "ftyp-heic"),
            .init("HEIC under mif1", F.ftyp("mif1", ["mif1", "heic"]), .heic, "ftyp-heic"),
            .init("AVIF under mif1", F.ftyp("mif1", ["mif1", "miaf", "avif"]), .avif, "ftyp-avif"),
            .init("HEIF (mif1 only)", F.ftyp("mif1", ["mif1", "miaf"]), .heif, "ftyp-heif"),
            .init("WebM", F.ebml(docType: "webm"), .webm, "webm"),
            .init("Matroska", F.ebml(docType: "matroska"), .matroska, "matroska"),
            .init(
                "QuickTime without ftyp",
                F.be32(8) + F.ascii("wide") + F.be32(1024) + F.ascii("mdat"),
                .quickTime,
                "qt-atom"
            ),
            .init("MP3 without ID3", F.mp3Frame + F.mp3Frame, .mpegAudio, "mp3-frames"),
            .init("AMR", F.ascii("#!AMR\n") + [0x3C, 0x48, 0xF5, 0x1F], .amr, "amr"),
            .init("AMR-WB", F.ascii("#!AMR-WB\n") + [0x04, 0x10, 0x20], .amrWB, "amr-wb"),
        ]
    }()

    static let fonts: [SignatureCase] = {
        typealias F = Fixture
        let eot =
            F.le32(5000) + F.le32(4800) + F.le32(0x0002_0001) + F.le32(0) + [UInt8](repeating: 2, count: 10)
            + [1, 0] + F.le32(400) + F.le16(0) + F.ascii("LP") + F.le32(0)
        return [
            .init("EOT", eot, .eot, "eot"),
            .init("TrueType", [0, 1, 0, 0, 0, 0x0A, 0, 0x80, 0, 3, 0, 0x20] + F.ascii("OS/2"), .ttf, "ttf"),
            .init("TrueType (Apple 'true')", F.ascii("true") + [0, 0x0B, 0, 0x80, 0, 3, 0, 0x30], .ttf, "ttf"),
            .init("OpenType CFF", F.ascii("OTTO") + [0, 0x0C, 0, 0x80, 0, 3, 0, 0x40] + F.ascii("CFF "), .otf, "otf"),
            .init(
                "TrueType collection",
                F.ascii("ttcf") + [0, 1, 0, 0] + F.be32(2) + F.be32(20),
                .fontCollection,
                "ttc"
            ),
            .init("WOFF", F.ascii("wOFF") + [0, 1, 0, 0] + F.be32(0x1234) + [0, 0x0A, 0, 0], .woff, "woff"),
            .init("WOFF2", F.ascii("wOF2") + F.ascii("OTTO") + F.be32(0x2000) + [0, 0x0C, 0, 0], .woff2, "woff2"),
        ]
    }()
}
