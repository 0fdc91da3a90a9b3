import HTTP1
import Multipart

/// The request head as the upstream gets it, shared by ``ClientConnection`` and `partgate rewrite`:
/// origin-form target, HTTP/1.1, hop-by-hop fields (and every Connection option) removed, Expect removed
/// (partgate answers `100-continue` itself), `X-Forwarded-For`, `X-Forwarded-Proto`, `Forwarded` and `Via`
/// replaced by partgate's, and for a re-encoded body the new Content-Type and framing.
package enum UpstreamRequestHead {
    /// How the body that follows the head is framed.
    package enum Body: Sendable, Equatable {
        /// Relayed as received, announced by `framing`: a Content-Length in its plain decimal form (never as the
        /// client spelled it: `010` is 8 to a parser that reads a leading zero as octal), a chunked body
        /// re-chunked.
        case relayed(BodyFraming)
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
    ///   - defaultHost: the Host sent when the request has none (an HTTP/1.0 request may lack it).
    package static func make(
        _ head: RequestHead, client: String, tls: Bool, body: Body, defaultHost: String
    ) -> [UInt8] {
        var buffer: [UInt8] = []
        write(
            head, from: ForwardingIdentity(client: client, tls: tls), body: body, defaultHost: defaultHost,
            into: &buffer)
        return buffer
    }

    /// ``make(_:client:tls:body:defaultHost:)`` appending to `buffer` (a worker reuses one buffer for every head),
    /// for a client whose forwarding lines were made once (a connection's every request has the same).
    static func write(
        _ head: RequestHead, from identity: ForwardingIdentity, body: Body, defaultHost: String,
        into buffer: inout [UInt8]
    ) {
        let client = identity.client
        let tls = identity.tls
        var removing: FieldNameSet
        switch body {
        case .rewritten: removing = rewriteRemovals
        case .spooled, .relayed: removing = spoolRemovals
        }
        // Forwarding fields the client named as its own hop-by-hop options are dropped, not extended.
        var forwardedFor = true
        var forwarded = true
        var via = true
        if head.contains("connection") {
            let options = head.hopByHopFieldNames
            removing.formUnion(options)
            forwardedFor = !options.contains("x-forwarded-for")
            forwarded = !options.contains("forwarded")
            via = !options.contains("via")
        }
        // The host the request was routed on goes upstream (RFC 9112 §3.2.2): an absolute-form target's authority
        // replaces a received Host that differs from it; a request without either gets the upstream's name.
        let host = Self.host(for: head)
        if host != .received { removing.formUnion(CollectionOfOne("host")) }
        // The added lines are written as bytes: every value is a received (validated) field value, the
        // client's address, partgate's own Content-Type or a number.
        head.write(
            into: &buffer, target: head.target.originForm, version: .http1_1, removing: removing,
            addedBytes: 160 + client.utf8.count
        ) { buffer in
            switch host {
            case .received: break
            case .target(let authority):
                buffer.appendLiteral("Host: ")
                buffer.append(contentsOf: authority.utf8)
                buffer.appendLiteral("\r\n")
            case .upstream:
                buffer.appendLiteral("Host: ")
                buffer.appendUTF8(defaultHost)
                buffer.appendLiteral("\r\n")
            }
            // The common case in one copy: the client sent no forwarding fields of its own (nor named them as
            // hop-by-hop options), over HTTP/1.1; the lines are then exactly the ones written below.
            if forwardedFor, forwarded, via, head.version == .http1_1, !head.fields.contains(named: "x-forwarded-for"),
                !head.fields.contains(named: "forwarded"), !head.fields.contains(named: "via")
            {
                buffer.append(contentsOf: identity.lines)
                appendFraming(into: &buffer, body)
                return
            }
            appendList(into: &buffer, prefix: "X-Forwarded-For: ", head, forwardedFor ? "x-forwarded-for" : nil) {
                $0.appendUTF8(client)
            }
            buffer.appendLiteral(tls ? "X-Forwarded-Proto: https\r\n" : "X-Forwarded-Proto: http\r\n")
            // RFC 7239: the same facts as one element appended to the client's list, so a backend that reads
            // `Forwarded` finds partgate's element last, not one the client wrote.
            appendList(into: &buffer, prefix: "Forwarded: ", head, forwarded ? "forwarded" : nil) {
                if client.utf8.contains(UInt8(ascii: ":")) {
                    $0.appendLiteral("for=\"[")
                    $0.appendUTF8(client)
                    $0.appendLiteral("]\"")
                } else {
                    $0.appendLiteral("for=")
                    $0.appendUTF8(client)
                }
                $0.appendLiteral(tls ? ";proto=https" : ";proto=http")
            }
            appendList(into: &buffer, prefix: "Via: ", head, via ? "via" : nil) {
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
            appendFraming(into: &buffer, body)
        }
    }

    /// Appends the lines that announce the body upstream: a re-encoded body's Content-Type, and the framing.
    private static func appendFraming(into buffer: inout [UInt8], _ body: Body) {
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
        case .relayed(.chunked):
            buffer.appendLiteral("Transfer-Encoding: chunked\r\n")
        case .relayed(.contentLength(let length)):
            appendLength(into: &buffer, Int64(length))
        case .relayed(.none), .relayed(.untilClose):
            break
        case .spooled(let length):
            appendLength(into: &buffer, length)
        }
    }

    /// Where the upstream's Host comes from.
    enum HostSource: Equatable {
        /// The client's Host line, kept in place.
        case received
        /// The absolute-form target's authority (it differs from the received Host, or there is none).
        case target(Substring)
        /// Neither: the upstream's own name (``UpstreamSettings/defaultHost``).
        case upstream
    }

    /// The Host source for `head` (whose Host was validated: at most one).
    static func host(for head: RequestHead) -> HostSource {
        let received = head.firstHostValue
        guard let authority = head.target.authority else { return received == nil ? .upstream : .received }
        if let received, received.elementsEqual(authority.utf8, by: { lowercased($0) == lowercased($1) }) {
            return .received
        }
        return .target(authority)
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// Appends `name: v1, v2, ..., last CRLF` (`prefix` is `name: `): the received values of the list field
    /// `name` (none when nil), byte for byte, and partgate's own.
    private static func appendList(
        into buffer: inout [UInt8], prefix: StaticString, _ head: RequestHead, _ name: String?,
        appendLast: (inout [UInt8]) -> Void
    ) {
        buffer.appendLiteral(prefix)
        if let name {
            for value in head.fields.valueSlices(named: name) {
                buffer.append(contentsOf: value)
                buffer.appendLiteral(", ")
            }
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
        ["expect", "x-forwarded-for", "x-forwarded-proto", "forwarded", "via"]))
    /// The same plus the framing of a re-encoded body.
    static let rewriteRemovals = forwardRemovals.union(["content-length", "content-type"])
    /// The same plus the received Content-Length of a spooled or relayed body (sent with its exact length).
    static let spoolRemovals = forwardRemovals.union(["content-length"])
}

/// The client facts every upstream head of a connection carries, with the forwarding lines they make when the
/// client sent none of its own: `X-Forwarded-For`, `X-Forwarded-Proto`, `Forwarded` and `Via` (HTTP/1.1), as
/// ``UpstreamRequestHead`` writes them one by one otherwise.
struct ForwardingIdentity: Sendable {
    /// The client's address as `X-Forwarded-For` names it (`127.0.0.1`, `::1`).
    let client: String
    /// Whether the client connected over TLS.
    let tls: Bool
    /// The four lines, each through its CRLF.
    let lines: [UInt8]

    init(client: String, tls: Bool) {
        self.client = client
        self.tls = tls
        var lines: [UInt8] = []
        lines.appendLiteral("X-Forwarded-For: ")
        lines.appendUTF8(client)
        lines.appendLiteral(tls ? "\r\nX-Forwarded-Proto: https\r\nForwarded: " : "\r\nX-Forwarded-Proto: http\r\nForwarded: ")
        if client.utf8.contains(UInt8(ascii: ":")) {
            lines.appendLiteral("for=\"[")
            lines.appendUTF8(client)
            lines.appendLiteral("]\"")
        } else {
            lines.appendLiteral("for=")
            lines.appendUTF8(client)
        }
        lines.appendLiteral(tls ? ";proto=https\r\nVia: 1.1 partgate\r\n" : ";proto=http\r\nVia: 1.1 partgate\r\n")
        self.lines = lines
    }
}
