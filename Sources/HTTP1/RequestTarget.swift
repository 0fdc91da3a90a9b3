/// A validated request-target (RFC 9112 §3.2) and its components.
///
/// Every byte is visible ASCII. Beyond RFC 9112's four forms, the parser refuses what backends read
/// in different ways: a `#` anywhere (a fragment is never sent; a backend that does not strip it may
/// resolve `/a#/../b` to `/b`), `\` in the path (normalised to `/` by some servers), percent signs
/// not followed by two hex digits, and `userinfo@` in an authority.
public struct RequestTarget: Hashable, Sendable, CustomStringConvertible {
    /// The four request-target forms.
    public enum Form: Hashable, Sendable {
        /// `absolute-path [ "?" query ]`, the usual form.
        case origin
        /// `http://host[:port]/path?query`, as sent to proxies.
        case absolute
        /// `host:port`, for CONNECT only.
        case authority
        /// `*`, for a server-wide OPTIONS only.
        case asterisk
    }

    /// The form of this target.
    public let form: Form
    /// The target exactly as received.
    public let string: String
    private let authorityRange: Range<Int>?
    private let pathRange: Range<Int>
    private let queryRange: Range<Int>?

    /// The scheme of an absolute-form target (`http` or `https`, as sent).
    public var scheme: Substring? {
        guard form == .absolute, let authorityRange else {
            return nil
        }
        return slice(0..<(authorityRange.lowerBound - 3))
    }

    /// The authority of an absolute-form or authority-form target.
    public var authority: Substring? { authorityRange.map(slice) }

    /// The path: empty for authority-form and asterisk-form, and possibly for absolute-form.
    public var path: Substring { slice(pathRange) }

    /// ``path`` as a string: the target itself when it is all path (an origin-form target without a query), with
    /// no new string made.
    public var pathString: String {
        pathRange.lowerBound == 0 && pathRange.count == string.utf8.count ? string : String(path)
    }

    /// The query without its `?`, if there is one.
    public var query: Substring? { queryRange.map(slice) }

    /// The origin-form to forward upstream: path (or `/` when empty) plus `?query`; `*` for
    /// asterisk-form and the authority for authority-form.
    public var originForm: String {
        switch form {
        case .origin: return string
        case .asterisk: return "*"
        case .authority: return string
        case .absolute:
            let path = pathRange.isEmpty ? "/" : String(self.path)
            guard let query else {
                return path
            }
            return path + "?" + query
        }
    }

    /// The target as received.
    public var description: String { string }

    private func slice(_ range: Range<Int>) -> Substring {
        let utf8 = string.utf8
        let lower = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        let upper = utf8.index(lower, offsetBy: range.count)
        return Substring(utf8[lower..<upper])
    }

    private init(form: Form, bytes: UnsafeBufferPointer<UInt8>, authority: Range<Int>?, path: Range<Int>, query: Range<Int>?) {
        self.form = form
        self.string = String(decoding: bytes, as: UTF8.self)
        self.authorityRange = authority
        self.pathRange = path
        self.queryRange = query
    }

