/// Why the multipart reader refused a request: a strict flag whose action is reject, or a limit.
public struct MultipartError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The check that fired.
    public enum Reason: Hashable, Sendable {
        /// A strictness check configured (or fixed) to reject.
        case flag(StrictFlag)
        /// A size or count limit.
        case limit(MultipartLimit)
    }

    /// The check that fired.
    public var reason: Reason
    /// The zero-based index of the part it concerns, if any.
    public var part: Int?
    /// The byte offset in the body (or in the header value) where it was detected.
    public var offset: Int64

    /// - Parameters:
    ///   - reason: the check that fired.
    ///   - part: the part index, if any.
    ///   - offset: the byte offset of the detection.
    public init(_ reason: Reason, part: Int? = nil, offset: Int64) {
        self.reason = reason
        self.part = part
        self.offset = offset
    }

    /// The stable name of the check: the flag name, or `limit_` plus the limit name.
    public var name: String {
        switch reason {
        case .flag(let flag): return flag.rawValue
        case .limit(let limit): return "limit_" + limit.rawValue
        }
    }

    /// True for limits (answered with 413), false for malformed input (400).
    public var isLimit: Bool {
        if case .limit = reason { return true }
        return false
    }

    public var description: String {
        var text = name
        if let part { text += " in part \(part)" }
        return text + " at byte \(offset)"
    }
}

/// A strictness check that fired but was normalised: it is recorded, and the request goes on.
public struct MultipartViolation: Hashable, Sendable {
    /// The flag.
    public var flag: StrictFlag
    /// The zero-based index of the part it concerns, if any.
    public var part: Int?
    /// The byte offset in the body where it was detected.
    public var offset: Int64

    /// - Parameters:
    ///   - flag: the flag.
    ///   - part: the part index, if any.
    ///   - offset: the byte offset.
    public init(flag: StrictFlag, part: Int?, offset: Int64) {
        self.flag = flag
        self.part = part
        self.offset = offset
    }
}
