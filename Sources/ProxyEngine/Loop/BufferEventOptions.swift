import CEventTLS

/// The options of every bufferevent the engine makes.
enum BufferEventOptions {
    /// `BEV_OPT_CLOSE_ON_FREE | BEV_OPT_DEFER_CALLBACKS`.
    ///
    /// Deferred callbacks run from the loop, after the libevent call that produced them has returned, and a
    /// bufferevent's read callback runs before its event callback. That ordering is what makes a TLS connection's
    /// last bytes safe: libevent 2.1.12's OpenSSL bufferevent, when one read pass gets data and then the peer's
    /// close_notify (or an error), reports the end before it commits the data to the input (fixed after 2.1.12).
    /// With immediate callbacks, a connection that acts on the end would see the input without its last bytes;
    /// deferred, the data is in the input and read before the end is seen (`TLSEndOrderingTests`).
    static let standard = Int32(bitPattern: BEV_OPT_CLOSE_ON_FREE.rawValue | BEV_OPT_DEFER_CALLBACKS.rawValue)
}
