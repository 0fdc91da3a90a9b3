import ArgumentParser

/// How `partgate rewrite` frames a re-encoded body (`--framing`).
enum RewriteFraming: String, CaseIterable, ExpressibleByArgument {
    /// `Content-Length` with the exact length, as `forward: spool` sends it.
    case contentLength = "content-length"
    /// `Transfer-Encoding: chunked`, as `forward: stream` sends it (chunk sizes follow this tool's reads).
    case chunked
}
