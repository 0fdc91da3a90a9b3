import CEventTLS

@testable import ProxyEngine

/// Ends a test driver's run on a loop: frees its tick timer, closes its upstream connection and breaks the loop.
func stopDriving(tick: inout OpaquePointer?, upstream: inout UpstreamConnection?, loop: EventLoop) {
    if let tick { event_free(tick) }
    tick = nil
    let closing = upstream
    upstream = nil
    closing?.close()
    _ = event_base_loopbreak(loop.base)
}

/// A TLS upstream connection from `loop` to a test peer on `port` (the test CA's certificate for localhost), its
/// bytes reported to `delegate`; nil if it could not be made.
func tlsUpstreamConnection(port: UInt16, loop: EventLoop, delegate: any UpstreamDelegate) throws -> UpstreamConnection? {
    let settings = UpstreamSettings(
        name: "up", address: SocketAddress("127.0.0.1:\(port)")!, serverName: "localhost",
        tls: try TLSFixture.shared.clientContext(), connectTimeout: .seconds(30), responseTimeout: .seconds(30))
    let connection = UpstreamConnection(loop: loop, settings: settings, buffers: BufferSettings())
    connection?.delegate = delegate
    return connection
}

/// Runs `loop` until a callback breaks it or `seconds` pass.
func runLoop(_ loop: EventLoop, seconds: Int) {
    var limit = timeval(tv_sec: seconds, tv_usec: 0)
    _ = event_base_loopexit(loop.base, &limit)
    loop.run()
}

/// A test driver woken every millisecond.
protocol TickingDriver: AnyObject {
    func ticked()
}

/// Starts a persistent 1 ms timer on `loop` that calls `driver.ticked()` (unretained: free it before the driver goes).
func startTicking(_ driver: any TickingDriver, on loop: EventLoop) -> OpaquePointer? {
    let context = Unmanaged.passUnretained(driver as AnyObject).toOpaque()
    let tick = event_new(loop.base, -1, Int16(EV_PERSIST), { _, _, context in
        (Unmanaged<AnyObject>.fromOpaque(context!).takeUnretainedValue() as! any TickingDriver).ticked()
    }, context)
    var interval = timeval(tv_sec: 0, tv_usec: 1000)
    _ = event_add(tick, &interval)
    return tick
}
