import HTTP1

/// The request head as the upstream gets it, shared by ``ClientConnection`` and `partgate rewrite`:
/// origin-form target, HTTP/1.1, hop-by-hop fields (and every Connection option) removed, Expect removed
/// (partgate answers `100-continue` itself), `X-Forwarded-For`, `X-Forwarded-Proto` and `Via` replaced by
/// partgate's, and for a re-encoded body the new Content-Type and framing.
package enum UpstreamRequestHead {
    /// How the body that follows the head is framed.
    package enum Body: Sendable, Equatable {
        /// Relayed as received: a Content-Length stays as it is; a chunked body is re-chunked.
        case relayed(chunked: Bool)
        /// Relayed as received but held until it ended (spool mode): sent with `Content-Length: length`.
        case spooled(length: Int64)
        /// Re-encoded with a new boundary: `contentType` announces it; sent chunked (`length` nil, stream mode)
        /// or with `Content-Length: length` (spool mode).
        case rewritten(contentType: String, length: Int64?)
    }

    /// The upstream request head.
    /// - Parameters:
    ///   - head: the head as the client sent it.
    ///   - client: the client's address as `X-Forwarded-For` appends it (`127.0.0.1`, `::1`).
    ///   - tls: whether the client connected over TLS (`X-Forwarded-Proto: https`).
    ///   - body: how the body is framed upstream.
    /// - Returns: the head in wire form, through its final CRLF.
    package static func make(_ head: RequestHead, client: String, tls: Bool, body: Body) -> [UInt8] {
        var removing: Set<String>
        switch body {
        case .rewritten: removing = rewriteRemovals
        case .spooled: removing = forwardRemovals.union(["content-length"])
        case .relayed: removing = forwardRemovals
        }
        if head.contains("connection") { removing.formUnion(head.hopByHopFieldNames) }
        var adding: [HTTPField] = []
        let forwardedFor = head.values("x-forwarded-for") + [client]
        adding.append(HTTPField(name: "X-Forwarded-For", value: forwardedFor.joined(separator: ", ")))
        adding.append(HTTPField(name: "X-Forwarded-Proto", value: tls ? "https" : "http"))
        let via = head.values("via") + ["\(head.version.major).\(head.version.minor) partgate"]
        adding.append(HTTPField(name: "Via", value: via.joined(separator: ", ")))
        switch body {
        case .rewritten(let contentType, let length):
            adding.append(HTTPField(name: "Content-Type", value: contentType))
            if let length {
                adding.append(HTTPField(name: "Content-Length", value: String(length)))
            } else {
                adding.append(HTTPField(name: "Transfer-Encoding", value: "chunked"))
            }
        case .relayed(let chunked):
            if chunked { adding.append(HTTPField(name: "Transfer-Encoding", value: "chunked")) }
        case .spooled(let length):
            adding.append(HTTPField(name: "Content-Length", value: String(length)))
        }
        return head.serialized(target: head.target.originForm, version: .http1_1, removing: removing, adding: adding)
    }

    /// Fields never forwarded as received: hop-by-hop ones, Expect (partgate answers 100-continue itself),
    /// and the forwarding fields partgate rewrites.
    static let forwardRemovals: Set<String> = RequestHead.standardHopByHopFieldNames.union(
        ["expect", "x-forwarded-for", "x-forwarded-proto", "via"])
    /// The same plus the framing of a re-encoded body.
    static let rewriteRemovals: Set<String> = forwardRemovals.union(["content-length", "content-type"])
}
