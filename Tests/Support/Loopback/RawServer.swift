import Foundation

/// A blocking loopback TCP server for fault tests: each accepted connection runs `handler` on a thread.
public final class RawServer: @unchecked Sendable {
    // @unchecked Sendable: `descriptor`, `port` and `ended` are set in init; `stopped` is only touched by the
    // thread that stops the server.
    public let descriptor: Int32
    public let port: UInt16
    private let thread: Thread
    private let ended: DispatchSemaphore
    private var stopped = false

    public init(handler: @escaping @Sendable (Int32) -> Void) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = LoopbackBind.anyPort(fd)
        listen(fd, 64)
        descriptor = fd
        port = bound ?? 0
        let ended = DispatchSemaphore(value: 0)
        self.ended = ended
        thread = Thread {
            defer { ended.signal() }
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 { return }
                Thread { handler(client); close(client) }.start()
            }
        }
        thread.start()
    }

    /// Stops accepting. The descriptor is closed only once the accept loop ended: closed under it, its number
    /// could name another thread's socket by the loop's next `accept`.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        shutdown(descriptor, Int32(SHUT_RDWR))
        _ = ended.wait(timeout: .now() + 10)
        close(descriptor)
    }

    /// Reads until the request head ends (CRLFCRLF); returns the bytes read.
    public static func readHead(_ fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while recv(fd, &byte, 1, 0) == 1 {
            bytes.append(byte)
            if bytes.count >= 4, bytes.suffix(4) == [13, 10, 13, 10] { break }
        }
        return bytes
    }

    /// Reads everything until the peer closes; returns the byte count.
    public static func drain(_ fd: Int32) -> Int {
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return total }
            total += count
        }
    }

    public static func send(_ fd: Int32, _ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}
