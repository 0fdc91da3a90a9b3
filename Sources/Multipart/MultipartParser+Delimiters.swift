import CDelimiterScan
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a delimiter search in one span ended.
struct DelimiterSearch {
    /// Bytes held back from earlier spans that turned out to be data (a prefix of the pattern).
    var released: Int
    /// Their offset in the body.
    var releasedOffset: Int64
    /// Data in this span runs from the search start to here.
    var dataEnd: Int
    /// Index just after the delimiter, if one was found.
    var next: Int?
    /// Body offset of the delimiter's first byte, if one was found.
    var matchOffset: Int64
}

extension MultipartParser {
    /// Searches `pattern` (whose first byte never recurs inside it) from `start`, continuing a match held
    /// back from the previous span. Linear: each byte is examined at most twice.
    @inline(__always)
    mutating func search(
        _ pattern: UnsafePointer<UInt8>, _ length: Int, _ span: UnsafeRawBufferPointer, from start: Int
    ) -> DelimiterSearch {
        let count = span.count
        let base = span.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var released = 0
        let releasedOffset = heldOffset
        var position = start
        if heldCount > 0 {
            var matched = heldCount
            var index = start
            while index < count, matched < length, base[index] == pattern[matched] {
                index += 1
                matched += 1
            }
            if matched == length {
                heldCount = 0
                return DelimiterSearch(released: 0, releasedOffset: releasedOffset, dataEnd: start, next: index,
                                       matchOffset: releasedOffset)
            }
            if index == count {
                heldCount = matched
                return DelimiterSearch(released: 0, releasedOffset: releasedOffset, dataEnd: start, next: nil,
                                       matchOffset: 0)
            }
            released = heldCount
            heldCount = 0
            position = index
        }
        // Where the whole pattern fits, one vector scan (CDelimiterScan); then only the last `length - 1` bytes
        // are left, where a prefix of the pattern may begin, to be held back.
        if count - position >= length {
            let found = partgate_find_pattern(base + position, count - position, pattern, length)
            if found >= 0 {
                let at = position + found
                return DelimiterSearch(released: released, releasedOffset: releasedOffset, dataEnd: at,
                                       next: at + length, matchOffset: spanOffset + Int64(at))
            }
            position = count - length + 1
        }
        let lead = Int32(pattern[0])
        while position < count {
            guard let hit = memchr(base + position, lead, count - position) else { break }
            let at = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            var matched = 1
            var index = at + 1
            while index < count, base[index] == pattern[matched] {
                index += 1
                matched += 1
            }
            if index == count {
                heldCount = matched
                heldOffset = spanOffset + Int64(at)
                return DelimiterSearch(released: released, releasedOffset: releasedOffset, dataEnd: at,
                                       next: nil, matchOffset: 0)
            }
            position = index
        }
        return DelimiterSearch(released: released, releasedOffset: releasedOffset, dataEnd: count, next: nil,
                               matchOffset: 0)
    }

    /// At offset 0: is the body opened by `--boundary` with no preamble?
    mutating func scanStart<Handler: MultipartHandler>(
        _ span: UnsafeRawBufferPointer, _ start: Int, _ handler: inout Handler
    ) throws(MultipartError) -> Int {
        var matched = heldCount
        var index = start
        let length = patterns.dashLength
        let pattern = patterns.dashBoundary
        if matched == 0, span.count - index >= length, memcmp(span.baseAddress! + index, pattern, length) == 0 {
            // The whole dash-boundary in this span, as nearly every body begins: one comparison, where the loop
            // below took ~13 instructions a byte.
            index += length
            matched = length
        }
        while index < span.count, matched < length, span[index] == pattern[matched] {
            index += 1
            matched += 1
        }
        if matched == length {
            heldCount = 0
            partOffset = 0
            state = .delimiterLine(.initial)
            return index
        }
        if index == span.count {
            heldCount = matched
            return index
        }
        try normalizeOrReject(.preamble, part: nil, at: 0, &handler)
        try addPreamble(matched)
        heldCount = 0
        state = .preamble
        return index
    }

    mutating func scanPreamble<Handler: MultipartHandler>(
        _ span: UnsafeRawBufferPointer, _ start: Int, _ handler: inout Handler
    ) throws(MultipartError) -> Int {
        let found = search(patterns.lfDelimiter, patterns.dashLength + 1, span, from: start)
        try addPreamble(found.released + found.dataEnd - start)
        guard let next = found.next else { return span.count }
        partOffset = found.matchOffset
        state = .delimiterLine(.initial)
        return next
    }

    private mutating func addPreamble(_ count: Int) throws(MultipartError) {
        preambleBytes += count
        if preambleBytes > limits.preambleBytes {
            throw MultipartError(.limit(.preambleBytes), offset: Int64(limits.preambleBytes))
        }
    }

    mutating func scanBody<Handler: MultipartHandler>(
        _ span: UnsafeRawBufferPointer, _ start: Int, _ handler: inout Handler
    ) throws(MultipartError) -> Int {
        let lf = lineMode == .lf
        let pattern = lf ? patterns.lfDelimiter : patterns.crlfDelimiter
        let found = search(pattern, patterns.dashLength + (lf ? 1 : 2), span, from: start)
        if found.released > 0 {
            if _slowPath(holdsHead) { try releaseHeldHead(contentAt: found.releasedOffset, &handler) }
            try countBody(found.released, at: found.releasedOffset)
            handler.partBody(UnsafeRawBufferPointer(start: pattern, count: found.released), offset: found.releasedOffset)
        }
        if found.dataEnd > start {
            let offset = spanOffset + Int64(start)
            if _slowPath(holdsHead) { try releaseHeldHead(contentAt: offset, &handler) }
            try countBody(found.dataEnd - start, at: offset)
            handler.partBody(UnsafeRawBufferPointer(rebasing: span[start..<found.dataEnd]), offset: offset)
        }
        guard let next = found.next else { return span.count }
        if _slowPath(holdsHead) { try releaseHeldHead(contentAt: nil, &handler) }
        handler.partEnd()
        partOffset = found.matchOffset
        state = .delimiterLine(.initial)
        return next
    }