    /// Parses and validates a target against its method.
    /// - Parameters:
    ///   - bytes: The target bytes; the caller has checked they are visible ASCII.
    ///   - method: The request method (form rules depend on it).
    ///   - offset: The head offset of `bytes[0]`, for error offsets.
    /// - Throws: `invalid_target`, `invalid_target_form` or `userinfo_in_target`.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, method: String, offset: Int) throws(HTTP1Error) -> RequestTarget {
        let isConnect = method == "CONNECT"
        if bytes.count == 1, bytes[0] == UInt8(ascii: "*") {
            guard method == "OPTIONS" else {
                throw HTTP1Error(.invalidTargetForm, offset: offset)
            }
            return RequestTarget(form: .asterisk, bytes: bytes, authority: nil, path: 0..<0, query: nil)
        }
        if bytes.first == UInt8(ascii: "/") {
            guard !isConnect else {
                throw HTTP1Error(.invalidTargetForm, offset: offset)
            }
            let (path, query) = try pathAndQuery(bytes, from: 0, offset: offset)
            return RequestTarget(form: .origin, bytes: bytes, authority: nil, path: path, query: query)
        }
        if isConnect {
            try checkAuthority(bytes, requirePort: true, offset: offset)
            return RequestTarget(form: .authority, bytes: bytes, authority: 0..<bytes.count, path: 0..<0, query: nil)
        }
        let schemeEnd = try absoluteScheme(bytes, offset: offset)
        let authorityStart = schemeEnd + 3
        var authorityEnd = authorityStart
        while authorityEnd < bytes.count, bytes[authorityEnd] != UInt8(ascii: "/"),
            bytes[authorityEnd] != UInt8(ascii: "?")
        {
            authorityEnd += 1
        }
        try checkAuthority(
            UnsafeBufferPointer(rebasing: bytes[authorityStart..<authorityEnd]), requirePort: false,
            offset: offset + authorityStart)
        let (path, query) = try pathAndQuery(bytes, from: authorityEnd, offset: offset)
        return RequestTarget(
            form: .absolute,
            bytes: bytes,
            authority: authorityStart..<authorityEnd,
            path: path,
            query: query
        )
    }

    /// Checks `http://` or `https://` (any case) and returns the index of the `:`.
    private static func absoluteScheme(_ bytes: UnsafeBufferPointer<UInt8>, offset: Int) throws(HTTP1Error) -> Int {
        guard let colon = bytes.firstIndex(of: ByteClass.colon) else {
            throw HTTP1Error(.invalidTarget, offset: offset)
        }
        let scheme = String(decoding: bytes[..<colon].map(ByteClass.lowercased), as: UTF8.self)
        guard scheme == "http" || scheme == "https" else {
            throw HTTP1Error(.invalidTarget, offset: offset)
        }
        guard bytes.count >= colon + 3, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
        else {
            throw HTTP1Error(.invalidTarget, offset: offset + colon)
        }
        return colon
    }

    private static func checkAuthority(_ bytes: UnsafeBufferPointer<UInt8>, requirePort: Bool, offset: Int) throws(HTTP1Error) {
        switch AuthoritySyntax.validate(bytes, allowEmptyHost: false, requirePort: requirePort) {
        case nil: return
        case .userinfo(let at): throw HTTP1Error(.userinfoInTarget, offset: offset + at)
        case .invalid(let at): throw HTTP1Error(.invalidTarget, offset: offset + at)
        }
    }

    /// Validates `path [ "?" query ]` from `start` to the end and returns both ranges.
    private static func pathAndQuery(
        _ bytes: UnsafeBufferPointer<UInt8>,
        from start: Int,
        offset: Int
    ) throws(HTTP1Error) -> (Range<Int>, Range<Int>?) {
        var index = start
        var queryStart: Int?
        var segmentStart = start
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "#"):
                throw HTTP1Error(.invalidTarget, offset: offset + index)
            case ByteClass.backslash where queryStart == nil:
                throw HTTP1Error(.invalidTarget, offset: offset + index)
            case UInt8(ascii: "/") where queryStart == nil:
                try refuseDotSegment(bytes, segmentStart..<index, offset: offset)
                segmentStart = index + 1
            case UInt8(ascii: "?") where queryStart == nil:
                try refuseDotSegment(bytes, segmentStart..<index, offset: offset)
                segmentStart = bytes.count
                queryStart = index + 1
            case UInt8(ascii: "%"):
                guard index + 2 < bytes.count, ByteClass.hexValue(bytes[index + 1]) != nil,
                    ByteClass.hexValue(bytes[index + 2]) != nil
                else {
                    throw HTTP1Error(.invalidTarget, offset: offset + index)
                }
                index += 2
            default:
                break
            }
            index += 1
        }
        if queryStart == nil { try refuseDotSegment(bytes, segmentStart..<bytes.count, offset: offset) }
        guard let queryStart else {
            return (start..<bytes.count, nil)
        }
        return (start..<(queryStart - 1), queryStart..<bytes.count)
    }

    /// Refuses a path segment that is `.` or `..`, spelled with `%2E` or not (RFC 3986 §5.2.4): a backend that
    /// resolves `/public/../admin` serves another path than the one routed on, as with `#` and `\`. A segment's
    /// `;` parameters do not count (`..;x` is `..` to Tomcat and Jetty, which drop them before resolving).
    private static func refuseDotSegment(_ bytes: UnsafeBufferPointer<UInt8>, _ segment: Range<Int>, offset: Int) throws(HTTP1Error) {
        var dots = 0
        var index = segment.lowerBound
        var end = segment.upperBound
        if segment.count > 6 {
            // Only a segment of dots and parameters can be one: look for the `;` within reach.
            guard let semicolon = bytes[segment.lowerBound..<segment.lowerBound + 7].firstIndex(of: UInt8(ascii: ";"))
            else { return }
            end = semicolon
        } else if let semicolon = bytes[segment].firstIndex(of: UInt8(ascii: ";")) {
            end = semicolon
        }
        guard (1...6).contains(end - index) else { return }
        while index < end {
            if bytes[index] == UInt8(ascii: ".") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "%"), index + 2 < end,
                bytes[index + 1] == UInt8(ascii: "2"), bytes[index + 2] | 0x20 == UInt8(ascii: "e")
            {
                index += 3
            } else {
                return
            }
            dots += 1
        }
        if dots <= 2 { throw HTTP1Error(.invalidTarget, offset: offset + segment.lowerBound) }
    }
}
