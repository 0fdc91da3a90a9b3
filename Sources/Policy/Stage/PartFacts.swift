import Multipart
import Sniff

/// What a rule can be matched against, for one part.
struct PartFacts: Sendable {
    /// The part's head as received.
    var head: PartHead
    /// The filename as it would be forwarded before any rename (sanitised under `unsafe_filenames: sanitize`).
    var filename: String?
    /// That filename's extension: lower case, with its dot (`.png`).
    var fileExtension: String?
    /// The declared Content-Type without parameters; `text/plain` when absent (RFC 7578 §4.4).
    var declaredEssence: String
    /// The sniffed type, once the window was sniffed.
    var sniffed: SniffResult?
}
