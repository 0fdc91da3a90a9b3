#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension MultipartParser {
    /// Reads header lines until the blank line that ends the section.
    mutating func scanHeaders<Handler: MultipartHandler>(
        _ span: UnsafeRawBufferPointer, _ start: Int, _ handler: inout Handler
    ) throws(MultipartError) -> Int {
        let base = span.baseAddress!
        var index = start
        while index < span.count {
            // The blank line that ends the section, when it is whole in this span: no search needed.
            if !head.hasPartialLine {
                let crlf = lineMode == .crlf
                let length = crlf ? 2 : 1
                if index + length <= span.count, crlf ? span[index] == 13 && span[index + 1] == 10 : span[index] == 10 {
                    try addHeaderBytes(length)
                    try finishHead(&handler)
                    return index + length
                }
            }
            guard let hit = memchr(base + index, 10, span.count - index) else {
                try addHeaderBytes(span.count - index)
                head.appendPartial(UnsafeRawBufferPointer(rebasing: span[index...]))
                return span.count
            }
            let end = UnsafeRawPointer(hit) - base
            try addHeaderBytes(end + 1 - index)
            if !head.hasPartialLine {
                let line = UnsafeRawBufferPointer(rebasing: span[index..<end])
                switch try headerLine(line, &handler) {
                case nil:
                    break
                case .field(let name, let value)?:
                    head.append(name: UnsafeRawBufferPointer(rebasing: line[name]),
                                value: UnsafeRawBufferPointer(rebasing: line[value]))
                case .continuation(let value)?:
                    head.continueLast(UnsafeRawBufferPointer(rebasing: line[value]))
                case .endOfHead?:
                    try finishHead(&handler)
                }
            } else {
                head.appendPartial(UnsafeRawBufferPointer(rebasing: span[index..<end]))
                // The line lies in the head buffer's array, which is lent out while the line is read.
                var line = head.detachPartialLine()
                let action: HeaderLineAction?
                do {
                    action = try withRawBytes(line.storage) { (bytes) throws(MultipartError) -> HeaderLineAction? in
                        try headerLine(UnsafeRawBufferPointer(rebasing: bytes[line.range]), &handler)
                    }
                } catch {
                    head.reattach(&line, recording: nil)
                    throw error
                }
                head.reattach(&line, recording: action)
                if case .endOfHead? = action { try finishHead(&handler) }
            }
            head.lineStart = spanOffset + Int64(end + 1)
            index = end + 1
            if case .body = state { return index }
        }
        return index
    }

    @inline(__always)
    private mutating func addHeaderBytes(_ count: Int) throws(MultipartError) {
        head.totalBytes += count
        if head.totalBytes > limits.partHeaderBytes {
            throw MultipartError(.limit(.partHeaderBytes), part: currentPart, offset: head.lineStart)
        }
    }

    /// One header line, without its LF (a trailing CR is the CRLF's). One pass over the bytes. The blank line
    /// comes back as `.endOfHead`, and in the deferred mode the field (or continuation) to record, in offsets from
    /// the line's start, for the caller to record from wherever the line lies.
    private mutating func headerLine<Handler: MultipartHandler>(
        _ raw: UnsafeRawBufferPointer, _ handler: inout Handler
    ) throws(MultipartError) -> HeaderLineAction? {
        let at = head.lineStart
        var count = raw.count
        let lf = count == 0 || raw[count - 1] != 13
        if !lf { count -= 1 }
        if lineMode != (lf ? .lf : .crlf) {
            try checkLineEnding(lf: lf, at: at + Int64(raw.count), &handler)
        }
        if let deferred = deferredError {
            // The previous field was refused; if this line continues it, the real problem is the folding.
            if count > 0, HeaderSyntax.isWhitespace(raw[0]) {
                throw MultipartError(.flag(.headerFolding), part: currentPart, offset: at)
            }
            throw deferred
        }
        if count == 0 {
            return .endOfHead
        }
        head.lines += 1
        if head.lines > limits.headerLines {
            throw MultipartError(.limit(.headerLines), part: currentPart, offset: at)
        }
        let line = UnsafeRawBufferPointer(rebasing: raw[0..<count])
        if HeaderSyntax.isWhitespace(line[0]) {
            let value = try headerValue(line, from: 0, at: at)
            guard deferHeaders, head.hasFields else {
                throw MultipartError(.flag(.headerFolding), part: currentPart, offset: at)
            }
            handler.violation(MultipartViolation(flag: .headerFolding, part: currentPart, offset: at))
            return .continuation(value: value)
        }
        if !deferHeaders, !pending.hasDisposition, let fast = DispositionFastPath.parse(line) {
            pending.hasDisposition = true
            pending.name = String(decoding: UnsafeRawBufferPointer(rebasing: line[fast.name]), as: UTF8.self)
            if let filename = fast.filename {
                pending.filename = String(decoding: UnsafeRawBufferPointer(rebasing: line[filename]), as: UTF8.self)
            }
            return nil
        }
        var colon = 0
        while colon < count, HeaderSyntax.isTokenChar(line[colon]) { colon += 1 }
        guard colon > 0, colon < count, line[colon] == UInt8(ascii: ":") else {
            let flag: StrictFlag = line.contains(where: HeaderSyntax.isControl) ? .headerCTL : .invalidHeader
            throw MultipartError(.flag(flag), part: currentPart, offset: at + Int64(colon))
        }
        let value = try headerValue(line, from: colon + 1, at: at)
        if deferHeaders {
            return .field(name: 0..<colon, value: value)
        }
        do {
            try interpretField(name: UnsafeRawBufferPointer(rebasing: line[0..<colon]),
                               value: UnsafeRawBufferPointer(rebasing: line[value]), &handler)
        } catch {
            // Reported once the next line shows whether this field was folded (then header_folding is
            // the flag to name, not whatever the truncated value looked like).
            deferredError = error
        }
        return nil
    }

    /// The OWS-trimmed value from `start` to the end of `line`, as offsets into it; rejects control characters.
    @inline(__always)
    private func headerValue(
        _ line: UnsafeRawBufferPointer, from start: Int, at: Int64
    ) throws(MultipartError) -> Range<Int> {
        var lower = start
        while lower < line.count, HeaderSyntax.isWhitespace(line[lower]) { lower += 1 }
        var upper = lower
        var index = lower
        while index < line.count {
            let byte = line[index]
            index += 1
            if byte > 0x20 && byte != 0x7F {
                upper = index
            } else if byte != 0x20 && byte != 0x09 {
                throw MultipartError(.flag(.headerCTL), part: currentPart, offset: at + Int64(index - 1))
            }
        }
        return lower..<upper
    }

    /// True when header lines are kept raw until the blank line, so that an obs-fold continuation can
    /// still be joined to the line before it (only when `header_folding` is normalized).
    var deferHeaders: Bool { foldingNormalized }

    /// The blank line: interpret deferred fields and emit the part head.
    private mutating func finishHead<Handler: MultipartHandler>(_ handler: inout Handler) throws(MultipartError) {
        if let deferredError { throw deferredError }
        if deferHeaders {
            let buffer = head.bytes
            for field in head.recordedFields {
                try withRawBytes(buffer) { (bytes) throws(MultipartError) in
                    try interpretField(name: UnsafeRawBufferPointer(rebasing: bytes[field.name]),
                                       value: UnsafeRawBufferPointer(rebasing: bytes[field.value]), &handler)
                }
            }
        }
        guard pending.hasDisposition, let name = pending.name.take() else {
            throw MultipartError(.flag(.missingContentDisposition), part: partCount - 1, offset: partOffset)
        }
        // Move the pending values into the head: no copies, no reference counting.
        var others: [PartHeader] = []
        swap(&others, &pending.others)
        let filename = pending.filename.take()
        currentIsField = filename == nil
        currentBodyBytes = 0
        state = .body
        if let filename, filename.isEmpty {
            // `filename=""`: a file input left empty, unless content follows (`empty_filename`). The head waits
            // for the part's first byte or its end.
            heldHead = PartHead(
                index: partCount - 1, name: name, filename: filename, contentType: pending.contentType.take(),
                headers: others, offset: partOffset)
            holdsHead = true
            return
        }
        // Made in the call: a head bound to a local first was copied into the call and the local destroyed. The
        // values are consumed: without that, the head made of them was copied for the call and then destroyed.
        handler.partHead(
            PartHead(index: partCount - 1, name: consume name, filename: consume filename,
                     contentType: pending.contentType.take(), headers: consume others, offset: partOffset))
    }

    /// Emits the head held for `filename=""` (``heldHead``): as it is when the part ended empty, else per
    /// `empty_filename`, whose offset is the part's first content byte.
    mutating func releaseHeldHead<Handler: MultipartHandler>(
        contentAt offset: Int64?, _ handler: inout Handler
    ) throws(MultipartError) {
        holdsHead = false
        guard var head = heldHead.take() else { return }
        if let offset {
            try normalizeOrReject(.emptyFilename, part: head.index, at: offset, &handler)
            if actions[.emptyFilename] == .normalize { head.filename = StrictFlag.emptyFilenameReplacement }
        }
        handler.partHead(head)
    }

    /// Interprets one complete header field of the current part.
    private mutating func interpretField<Handler: MultipartHandler>(
        name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, _ handler: inout Handler
    ) throws(MultipartError) {
        let part = partCount - 1
        let at = partOffset
        if HeaderSyntax.equalsLowercase(name, "content-disposition") {
            guard !pending.hasDisposition else {
                throw MultipartError(.flag(.duplicateContentDisposition), part: part, offset: at)
            }
            pending.hasDisposition = true
            try interpretDisposition(value, &handler)
        } else if HeaderSyntax.equalsLowercase(name, "content-type") {
            guard !pending.hasContentType else {
                throw MultipartError(.flag(.duplicateContentType), part: part, offset: at)
            }
            pending.hasContentType = true
            let canonical: PartContentType.Canonical
            do {
                canonical = try PartContentType.canonical(value)
            } catch {
                throw MultipartError(.flag(error.flag), part: part, offset: at)
            }
            if canonical.isMultipart {
                try normalizeOrReject(.nestedMultipart, part: part, at: at, &handler)
            }
            pending.contentType = canonical.value
        } else if HeaderSyntax.equalsLowercase(name, "content-transfer-encoding") {
            guard !pending.hasTransferEncoding else {
                throw MultipartError(.flag(.contentTransferEncoding), part: part, offset: at)
            }
            pending.hasTransferEncoding = true
            let identity = HeaderSyntax.equalsLowercase(value, "7bit") || HeaderSyntax.equalsLowercase(value, "8bit")
                || HeaderSyntax.equalsLowercase(value, "binary")
            guard identity else {
                throw MultipartError(.flag(.contentTransferEncoding), part: part, offset: at)
            }
            try normalizeOrReject(.contentTransferEncoding, part: part, at: at, &handler)
        } else {
            pending.others.append(PartHeader(name: String(decoding: name, as: UTF8.self),
                                             value: String(decoding: value, as: UTF8.self)))
        }
    }

    /// The general Content-Disposition path: every parameter form the strict parser accepts.
    private mutating func interpretDisposition<Handler: MultipartHandler>(
        _ value: UnsafeRawBufferPointer, _ handler: inout Handler
    ) throws(MultipartError) {
        let part = partCount - 1
        let at = partOffset
        let ranges: ContentDisposition.Ranges
        do {
            ranges = try ContentDisposition.scanRanges(value)
        } catch {
            throw MultipartError(.flag(error.flag), part: part, offset: at)
        }
        // A malformed `filename*` is a syntax error of the whole value, as `ContentDisposition.parse`
        // reports it: decode it before judging the name, so both readings name the same flag.
        var decoded: [UInt8] = []
        if ranges.filename == nil, let range = ranges.extendedFilename {
            do {
                decoded = try ContentDisposition.decodeExtendedValue(value, range)
            } catch {
                throw MultipartError(.flag(error.flag), part: part, offset: at)
            }
        }
        pending.name = try text(UnsafeRawBufferPointer(rebasing: value[ranges.name]), unsafe: .unsafeName, &handler)
        if let range = ranges.filename {
            pending.filename = try text(UnsafeRawBufferPointer(rebasing: value[range]), unsafe: .unsafeFilename,
                                        &handler)
        } else if ranges.extendedFilename != nil {
            try normalizeOrReject(.filenameExtended, part: part, at: at, &handler)
            // A percent-encoded control character is refused like a raw one: no backend should see it.
            guard !decoded.contains(where: HeaderSyntax.isControl) else {
                throw MultipartError(.flag(.headerCTL), part: part, offset: at)
            }
            pending.filename = try withRawBytes(decoded) { (bytes) throws(MultipartError) -> String in
                try text(bytes, unsafe: .unsafeFilename, &handler)
            }
        }
    }

    /// Turns a name or filename into text: valid UTF-8, and none of the characters that no spelling
    /// carries alike to every backend (`"`, `\`, CR, LF, `%22`, `%0D`, `%0A`, `&#` and a digit, U+2028, U+2029,
    /// `name=`: ``UnsafeName``). One pass for plain ASCII.
    private mutating func text<Handler: MultipartHandler>(
        _ raw: UnsafeRawBufferPointer, unsafe flag: StrictFlag, _ handler: inout Handler
    ) throws(MultipartError) -> String {
        var ascii = true
        var safe = true
        for byte in raw {
            if byte >= 0x80 {
                ascii = false
                if byte == 0xE2 { safe = false }  // may start U+2028 / U+2029
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "%")
                || byte == 13 || byte == 10 || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "=")
            {
                safe = false
            }
        }
        if !safe && !UnsafeName.isSafe(raw) {
            try normalizeOrReject(flag, part: partCount - 1, at: partOffset, &handler)
            let replaced = UnsafeName.replacingUnsafe(in: Array(raw))
            return try withRawBytes(replaced) { (bytes) throws(MultipartError) -> String in
                try text(bytes, unsafe: flag, &handler)
            }
        }
        if ascii {
            return String(decoding: raw, as: UTF8.self)
        }
        if let valid = String(validating: raw, as: UTF8.self) {
            return valid
        }
        try normalizeOrReject(.invalidUTF8, part: partCount - 1, at: partOffset, &handler)
        return String(decoding: raw, as: UTF8.self)
    }
}
