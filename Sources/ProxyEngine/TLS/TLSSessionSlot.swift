import CEventTLS

/// What a client `SSL` carries for the new-session callback: the cache to store sessions in and the server name
/// to store them under.
///
/// Attached as `SSL` ex-data holding one retain, released by OpenSSL's ex-data free callback when the `SSL` is
/// freed. So the `SSL` keeps its cache alive: a connection that outlives its ``TLSClientContext`` (freed by
/// libevent later) still stores its late TLS 1.3 tickets safely.
final class TLSSessionSlot: Sendable {
    let cache: TLSSessionCache
    let key: String

    init(cache: TLSSessionCache, key: String) {
        self.cache = cache
        self.key = key
    }

    /// The ex-data index for slots on `SSL` objects, registered once per process.
    private static let index: Int32 = {
        let index = CRYPTO_get_ex_new_index(CRYPTO_EX_INDEX_SSL, 0, nil, nil, retainSlot, releaseSlot)
        guard index >= 0 else { fatalError("OpenSSL: cannot register an SSL ex-data index") }
        return index
    }()

    /// Attaches this slot to `ssl`, which then holds one retain.
    ///
    /// - Returns: false if OpenSSL could not store it (nothing is retained then).
    func attach(to ssl: OpaquePointer) -> Bool {
        let retained = Unmanaged.passRetained(self)
        guard SSL_set_ex_data(ssl, Self.index, retained.toOpaque()) == 1 else {
            retained.release()
            return false
        }
        return true
    }

    /// The slot attached to `ssl`, if any (borrowed: `ssl` keeps it alive).
    static func attached(to ssl: OpaquePointer) -> TLSSessionSlot? {
        guard let raw = SSL_get_ex_data(ssl, index) else { return nil }
        return Unmanaged<TLSSessionSlot>.fromOpaque(raw).takeUnretainedValue()
    }
}

/// `SSL_free`: drop the retain the `SSL` held (called for every registered index, with nil when unset).
private let releaseSlot:
    @convention(c) (
        UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<CRYPTO_EX_DATA>?, Int32, Int,
        UnsafeMutableRawPointer?
    ) -> Void = { _, slot, _, _, _, _ in
        if let slot { Unmanaged<TLSSessionSlot>.fromOpaque(slot).release() }
    }

/// `SSL_dup` copies the pointer into the new `SSL`, which then holds a retain of its own.
private let retainSlot:
    @convention(c) (
        UnsafeMutablePointer<CRYPTO_EX_DATA>?, UnsafePointer<CRYPTO_EX_DATA>?,
        UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
        Int32, Int, UnsafeMutableRawPointer?
    ) -> Int32 = { _, _, slotPointer, _, _, _ in
        if let slot = slotPointer?.pointee {
            _ = Unmanaged<TLSSessionSlot>.fromOpaque(slot).retain()
        }
        return 1
    }
