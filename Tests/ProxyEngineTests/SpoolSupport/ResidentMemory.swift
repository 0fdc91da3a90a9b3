import Foundation

/// The process's resident set size (VmRSS of /proc/self/status), and a sampler that records its peak.
final class ResidentMemory: @unchecked Sendable {
    // @unchecked Sendable: `peakBytes` and `running` are only touched while holding `lock`.
    private let lock = NSLock()
    private var peakBytes = 0
    private var running = true

    /// Whether RSS follows live memory: not under AddressSanitizer, whose quarantine keeps freed memory
    /// resident (64 MiB of chains allocated and freed one after the other show up as 64 MiB).
    static let followsLiveMemory = dlsym(nil, "__asan_init") == nil

    /// VmRSS now, in bytes.
    static func current() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
        return kilobytes * 1024
    }

    /// Starts sampling every few milliseconds.
    init() {
        peakBytes = Self.current()
        let thread = Thread {  // holds self until stop()
            while self.sample() { usleep(2000) }
        }
        thread.start()
    }

    private func sample() -> Bool {
        let value = Self.current()
        lock.lock()
        defer { lock.unlock() }
        peakBytes = max(peakBytes, value)
        return running
    }

    /// Stops sampling; returns the highest VmRSS seen.
    func stop() -> Int {
        _ = sample()
        lock.lock()
        running = false
        let peak = peakBytes
        lock.unlock()
        return peak
    }
}
