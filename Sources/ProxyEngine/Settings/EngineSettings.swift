import HTTP1
import Multipart
import Policy
#if canImport(Glibc)
import Glibc
#endif

/// Everything the engine needs to serve, resolved and immutable: the CLI builds it from the YAML
/// configuration (or tests build it directly). Workers share one snapshot; a reload swaps it.
public struct EngineSettings: Sendable {
    /// Worker threads (one event loop each).
    public var workers: Int
    /// The most client connections each worker holds open (`max_connections:` divided among the workers); at
    /// the limit the worker stops accepting until one closes.
    public var maxConnectionsPerWorker: Int = .max
    /// Addresses to listen on.
    public var listeners: [ListenerSettings]
    /// Upstreams by name.
    public var upstreams: [String: UpstreamSettings]
    /// Routes, first match wins.
    public var routes: [RouteConfiguration]
    /// Request-head limits (431 beyond them).
    public var headLimits: HeadLimits
    /// Time allowed for a whole request head (408 beyond it).
    public var headerTimeout: Duration
    /// Time a keep-alive connection may sit idle between requests.
    public var idleTimeout: Duration {
        didSet { idle = LoopTimeout(idleTimeout) }
    }
    /// `idleTimeout`, converted for the connection timers (``LoopTimeout``).
    private(set) var idle: LoopTimeout
    /// How long a keep-alive connection sits idle between requests before it lets go of what it keeps for the
    /// next one (the last multipart rewriter and the head parsers' field buffers; see
    /// `ClientConnection.trimIdleState()`). A busy connection reuses them; an idle one holds only its socket's.
    public var idleTrimDelay: Duration {
        didSet { idleTrim = LoopTimeout(idleTrimDelay) }
    }
    /// `idleTrimDelay`, converted for the connection timers.
    private(set) var idleTrim = LoopTimeout(.seconds(1))
    /// On SIGTERM, time allowed for in-flight requests before the process exits.
    public var drainTimeout: Duration
    /// Buffering per connection and direction (watermarks): bounds memory per connection.
    public var buffers: BufferSettings
    /// Where `forward: spool` routes put the temp files of bodies beyond their `spool_memory` (unlinked as
    /// soon as they are created). Default: `$TMPDIR`, or `/tmp`.
    public var spoolDirectory: String
    /// Which configuration this is: 1 for the one the server started with, one more per reload (set by
    /// ``ProxyServer/reload(settings:)``; connections compare it to notice a new snapshot).
    public internal(set) var generation = 1

    /// `$TMPDIR` when set and not empty, otherwise `/tmp`.
    public static var defaultSpoolDirectory: String {
        if let value = getenv("TMPDIR"), value.pointee != 0 { return String(cString: value) }
        return "/tmp"
    }

    /// - Parameters: see the properties.
    public init(
        workers: Int = 1, listeners: [ListenerSettings], upstreams: [String: UpstreamSettings],
        routes: [RouteConfiguration], headLimits: HeadLimits = HeadLimits(), headerTimeout: Duration = .seconds(10),
        idleTimeout: Duration = .seconds(60), drainTimeout: Duration = .seconds(30), buffers: BufferSettings = BufferSettings(),
        spoolDirectory: String = Self.defaultSpoolDirectory
    ) {
        self.workers = workers
        self.listeners = listeners
        self.upstreams = upstreams
        self.routes = routes
        self.headLimits = headLimits
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.idle = LoopTimeout(idleTimeout)
        self.idleTrimDelay = .seconds(1)
        self.drainTimeout = drainTimeout
        self.buffers = buffers
        self.spoolDirectory = spoolDirectory
    }
}

/// One listening address.
public struct ListenerSettings: Sendable {
    /// Where to listen; port 0 picks a free port (the bound address is reported).
    public var address: SocketAddress
    /// TLS for clients, if any.
    public var tls: (any ServerTLSProvider)?

    public init(address: SocketAddress, tls: (any ServerTLSProvider)? = nil) {
        self.address = address
        self.tls = tls
    }
}

/// One upstream server.
public struct UpstreamSettings: Sendable {
    /// Name used by routes and logs.
    public var name: String
    /// Resolved address to connect to.
    public var address: SocketAddress {
        didSet { defaultHost = Self.hostField(serverName, port: address.port, tls: tls != nil) }
    }
    /// The other addresses the upstream's name resolved to, tried in order when a connect to the one before fails
    /// (refused, unreachable, timed out) before any request byte went out, as nginx tries each address of a name.
    /// Empty for a numeric address or a name with one address.
    public var alternateAddresses: [SocketAddress] = []
    /// ``address``, then ``alternateAddresses``.
    public var addresses: [SocketAddress] { [address] + alternateAddresses }
    /// The host name (for SNI, certificate verification and logs).
    public var serverName: String {
        didSet { defaultHost = Self.hostField(serverName, port: address.port, tls: tls != nil) }
    }
    /// TLS towards the upstream (nil: plain HTTP).
    public var tls: (any UpstreamTLSProvider)? {
        didSet { defaultHost = Self.hostField(serverName, port: address.port, tls: tls != nil) }
    }
    /// The Host a request without one is sent with (an HTTP/1.0 request may lack it; HTTP/1.1 needs it):
    /// ``serverName``, with the port unless it is the scheme's default, as nginx's `$proxy_host`.
    private(set) var defaultHost: String
    public var connectTimeout: Duration
    public var responseTimeout: Duration {
        didSet { response = LoopTimeout(responseTimeout) }
    }
    /// `responseTimeout`, converted for the connection timers (``LoopTimeout``).
    private(set) var response: LoopTimeout
    /// Idle keep-alive connections kept per worker.
    public var maxIdleConnections: Int

    public init(
        name: String, address: SocketAddress, serverName: String, tls: (any UpstreamTLSProvider)?,
        connectTimeout: Duration = .seconds(5), responseTimeout: Duration = .seconds(60), maxIdleConnections: Int = 32
    ) {
        self.name = name
        self.address = address
        self.serverName = serverName
        self.tls = tls
        self.defaultHost = Self.hostField(serverName, port: address.port, tls: tls != nil)
        self.connectTimeout = connectTimeout
        self.responseTimeout = responseTimeout
        self.response = LoopTimeout(responseTimeout)
        self.maxIdleConnections = maxIdleConnections
    }
}

extension UpstreamSettings {
    /// `host[:port]` for a Host field: an IPv6 literal in brackets, the port left out when it is the scheme's.
    package static func hostField(_ host: String, port: UInt16, tls: Bool) -> String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (tls ? 443 : 80) ? name : "\(name):\(port)"
    }
}

/// Read and write buffering per connection direction.
public struct BufferSettings: Sendable {
    /// libevent stops reading a socket once this many unprocessed input bytes are buffered.
    public var readHighWater: Int
    /// Stop reading the producer once the consumer's output holds this many bytes ...
    public var writeHighWater: Int
    /// ... and resume once it drained to this many.
    public var writeLowWater: Int
    /// Largest single socket read/write (larger means fewer syscalls per GiB).
    public var maxSingleIO: Int

    public init(readHighWater: Int = 256 * 1024, writeHighWater: Int = 512 * 1024, writeLowWater: Int = 128 * 1024,
                maxSingleIO: Int = 256 * 1024) {
        self.readHighWater = readHighWater
        self.writeHighWater = writeHighWater
        self.writeLowWater = writeLowWater
        self.maxSingleIO = maxSingleIO
    }
}
