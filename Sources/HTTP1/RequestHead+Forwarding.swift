extension RequestHead {
    /// Hop-by-hop fields an intermediary always removes (RFC 9110 §7.6.1, plus the non-standard
    /// Proxy-Connection), lowercased.
    public static let standardHopByHopFieldNames: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade", "trailer",
    ]

    /// The lowercased names to remove before forwarding: ``standardHopByHopFieldNames`` plus every
    /// option listed in Connection. Options naming Host, Content-Length or Content-Type are not
    /// included (``RequestFraming`` refuses such requests anyway).
    public var hopByHopFieldNames: Set<String> {
        var names = RequestHead.standardHopByHopFieldNames
        let options = (try? FieldValueList.connectionOptions(fields.valueSlices(.connection))) ?? []
        names.formUnion(options.subtracting(RequestFraming.protectedFieldNames))
        return names
    }

    /// Appends the head in wire form: request line, the fields not removed, the added fields, CRLF.
    /// - Parameters:
    ///   - buffer: The buffer to append to.
    ///   - target: The request-target to send (default: the received one; a reverse proxy sends
    ///     `target.originForm`).
    ///   - version: The version to send (default: the received one).
    ///   - removing: Names of fields to leave out (see ``hopByHopFieldNames``).
    ///   - adding: Fields appended after the kept ones (X-Forwarded-For, Via, framing, ...).
    public func write(
        into buffer: inout [UInt8],
        target: String? = nil,
        version: HTTPVersion? = nil,
        removing: FieldNameSet = [],
        adding: [HTTPField] = []
    ) {
        let addedBytes = adding.reduce(0) { $0 + $1.name.utf8.count + $1.valueBytes.count + 4 }
        write(into: &buffer, target: target, version: version, removing: removing, addedBytes: addedBytes) { buffer in
            for field in adding {
                field.write(into: &buffer)
            }
        }
    }

    /// Appends the head in wire form with the added field lines written by `appendFields`, which must append
    /// only complete, valid `name: value CRLF` lines (it runs after the kept fields, before the final CRLF).
    /// - Parameters:
    ///   - buffer: The buffer to append to.
    ///   - target: The request-target to send (default: the received one).
    ///   - version: The version to send (default: the received one).
    ///   - removing: Names of fields to leave out.
    ///   - addedBytes: About how many bytes `appendFields` appends (capacity is reserved once).
    ///   - appendFields: Appends the added field lines.
    public func write(
        into buffer: inout [UInt8],
        target: String? = nil,
        version: HTTPVersion? = nil,
        removing: FieldNameSet = [],
        addedBytes: Int,
        appendFields: (inout [UInt8]) -> Void
    ) {
        let targetString = target ?? self.target.string
        precondition(
            !targetString.utf8.isEmpty && targetString.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F },
            "request-target must be visible ASCII"
        )
        buffer.reserveCapacity(buffer.count + method.utf8.count + targetString.utf8.count + 16
            + fields.storage.count + 4 * fields.count + addedBytes)
        buffer.appendUTF8(method)
        buffer.append(ByteClass.sp)
        buffer.appendUTF8(targetString)
        buffer.append(ByteClass.sp)
        (version ?? self.version).write(into: &buffer)
        buffer.append(contentsOf: HTTP1.crlf)
        fields.write(into: &buffer, removing: removing)
        appendFields(&buffer)
        buffer.append(contentsOf: HTTP1.crlf)
    }

    /// The head in wire form; see ``write(into:target:version:removing:adding:)``.
    /// - Parameters:
    ///   - target: The request-target to send (default: the received one).
    ///   - version: The version to send (default: the received one).
    ///   - removing: Names of fields to leave out.
    ///   - adding: Fields appended after the kept ones.
    public func serialized(
        target: String? = nil,
        version: HTTPVersion? = nil,
        removing: FieldNameSet = [],
        adding: [HTTPField] = []
    ) -> [UInt8] {
        var buffer: [UInt8] = []
        write(into: &buffer, target: target, version: version, removing: removing, adding: adding)
        return buffer
    }
}
