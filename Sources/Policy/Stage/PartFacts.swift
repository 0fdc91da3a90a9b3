import Multipart
import Sniff

/// What a rule can be matched against, for one part, besides its head as received (which the machine holds once,
/// as `current`, and the evaluator borrows: a copy per part cost a dozen reference-count operations).
struct PartFacts: Sendable {
    /// The filename as it would be forwarded before any rename (sanitised under `unsafe_filenames: sanitize`).
    var filename: String? = nil
    /// The other names backends may read the field name as (``FieldNameAliases``); empty for the usual name.
    var fieldAliases: [String] = []
    /// That filename's extension: lower case, with its dot (`.png`).
    var fileExtension: String? = nil
    /// The declared Content-Type without parameters; `text/plain` when absent (RFC 7578 §4.4).
    var declaredEssence: String
    /// The sniffed type, once the window was sniffed.
    var sniffed: SniffResult? = nil
}
