/// An HTTP-version (`HTTP/` DIGIT `.` DIGIT). The parsers accept only HTTP/1.0 and HTTP/1.1.
public struct HTTPVersion: Hashable, Sendable, CustomStringConvertible {
    /// The major digit.
    public var major: UInt8
    /// The minor digit.
    public var minor: UInt8

    /// Creates a version.
    /// - Parameters:
    ///   - major: The major digit (0...9).
    ///   - minor: The minor digit (0...9).
    public init(major: UInt8, minor: UInt8) {
        precondition(major < 10 && minor < 10, "HTTP-version digits are single DIGITs")
        self.major = major
        self.minor = minor
    }

    /// HTTP/1.0.
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    /// HTTP/1.1.
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)

    /// `HTTP/1.1` style text.
    public var description: String { "HTTP/\(major).\(minor)" }

    /// Appends the wire form, for example `HTTP/1.1`.
    /// - Parameter buffer: The buffer to append to.
    public func write(into buffer: inout [UInt8]) {
        buffer.append(0x48)  // "HTTP/" byte by byte: an array literal here cost an allocation per head
        buffer.append(0x54)
        buffer.append(0x54)
        buffer.append(0x50)
        buffer.append(0x2F)
        buffer.append(0x30 + major)
        buffer.append(0x2E)
        buffer.append(0x30 + minor)
    }
}
