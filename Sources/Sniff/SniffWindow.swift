/// Collects the first `sniffWindowSize` bytes of a part from successive body spans.
///
/// The policy stage appends each span it receives, forwards nothing until it decides, and decides when the
/// window is full or the part ends, whichever comes first (or earlier, when `sniff(complete: false)` returns a
/// final result). The window never holds more than `sniffWindowSize` bytes: `append` takes what fits and
/// reports how many bytes it took, so the caller knows where the rest of the span starts.
///
/// Storage is reserved once, on the first append, and kept by `reset()` for the next part.
public struct SniffWindow: Sendable {
    /// The collected bytes.
    public private(set) var bytes: [UInt8] = []

    /// Creates an empty window.
    public init() {}

    /// Number of bytes collected.
    public var count: Int { bytes.count }
    /// True when nothing has been collected.
    public var isEmpty: Bool { bytes.isEmpty }
    /// True when the window holds `sniffWindowSize` bytes; later appends take nothing.
    public var isFull: Bool { bytes.count >= sniffWindowSize }
    /// How many more bytes the window accepts.
    public var remainingCapacity: Int { sniffWindowSize - bytes.count }

    /// Appends as much of `span` as fits.
    /// - Parameter span: the next bytes of the part.
    /// - Returns: the number of bytes taken from the start of `span` (less than `span.count` once full).
    @discardableResult
    public mutating func append(_ span: UnsafeRawBufferPointer) -> Int {
        let taken = min(span.count, remainingCapacity)
        guard taken > 0 else { return 0 }
        if bytes.capacity < sniffWindowSize { bytes.reserveCapacity(sniffWindowSize) }
        bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: span[0..<taken]))
        return taken
    }

    /// Appends as much of `span` as fits.
    /// - Parameter span: the next bytes of the part.
    /// - Returns: the number of bytes taken from the start of `span`.
    @discardableResult
    public mutating func append(contentsOf span: some Collection<UInt8>) -> Int {
        let taken = min(span.count, remainingCapacity)
        guard taken > 0 else { return 0 }
        if bytes.capacity < sniffWindowSize { bytes.reserveCapacity(sniffWindowSize) }
        bytes.append(contentsOf: span.prefix(taken))
        return taken
    }

    /// Sniffs the collected bytes.
    /// - Parameter complete: true when the part has ended (the window holds the whole part).
    /// - Returns: the sniff result; see `MIMESniffer.sniff(_:complete:)`.
    public func sniff(complete: Bool) -> SniffResult {
        bytes.withUnsafeBytes { MIMESniffer.sniff($0, complete: complete) }
    }

    /// Empties the window for the next part, keeping its storage.
    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
    }
}
