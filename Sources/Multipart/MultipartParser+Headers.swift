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
            guard let hit = memchr(base + index, 10, span.count - index) else {
                try addHeaderBytes(span.count - index)
                head.partial.append(contentsOf: UnsafeRawBufferPointer(rebasing: span[index...]))
                return span.count
            }
            let end = UnsafeRawPointer(hit) - base
            try addHeaderBytes(end + 1 - index)
            if head.partial.isEmpty {
                try headerLine(UnsafeRawBufferPointer(rebasing: span[index..<end]), &handler)
            } else {
                head.partial.append(contentsOf: UnsafeRawBufferPointer(rebasing: span[index..<end]))
                let line = head.partial
                head.partial.removeAll(keepingCapacity: true)
                try withRawBytes(line) { (line) throws(MultipartError) in try headerLine(line, &handler) }
            }
            head.lineStart = spanOffset + Int64(end + 1)
            index = end + 1
            if case .body = state { return index }
        }
        return index
    }

    private mutating func addHeaderBytes(_ count: Int) throws(MultipartError) {
        head.totalBytes += count
        if head.totalBytes > limits.partHeaderBytes {
            throw MultipartError(.limit(.partHeaderBytes), part: currentPart, offset: head.lineStart)
        }
    }

    /// One header line, without its LF (a trailing CR is the CRLF's).
    private mutating func headerLine<Handler: MultipartHandler>(
        _ raw: UnsafeRawBufferPointer, _ handler: inout Handler
    ) throws(MultipartError) {
        let at = head.lineStart
        var line = raw
        var lf = true
        if let last = line.last, last == 13 {
            line = UnsafeRawBufferPointer(rebasing: line.dropLast())
            lf = false
        }
        try checkLineEnding(lf: lf, at: at + Int64(raw.count), &handler)
        if line.isEmpty {
            try finishHead(&handler)
            return
        }
        head.lines += 1
        if head.lines > limits.headerLines {
            throw MultipartError(.limit(.headerLines), part: currentPart, offset: at)
        }
        if let control = line.firstIndex(where: HeaderSyntax.isControl) {
            throw MultipartError(.flag(.headerCTL), part: currentPart, offset: at + Int64(control))
        }
        if HeaderSyntax.isWhitespace(line[0]) {
            guard !head.fields.isEmpty, actions[.headerFolding] == .normalize else {
                throw MultipartError(.flag(.headerFolding), part: currentPart, offset: at)
            }
            handler.violation(MultipartViolation(flag: .headerFolding, part: currentPart, offset: at))
            head.continueLast(trimmed(line, from: 0))
            return
        }
        var colon = 0
        while colon < line.count, HeaderSyntax.isTokenChar(line[colon]) { colon += 1 }
        guard colon > 0, colon < line.count, line[colon] == UInt8(ascii: ":") else {
            throw MultipartError(.flag(.invalidHeader), part: currentPart, offset: at + Int64(colon))
        }
        head.append(name: UnsafeRawBufferPointer(rebasing: line[0..<colon]), value: trimmed(line, from: colon + 1))
    }

    private func trimmed(_ line: UnsafeRawBufferPointer, from start: Int) -> UnsafeRawBufferPointer {
        var lower = start
        var upper = line.count
        while lower < upper, HeaderSyntax.isWhitespace(line[lower]) { lower += 1 }
        while upper > lower, HeaderSyntax.isWhitespace(line[upper - 1]) { upper -= 1 }
        return UnsafeRawBufferPointer(rebasing: line[lower..<upper])
    }

    /// The blank line: interpret the collected fields and emit the part head.
    private mutating func finishHead<Handler: MultipartHandler>(_ handler: inout Handler) throws(MultipartError) {
        let head = try withRawBytes(self.head.bytes) { (bytes) throws(MultipartError) -> PartHead in
            try interpretHead(bytes, &handler)
        }
        currentIsField = head.filename == nil
        currentBodyBytes = 0
        state = .body
        handler.partHead(head)
    }

    private mutating func interpretHead<Handler: MultipartHandler>(
        _ bytes: UnsafeRawBufferPointer, _ handler: inout Handler
    ) throws(MultipartError) -> PartHead {
        let part = partCount - 1
        let at = partOffset
        var disposition: Range<Int>?
        var contentType: Range<Int>?
        var transferEncoding: Range<Int>?
        var others: [PartHeader] = []
        for field in head.fields {
            let name = UnsafeRawBufferPointer(rebasing: bytes[field.name])
            if HeaderSyntax.equalsLowercase(name, "content-disposition") {
                guard disposition == nil else {
                    throw MultipartError(.flag(.duplicateContentDisposition), part: part, offset: at)
                }
                disposition = field.value
            } else if HeaderSyntax.equalsLowercase(name, "content-type") {
                guard contentType == nil else {
                    throw MultipartError(.flag(.duplicateContentType), part: part, offset: at)
                }
                contentType = field.value
            } else if HeaderSyntax.equalsLowercase(name, "content-transfer-encoding") {
                guard transferEncoding == nil else {
                    throw MultipartError(.flag(.contentTransferEncoding), part: part, offset: at)
                }
                transferEncoding = field.value
            } else {
                others.append(PartHeader(name: String(decoding: name, as: UTF8.self),
                                         value: String(decoding: bytes[field.value], as: UTF8.self)))
            }
        }
        guard let disposition else {
            throw MultipartError(.flag(.missingContentDisposition), part: part, offset: at)
        }
        let parsed: ContentDisposition
        do {
            parsed = try ContentDisposition.parse(UnsafeRawBufferPointer(rebasing: bytes[disposition]))
        } catch {
            throw MultipartError(error.reason, part: part, offset: at)
        }
        let name = try text(parsed.name, unsafe: .unsafeName, part: part, &handler)
        var filename: String?
        if let raw = parsed.filename {
            if parsed.filenameWasExtended {
                try normalizeOrReject(.filenameExtended, part: part, at: at, &handler)
            }
            filename = try text(raw, unsafe: .unsafeFilename, part: part, &handler)
        }
        var canonicalType: String?
        if let contentType {
            do {
                let canonical = try PartContentType.canonical(UnsafeRawBufferPointer(rebasing: bytes[contentType]))
                if canonical.isMultipart {
                    try normalizeOrReject(.nestedMultipart, part: part, at: at, &handler)
                }
                canonicalType = canonical.value
            } catch let error as ParameterScanner.Failure {
                throw MultipartError(.flag(error.flag), part: part, offset: at)
            } catch {
                throw error as! MultipartError
            }
        }
        if let transferEncoding {
            let value = UnsafeRawBufferPointer(rebasing: bytes[transferEncoding])
            let identity = HeaderSyntax.equalsLowercase(value, "7bit") || HeaderSyntax.equalsLowercase(value, "8bit")
                || HeaderSyntax.equalsLowercase(value, "binary")
            guard identity else {
                throw MultipartError(.flag(.contentTransferEncoding), part: part, offset: at)
            }
            try normalizeOrReject(.contentTransferEncoding, part: part, at: at, &handler)
        }
        return PartHead(index: part, name: name, filename: filename, contentType: canonicalType,
                        headers: others, offset: at)
    }

    /// Turns a name or filename into text: valid UTF-8, and none of the characters that no spelling
    /// carries alike to every backend (`"`, `\`, CR, LF, `%22`, `%0D`, `%0A`).
    private mutating func text<Handler: MultipartHandler>(
        _ raw: [UInt8], unsafe flag: StrictFlag, part: Int, _ handler: inout Handler
    ) throws(MultipartError) -> String {
        let at = partOffset
        var bytes = raw
        if let firstUnsafe = UnsafeName.firstUnsafeIndex(in: bytes) {
            _ = firstUnsafe
            try normalizeOrReject(flag, part: part, at: at, &handler)
            bytes = UnsafeName.replacingUnsafe(in: bytes)
        }
        if bytes.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: bytes, as: UTF8.self)
        }
        if let valid = String(validating: bytes, as: UTF8.self) {
            return valid
        }
        try normalizeOrReject(.invalidUTF8, part: part, at: at, &handler)
        return String(decoding: bytes, as: UTF8.self)
    }
}
