/// Application-Layer Protocol Negotiation (RFC 7301) for partgate, which speaks HTTP/1.x on every TLS connection.
enum ALPN {
    /// What a client offers, in wire format (length-prefixed names): just `http/1.1`.
    static let clientOffer: [UInt8] = [8] + Array("http/1.1".utf8)

    /// What a server accepts, most preferred first.
    static let serverPreference: [[UInt8]] = [Array("http/1.1".utf8), Array("http/1.0".utf8)]

    /// Picks the protocol a server answers to a client's offer (wire format).
    ///
    /// - Returns: the range of the chosen name inside `offer` (OpenSSL wants a pointer into the client's list), or
    ///   nil when the offer holds none of ``serverPreference`` or is malformed.
    static func select(from offer: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var names: [Range<Int>] = []
        var index = 0
        while index < offer.count {
            let length = Int(offer[index])
            let start = index + 1
            guard length > 0, start + length <= offer.count else { return nil }
            names.append(start..<start + length)
            index = start + length
        }
        for wanted in serverPreference {
            if let match = names.first(where: { offer[$0].elementsEqual(wanted) }) { return match }
        }
        return nil
    }
}
