import Foundation

/// A loopback port that refuses connections for as long as this value lives: a TCP socket bound to
/// 127.0.0.1:0 that never listens, so a connect gets a reset (ECONNREFUSED) and no other socket can be
/// given the port meanwhile. (Binding a server, reading its port and closing it leaves a window in which a
/// test running in parallel can be handed the same port and answer in its place.)
public final class RefusingPort: @unchecked Sendable {
    // @unchecked Sendable: both properties are set in init and never change.
    public let descriptor: Int32
    public let port: UInt16

    public init() {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        precondition(fd >= 0, "socket: errno \(errno)")
        guard let bound = LoopbackBind.anyPort(fd) else { preconditionFailure("bind: errno \(errno)") }
        descriptor = fd
        port = bound
    }

    deinit {
        close(descriptor)
    }
}
