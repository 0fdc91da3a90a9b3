import HTTP1
import Multipart

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
        case rewritten(boundary: Boundary, length: Int64?)
    }

    /// The upstream request head.
    /// - Parameters:
    ///   - head: the head as the client sent it.
    ///   - client: the client's address as `X-Forwarded-For` appends it (`127.0.0.1`, `::1`).
    ///   - tls: whether the client connected over TLS (`X-Forwarded-Proto: https`).
    ///   - body: how the body is framed upstream.
    /// - Returns: the head in wire form, through its final CRLF.
    package static func make(_ head: RequestHead, client: String, tls: Bool, body: Body) -> [UInt8] {
        var buffer: [UInt8] = []
        write(head, client: client, tls: tls, body: body, into: &buffer)
        return buffer
    }

    /// ``make(_:client:tls:body:)`` appending to `buffer` (a worker reuses one buffer for every head).
    static func write(_ head: RequestHead, client: String, tls: Bool, body: Body, into buffer: inout [UInt8]) {
        var removing: FieldNameSet
        switch body {
        case .rewritten: removing = rewriteRemovals
        case .spooled: removing = spoolRemovals
        case .relayed: removing = forwardRemovals
        }
        if head.contains("connection") { removing.formUnion(head.hopByHopFieldNames) }
        // The added lines are written as bytes: every value is a received (validated) field value, the
        // client's address, partgate's own Content-Type or a number.
        head.write(
            into: &buffer, target: head.target.originForm, version: .http1_1, removing: removing,
            addedBytes: 160 + client.utf8.count
        ) { buffer in
            appendList(into: &buffer, prefix: "X-Forwarded-For: ", head.values("x-forwarded-for")) {
                $0.appendUTF8(client)
            }
            buffer.appendLiteral(tls ? "X-Forwarded-Proto: https\r\n" : "X-Forwarded-Proto: http\r\n")
            appendList(into: &buffer, prefix: "Via: ", head.values("via")) {
                switch head.version {
                case .http1_1: $0.appendLiteral("1.1 partgate")
                case .http1_0: $0.appendLiteral("1.0 partgate")
                default:
                    $0.appendUTF8(String(head.version.major))
                    $0.append(UInt8(ascii: "."))
                    $0.appendUTF8(String(head.version.minor))
                    $0.appendLiteral(" partgate")
                }
            }
            switch body {
            case .rewritten(let boundary, let length):
                buffer.appendLiteral("Content-Type: ")
                MultipartContentType.appendHeaderValue(for: boundary, to: &buffer)
                buffer.appendLiteral("\r\n")
                if let length {
                    appendLength(into: &buffer, length)
                } else {
                    buffer.appendLiteral("Transfer-Encoding: chunked\r\n")
                }
            case .relayed(let chunked):
                if chunked { buffer.appendLiteral("Transfer-Encoding: chunked\r\n") }
            case .spooled(let length):
                appendLength(into: &buffer, length)
            }
        }
    }

    /// Appends `name: v1, v2, ..., last CRLF` (`prefix` is `name: `): the received values of a list field and
    /// partgate's own.
    private static func appendList(
        into buffer: inout [UInt8], prefix: StaticString, _ received: [String], appendLast: (inout [UInt8]) -> Void
    ) {
        buffer.appendLiteral(prefix)
        for value in received {
            buffer.appendUTF8(value)
            buffer.appendLiteral(", ")
        }
        appendLast(&buffer)
        buffer.appendLiteral("\r\n")
    }

    /// Appends `Content-Length: length CRLF`.
    private static func appendLength(into buffer: inout [UInt8], _ length: Int64) {
        buffer.appendLiteral("Content-Length: ")
        buffer.appendDecimal(length)
        buffer.appendLiteral("\r\n")
    }

    /// Fields never forwarded as received: hop-by-hop ones, Expect (partgate answers 100-continue itself),
    /// and the forwarding fields partgate rewrites.
    static let forwardRemovals = FieldNameSet(RequestHead.standardHopByHopFieldNames.union(
        ["expect", "x-forwarded-for", "x-forwarded-proto", "via"]))
    /// The same plus the framing of a re-encoded body.
    static let rewriteRemovals = forwardRemovals.union(["content-length", "content-type"])
    /// The same plus the received Content-Length of a spooled body (sent with its exact length).
    static let spoolRemovals = forwardRemovals.union(["content-length"])
}
