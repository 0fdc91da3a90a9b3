import HTTP1
import Multipart
import Policy
import ProxyEngine

/// Runs `inspect`: streams a body (or a whole request) through the parser and a ``PartInspector``,
/// printing one JSON line per completed part and a summary line.
struct Inspection {
    enum Outcome: Equatable {
        case valid
        case rejected(String)
        case failed(String)
    }

    /// The longest first line that can hold a delimiter (`--` + 70 + transport padding is bounded here).
    private static let firstLineLimit = 256

    let strictness: Strictness
    let limits: MultipartLimits
    let contentType: String?
    let output: StandardStream
    private var parser: MultipartParser?
    private var inspector = PartInspector<SHA256Digest>()
    private var prefix: [UInt8] = []
    private var rejection: (name: String, part: Int?, offset: Int64?, text: String)?

    init(strictness: Strictness, limits: MultipartLimits = MultipartLimits(), contentType: String?, output: StandardStream) {
        self.strictness = strictness
        self.limits = limits
        self.contentType = contentType
        self.output = output
    }

    // MARK: Body mode

    mutating func runBody(_ input: InputFile) -> Outcome {
        if let contentType, !start(contentType: contentType) { return finish() }
        let readError = input.forEachChunk { span in feed(span) }
        if let readError { return .failed("read error: \(readError)") }
        if rejection == nil { endBody() }
        return finish()
    }

    // MARK: Request mode

    mutating func runRequest(_ input: InputFile) -> Outcome {
        var heads = RequestHeadParser()
        var decoder: BodyDecoder?
        var done = false
        let readError = input.forEachChunk { span in
            var rest = span
            if decoder == nil {
                switch heads.feed(rest) {
                case .needMore:
                    return true
                case .error(let error):
                    reject(http: error)
                    return false
                case .complete(let head, let consumed):
                    guard let framing = requestFraming(head) else { return false }
                    decoder = BodyDecoder(framing: framing)
                    rest = UnsafeRawBufferPointer(rebasing: rest[consumed...])
                }
            }
            while true {
                switch decoder!.decode(rest) {
                case .needMore:
                    return true
                case .data(let range):
                    guard feed(UnsafeRawBufferPointer(rebasing: rest[range])) else { return false }
                    rest = UnsafeRawBufferPointer(rebasing: rest[range.upperBound...])
                case .end:
                    done = true
                    return false
                case .error(let error):
                    reject(http: error)
                    return false
                }
            }
        }
        if let readError { return .failed("read error: \(readError)") }
        if rejection == nil {
            if decoder == nil {
                reject(http: heads.finish() ?? HTTP1Error(.truncatedHead))
            } else if !done, let error = decoder!.finish() {
                reject(http: error)
            }
        }
        if rejection == nil { endBody() }
        return finish()
    }

    private mutating func requestFraming(_ head: RequestHead) -> BodyFraming? {
        do {
            let framing = try RequestFraming(analyzing: head)
            guard let value = try head.singleContentType() else {
                rejection = ("content_type_missing", nil, nil, "the request has no Content-Type")
                return nil
            }
            guard start(contentType: value) else { return nil }
            return framing.body
        } catch {
            reject(http: error)
            return nil
        }
    }

    // MARK: Feeding

    /// Creates the parser from a Content-Type value.
    private mutating func start(contentType: String) -> Bool {
        do {
            let parsed = try MultipartContentType.parse(contentType)
            parser = MultipartParser(boundary: parsed.boundary, limits: limits, strictness: strictness)
            return true
        } catch {
            rejection = (error.name, nil, error.offset, "Content-Type: \(error.name) at byte \(error.offset)")
            return false
        }
    }

    /// Feeds body bytes; without a Content-Type, first collects the body's first line to learn the boundary.
    private mutating func feed(_ span: UnsafeRawBufferPointer) -> Bool {
        if parser == nil {
            prefix.append(contentsOf: span)
            guard let boundary = inferredBoundary(final: false) else { return rejection == nil }
            parser = MultipartParser(boundary: boundary, limits: limits, strictness: strictness)
            let held = prefix
            prefix = []
            return held.withUnsafeBytes { parse($0) }
        }
        return parse(span)
    }

    private mutating func parse(_ span: UnsafeRawBufferPointer) -> Bool {
        do {
            try parser!.parse(span, into: &inspector)
            printCompleted()
            return true
        } catch {
            printCompleted()
            reject(multipart: error)
            return false
        }
    }

    private mutating func endBody() {
        if parser == nil {
            guard let boundary = inferredBoundary(final: true) else { return }
            parser = MultipartParser(boundary: boundary, limits: limits, strictness: strictness)
            let held = prefix
            prefix = []
            guard held.withUnsafeBytes({ parse($0) }) else { return }
        }
        do {
            try parser!.finish(into: &inspector)
            printCompleted()
        } catch {
            printCompleted()
            reject(multipart: error)
        }
    }

    /// The boundary on the first line (`--boundary` CRLF), once the line is complete. Transport padding (spaces
    /// and tabs before the CRLF, RFC 2046 §5.1.1) is not part of it, and a first line ending in `--` is read as a
    /// close delimiter (a form with no parts): a boundary that itself ends in `--` needs `--content-type`.
    private mutating func inferredBoundary(final: Bool) -> Boundary? {
        let newline = prefix.firstIndex(of: 10)
        guard newline != nil || final || prefix.count > Self.firstLineLimit else { return nil }
        var line = prefix[0..<(newline ?? min(prefix.count, Self.firstLineLimit))]
        if line.last == 13 { line = line.dropLast() }
        while line.last == 32 || line.last == 9 { line = line.dropLast() }
        if line.count > 4, line.suffix(2).elementsEqual([45, 45]) { line = line.dropLast(2) }
        guard line.starts(with: [45, 45]), let boundary = Boundary(line.dropFirst(2)) else {
            rejection = ("boundary_unknown", nil, nil,
                         "no --content-type given and the body does not start with a delimiter line")
            return nil
        }
        return boundary
    }

    // MARK: Output

    private mutating func printCompleted() {
        for part in inspector.takeCompleted() {
            var object = JSONObjectWriter()
            object.add("index", part.index)
            object.add("name", part.name)
            object.add("filename", part.filename)
            object.add("declared_type", part.declaredType)
            object.add("sniffed_type", part.sniffed.mimeType)
            object.add("size", part.size)
            object.add("sha256", part.digest.hexString)
            output.write(object.finished + "\n")
        }
    }

    private mutating func reject(multipart error: MultipartError) {
        rejection = (error.name, error.part, error.offset, error.description)
    }

    private mutating func reject(http error: HTTP1Error) {
        let offset = error.offset.map { " at byte \($0)" } ?? ""
        rejection = ("http_" + error.code.name, nil, error.offset.map(Int64.init),
                     "HTTP framing: \(error.code.name)\(offset)")
    }

    private func finish() -> Outcome {
        var summary = JSONObjectWriter()
        summary.add("parts", inspector.partCount)
        summary.add("violations", objects: inspector.violations.map { violation in
            var object = JSONObjectWriter()
            object.add("flag", violation.flag.rawValue)
            object.add("part", violation.part)
            object.add("offset", violation.offset)
            return object
        })
        summary.add("valid", rejection == nil)
        if let rejection {
            var error = JSONObjectWriter()
            error.add("flag", rejection.name)
            error.add("part", rejection.part)
            error.add("offset", rejection.offset)
            summary.add("error", object: error)
        }
        output.write(summary.finished + "\n")
        if let rejection { return .rejected(rejection.text) }
        return .valid
    }
}
