extension ResponseHead {
    /// The lowercased names to remove before relaying: the standard hop-by-hop fields plus every
    /// option listed in Connection.
    public var hopByHopFieldNames: Set<String> {
        var names = RequestHead.standardHopByHopFieldNames
        let options = (try? FieldValueList.connectionOptions(fields.valueSlices(.connection))) ?? []
        names.formUnion(options.subtracting(RequestFraming.protectedFieldNames))
        return names
    }

    /// Appends the head in wire form: status line, the fields not removed, the added fields, CRLF.
    /// - Parameters:
    ///   - buffer: The buffer to append to.
    ///   - version: The version to send (default: the received one).
    ///   - removing: Names of fields to leave out.
    ///   - adding: Fields appended after the kept ones.
    public func write(
        into buffer: inout [UInt8],
        version: HTTPVersion? = nil,
        removing: FieldNameSet = [],
        adding: [HTTPField] = []
    ) {
        // One allocation for the whole head: the received bytes bound the kept ones.
        buffer.reserveCapacity(buffer.count + fields.byteCount + reasonBytes.count + 32 + 64 * adding.count)
        (version ?? self.version).write(into: &buffer)
        buffer.append(ByteClass.sp)
        buffer.append(UInt8(status / 100) + 0x30)
        buffer.append(UInt8(status / 10 % 10) + 0x30)
        buffer.append(UInt8(status % 10) + 0x30)
        buffer.append(ByteClass.sp)
        if reasonBytes.allSatisfy({ ByteClass.isFieldVChar($0) || ByteClass.isWhitespace($0) }) {
            buffer.append(contentsOf: reasonBytes)
        } else {
            buffer.append(contentsOf: reasonBytes.filter { ByteClass.isFieldVChar($0) || ByteClass.isWhitespace($0) })
        }
        buffer.append(ByteClass.cr)
        buffer.append(ByteClass.lf)
        fields.write(into: &buffer, removing: removing)
        for field in adding {
            field.write(into: &buffer)
        }
        buffer.append(ByteClass.cr)
        buffer.append(ByteClass.lf)
    }
}
