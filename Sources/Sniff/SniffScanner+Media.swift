// Rules for audio and video: the WHATWG audio/video table, its MP4 / WebM / MP3-without-ID3 algorithms, and
// FLAC, Ogg codec refinement, Matroska and headerless QuickTime.

extension SniffScanner {
    private static let oggMagic: [UInt8] = [0x4F, 0x67, 0x67, 0x53, 0x00]
    private static let midiMagic: [UInt8] = [0x4D, 0x54, 0x68, 0x64, 0x00, 0x00, 0x00, 0x06]
    private static let ebmlMagic: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3]
    private static let ebmlDocTypeID: [UInt8] = [0x42, 0x82]
    private static let flacStreamInfoLength: [UInt8] = [0x00, 0x00, 0x22]
    private static let vorbisHeader: [UInt8] = [0x01, 0x76, 0x6F, 0x72, 0x62, 0x69, 0x73]
    private static let theoraHeader: [UInt8] = [0x80, 0x74, 0x68, 0x65, 0x6F, 0x72, 0x61]
    private static let oggFLACHeader: [UInt8] = [0x7F, 0x46, 0x4C, 0x41, 0x43]
    /// Atom types that open a QuickTime movie written without an `ftyp` box.
    private static let quickTimeAtoms: [StaticString] = ["moov", "mdat", "wide", "free", "skip", "pnot"]
    /// How far into an EBML header the DocType element is looked for (WHATWG uses 38; header fields written
    /// with long size fields need a little more).
    private static let ebmlDocTypeSearchLimit = 64
    /// Layer III bit rates in kbit/s by index, for MPEG-1 and for MPEG-2/2.5.
    private static let mpeg1LayerIIIBitRates = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
    private static let mpeg2LayerIIIBitRates = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
    /// MPEG-1 sample rates by index; MPEG-2 halves them and MPEG-2.5 quarters them.
    private static let mpeg1SampleRates = [44100, 48000, 32000]

    /// AU, AIFF, ID3, Ogg, MIDI, AVI, WAVE (WHATWG table order), FLAC, ISO-BMFF, EBML, QuickTime, bare MP3.
    mutating func matchAudioOrVideo() -> Match? {
        // The encoding field (1...27) keeps text that starts with ".snd" out.
        if matches(".snd", at: 0), let encoding = uint32BE(12), (1...27).contains(encoding) {
            return (.basicAudio, "snd")
        }
        if matches("FORM", at: 0) && (matches("AIFF", at: 8) || matches("AIFC", at: 8)) { return (.aiff, "aiff") }
        // ID3v2.2-2.4 version bytes keep text that starts with "ID3" out.
        if matches("ID3", at: 0), let major = byte(3), (2...4).contains(major), let revision = byte(4),
            revision != 0xFF
        {
            return (.mpegAudio, "id3")
        }
        if matches(Self.oggMagic, at: 0) { return matchOggStream() }
        if matches(Self.midiMagic, at: 0) { return (.midi, "midi") }
        if matches("RIFF", at: 0) {
            if matches("AVI ", at: 8) { return (.avi, "avi") }
            if matches("WAVE", at: 8) { return (.wav, "wave") }
        }
        if matches("fLaC", at: 0), let blockType = byte(4), blockType & 0x7F == 0,
            matches(Self.flacStreamInfoLength, at: 5)
        {
            return (.flac, "flac")
        }
        if let match = matchISOBaseMedia() { return match }
        if let match = matchEBML() { return match }
        if let match = matchHeaderlessQuickTime() { return match }
        if matchesMP3WithoutID3() { return (.mpegAudio, "mp3-frames") }
        return nil
    }

    /// Ogg, refined by the codec of the first packet of the first page: audio/ogg for Vorbis, Opus, Speex and
    /// FLAC, video/ogg for Theora, application/ogg otherwise.
    private mutating func matchOggStream() -> Match {
        guard let segmentCount = byte(26) else { return (.ogg, "ogg") }
        let packet = 27 + Int(segmentCount)
        if matches(Self.vorbisHeader, at: packet) || matches("OpusHead", at: packet)
            || matches("Speex   ", at: packet) || matches(Self.oggFLACHeader, at: packet)
        {
            return (.oggAudio, "ogg-audio")
        }
        if matches(Self.theoraHeader, at: packet) { return (.oggVideo, "ogg-video") }
        return (.ogg, "ogg")
    }

    /// The WHATWG WebM algorithm, extended to Matroska: find the DocType element (0x4282) in the EBML header and
    /// compare its value, allowing NUL padding, with "webm" or "matroska".
    private mutating func matchEBML() -> Match? {
        guard matches(Self.ebmlMagic, at: 0) else { return nil }
        var index = 4
        while index < Self.ebmlDocTypeSearchLimit {
            guard has(index) else { return nil }
            if matches(Self.ebmlDocTypeID, at: index) {
                guard let (size, sizeLength) = readVariableSizeInteger(at: index + 2) else { return nil }
                let value = index + 2 + sizeLength
                guard size <= 32, has(value, length: size) else { return nil }
                var start = value
                var end = value + size
                while start < end && bytes[start] == 0 { start += 1 }
                while end > start && bytes[end - 1] == 0 { end -= 1 }
                if end - start == 4 && matches("webm", at: start) { return (.webm, "webm") }
                if end - start == 8 && matches("matroska", at: start) { return (.matroska, "matroska") }
                return nil
            }
            index += 1
        }
        return nil
    }

    /// An EBML variable-size integer: its value and its length in bytes (1...8).
    private mutating func readVariableSizeInteger(at offset: Int) -> (Int, Int)? {
        guard let first = byte(offset), first != 0 else { return nil }
        var length = 1
        var marker: UInt8 = 0x80
        while first & marker == 0 {
            marker >>= 1
            length += 1
        }
        var value = Int(first & (marker - 1))
        for index in offset + 1..<offset + length {
            guard let next = byte(index) else { return nil }
            value = value << 8 | Int(next)
        }
        return (value, length)
    }

    /// A QuickTime movie that starts with a classic atom instead of `ftyp`. The size's first byte must be 0 so
    /// that text (e.g. "I'm free") cannot match.
    private mutating func matchHeaderlessQuickTime() -> Match? {
        guard let first = byte(0), first == 0, let size = uint32BE(0), size >= 8 else { return nil }
        for atom in Self.quickTimeAtoms where matches(atom, at: 4) { return (.quickTime, "qt-atom") }
        return nil
    }

    /// MP3 without an ID3 tag: an MPEG Layer III frame header at offset 0 and another one where that frame ends,
    /// or a complete resource that is exactly one frame. (The largest frame, 1441 bytes, plus a header is the
    /// WHATWG window size, so the second header always falls inside a full window.)
    private mutating func matchesMP3WithoutID3() -> Bool {
        guard let frameLength = mp3FrameLength(at: 0) else { return false }
        if mp3FrameLength(at: frameLength) != nil { return true }
        return isComplete && count == frameLength
    }

    /// The length of the MPEG-1/2/2.5 Layer III frame whose header starts at `offset`, or nil if there is none.
    private mutating func mp3FrameLength(at offset: Int) -> Int? {
        guard let sync = byte(offset), sync == 0xFF, let second = byte(offset + 1), second & 0xE0 == 0xE0,
            let third = byte(offset + 2), let fourth = byte(offset + 3)
        else { return nil }
        let version = (second >> 3) & 0x03  // 0: MPEG-2.5, 1: reserved, 2: MPEG-2, 3: MPEG-1
        let layer = (second >> 1) & 0x03  // 1: Layer III
        let bitRateIndex = Int(third >> 4)
        let sampleRateIndex = Int((third >> 2) & 0x03)
        let padding = Int((third >> 1) & 0x01)
        guard version != 1, layer == 1, (1...14).contains(bitRateIndex), sampleRateIndex < 3,
            fourth & 0x03 != 2  // reserved emphasis
        else { return nil }
        let isMPEG1 = version == 3
        let bitRate = (isMPEG1 ? Self.mpeg1LayerIIIBitRates : Self.mpeg2LayerIIIBitRates)[bitRateIndex] * 1000
        let sampleRate = Self.mpeg1SampleRates[sampleRateIndex] >> (isMPEG1 ? 0 : version == 2 ? 1 : 2)
        return (isMPEG1 ? 144 : 72) * bitRate / sampleRate + padding
    }
}