    @inline(__always)
    private mutating func countBody(_ count: Int, at offset: Int64) throws(MultipartError) {
        currentBodyBytes += Int64(count)
        if currentIsField, currentBodyBytes > limits.fieldBytes {
            throw MultipartError(.limit(.fieldBytes), part: currentPart,
                                 offset: offset + Int64(count) - (currentBodyBytes - limits.fieldBytes))
        }
    }

    /// After `--boundary`: `--` (close), or transport padding and a line break (a new part), else garbage.
    mutating func scanDelimiterLine<Handler: MultipartHandler>(
        _ line: DelimiterLine, _ span: UnsafeRawBufferPointer, _ start: Int, _ handler: inout Handler
    ) throws(MultipartError) -> Int {
        var line = line
        var index = start
        while index < span.count {
            let byte = span[index]
            let offset = spanOffset + Int64(index)
            switch line {
            case .initial, .padding:
                if byte == UInt8(ascii: "-"), line == .initial {
                    line = .dash
                } else if byte == 0x20 || byte == 0x09 {
                    try padding(at: offset, &handler)
                    line = .padding
                } else if byte == 13 {
                    line = .cr
                } else if byte == 10 {
                    try openPart(lf: true, at: offset, &handler)
                    return index + 1
                } else {
                    throw MultipartError(.flag(.delimiterGarbage), part: currentPart, offset: offset)
                }
            case .dash:
                guard byte == UInt8(ascii: "-") else {
                    throw MultipartError(.flag(.delimiterGarbage), part: currentPart, offset: offset)
                }
                paddingBytes = 0
                state = .closeLine(.initial)
                return index + 1
            case .cr:
                guard byte == 10 else {
                    throw MultipartError(.flag(.delimiterGarbage), part: currentPart, offset: offset)
                }
                try openPart(lf: false, at: offset, &handler)
                return index + 1
            }
            index += 1
        }
        state = .delimiterLine(line)
        return index
    }

    private mutating func padding<Handler: MultipartHandler>(
        at offset: Int64, _ handler: inout Handler
    ) throws(MultipartError) {
        if !reportedTransportPadding {
            reportedTransportPadding = true
            try normalizeOrReject(.transportPadding, part: currentPart, at: offset, &handler)
        }
        paddingBytes += 1
        if paddingBytes > limits.partHeaderBytes {
            throw MultipartError(.limit(.partHeaderBytes), part: currentPart, offset: offset)
        }
    }

    /// A delimiter line ended: a new part's header section begins.
    private mutating func openPart<Handler: MultipartHandler>(
        lf: Bool, at offset: Int64, _ handler: inout Handler
    ) throws(MultipartError) {
        try checkLineEnding(lf: lf, at: offset, &handler)
        guard partCount < limits.parts else {
            throw MultipartError(.limit(.parts), part: partCount, offset: offset)
        }
        partCount += 1
        paddingBytes = 0
        head.reset(at: offset + 1)
        pending = PendingPart()
        deferredError = nil
        state = .headers
    }

    /// Fixes the body's line-ending mode on the first line break and enforces it afterwards.
    mutating func checkLineEnding<Handler: MultipartHandler>(
        lf: Bool, at offset: Int64, _ handler: inout Handler
    ) throws(MultipartError) {
        switch lineMode {
        case .crlf where !lf, .lf where lf:
            return
        case .unknown:
            if lf { try normalizeOrReject(.lfLine, part: currentPart, at: offset, &handler) }
            lineMode = lf ? .lf : .crlf
        case .crlf, .lf:
            throw MultipartError(.flag(.mixedLineEndings), part: currentPart, offset: offset)
        }
    }

    /// After `--boundary--`: transport padding, then a line break, then the epilogue.
    mutating func scanCloseLine<Handler: MultipartHandler>(
        _ line: CloseLine, _ span: UnsafeRawBufferPointer, _ start: Int, _ handler: inout Handler
    ) throws(MultipartError) -> Int {
        var index = start
        while index < span.count {
            let byte = span[index]
            let offset = spanOffset + Int64(index)
            switch line {
            case .initial:
                if byte == 0x20 || byte == 0x09 {
                    try padding(at: offset, &handler)
                } else if byte == 13 {
                    state = .closeLine(.cr)
                    return index + 1
                } else if byte == 10 {
                    try checkLineEnding(lf: true, at: offset, &handler)
                    state = .epilogue
                    return index + 1
                } else {
                    state = .epilogue
                    return index
                }
            case .cr:
                if byte == 10 {
                    try checkLineEnding(lf: false, at: offset, &handler)
                    state = .epilogue
                    return index + 1
                }
                try addEpilogue(1, at: offset - 1, &handler)
                state = .epilogue
                return index
            }
            index += 1
        }
        state = .closeLine(line)
        return index
    }

    mutating func addEpilogue<Handler: MultipartHandler>(
        _ count: Int, at offset: Int64, _ handler: inout Handler
    ) throws(MultipartError) {
        guard count > 0 else { return }
        if epilogueBytes == 0 {
            try normalizeOrReject(.epilogue, part: nil, at: offset, &handler)
        }
        if epilogueBytes + count > limits.epilogueBytes {
            throw MultipartError(.limit(.epilogueBytes), offset: offset + Int64(limits.epilogueBytes - epilogueBytes))
        }
        epilogueBytes += count
    }
}
