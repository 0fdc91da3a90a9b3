import Sniff

/// The structure walker for a sniffed type (`sniff.validate`): PNG, JPEG, GIF, WebP or PDF.
///
/// Fed every byte the stage forwards for the part, in order and in any spans; see ``StructureWalking``.
package enum StructureWalker: Sendable {
    case png(PNGWalker)
    case jpeg(JPEGWalker)
    case gif(GIFWalker)
    case webp(WebPWalker)
    case pdf(PDFWalker)

    /// The walker for a sniffed type, or nil when partgate has none for it (the part is then not validated).
    /// - Parameter type: the part's sniffed type.
    package init?(for type: SniffedType) {
        switch type {
        case .png: self = .png(PNGWalker())
        case .jpeg: self = .jpeg(JPEGWalker())
        case .gif: self = .gif(GIFWalker())
        case .webp: self = .webp(WebPWalker())
        case .pdf: self = .pdf(PDFWalker())
        default: return nil
        }
    }

    /// The types that have a walker.
    package static let validatedTypes: [SniffedType] = [.png, .jpeg, .gif, .webp, .pdf]

    /// Takes the next forwarded bytes.
    package mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        switch self {
        case .png(var walker):
            walker.feed(bytes)
            self = .png(walker)
        case .jpeg(var walker):
            walker.feed(bytes)
            self = .jpeg(walker)
        case .gif(var walker):
            walker.feed(bytes)
            self = .gif(walker)
        case .webp(var walker):
            walker.feed(bytes)
            self = .webp(walker)
        case .pdf(var walker):
            walker.feed(bytes)
            self = .pdf(walker)
        }
    }

    /// Why the bytes so far cannot be valid, or nil.
    package var failure: String? {
        switch self {
        case .png(let walker): return walker.failure
        case .jpeg(let walker): return walker.failure
        case .gif(let walker): return walker.failure
        case .webp(let walker): return walker.failure
        case .pdf(let walker): return walker.failure
        }
    }

    /// The verdict at the part's end.
    package func finish() -> StructureVerdict {
        switch self {
        case .png(let walker): return walker.finish()
        case .jpeg(let walker): return walker.finish()
        case .gif(let walker): return walker.finish()
        case .webp(let walker): return walker.finish()
        case .pdf(let walker): return walker.finish()
        }
    }
}
