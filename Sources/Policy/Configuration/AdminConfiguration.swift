/// The admin listener (`admin:`): plain HTTP with `/metrics`, `/healthz` and `/readyz`.
public struct AdminConfiguration: Sendable, Hashable {
    /// Where to listen (`address:`); keep it on loopback or a private network.
    public var address: ListenAddress

    /// - Parameter address: where to listen.
    public init(address: ListenAddress) {
        self.address = address
    }
}
