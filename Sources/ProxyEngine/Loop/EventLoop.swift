import CEventTLS
#if canImport(Glibc)
import Glibc
#endif

/// One libevent `event_base`, driven by one thread.
///
/// Everything registered with the loop (listeners, connections, timers) is touched only from the loop's
/// thread. The only calls allowed from other threads are ``stop()`` and ``schedule(_:)``, which hand a closure
/// to the loop thread through a mutex-guarded list and an `eventfd`.
///
/// The base has no lock (`EVENT_BASE_FLAG_NOLOCK`): with one, libevent took and released its mutex ~26 times
/// per proxied small request (every `event_add`, `event_del`, `event_active`, `event_pending` and loop turn),
/// ~1.8 k instructions and as many atomic operations, to guard a base only its own thread uses. Other threads
/// reach the loop only by writing to the eventfd, which a persistent read event on the loop watches.
public final class EventLoop: @unchecked Sendable {
    // @unchecked Sendable: the base is only used on the loop thread; other threads only append to `pending`
    // (its own mutex) and write to `wakeDescriptor`.
    let base: OpaquePointer
    /// Same-thread wake-up (``soon(_:)``): made active without a system call.
    private var wakeEvent: OpaquePointer?
    /// Cross-thread wake-up (``schedule(_:)``): an eventfd and its persistent read event.
    private let wakeDescriptor: Int32
    private var wakeReadEvent: OpaquePointer?
    private let pending = PendingWork()
    /// Objects that must be closed if the loop stops with them still open (P10a).
    private var registry: [ObjectIdentifier: any LoopResource] = [:]

    /// Creates an event base.
    public init() {
        LibeventSetup.ensure()
        // The epoll changelist applies event additions and removals once per loop turn, so an event armed
        // and disarmed within one turn (an upstream write event whose bytes were written at once, see
        // UpstreamConnection) costs no epoll_ctl. libevent's caveat is for descriptors cloned by dup() that
        // epoll watches; partgate registers none (the spool's dup is of a regular file, never in epoll).
        guard let config = event_config_new() else { fatalError("libevent: event_config_new failed") }
        _ = event_config_set_flag(config, Int32(EVENT_BASE_FLAG_EPOLL_USE_CHANGELIST.rawValue))
        _ = event_config_set_flag(config, Int32(EVENT_BASE_FLAG_NOLOCK.rawValue))
        let made = event_base_new_with_config(config)
        event_config_free(config)
        guard let base = made else { fatalError("libevent: event_base_new failed") }
        self.base = base
        let descriptor = cshim_wake_eventfd()
        guard descriptor >= 0 else { fatalError("eventfd failed: errno \(errno)") }
        wakeDescriptor = descriptor
        let me = Unmanaged.passUnretained(self).toOpaque()
        wakeEvent = event_new(base, -1, 0, { _, _, context in
            Unmanaged<EventLoop>.fromOpaque(context!).takeUnretainedValue().runPending()
        }, me)
        wakeReadEvent = event_new(base, descriptor, Int16(EV_READ | EV_PERSIST), { _, _, context in
            let loop = Unmanaged<EventLoop>.fromOpaque(context!).takeUnretainedValue()
            loop.drainWakeDescriptor()
            loop.runPending()
        }, me)
        _ = event_add(wakeReadEvent, nil)
    }

    deinit {
        if let wakeEvent { event_free(wakeEvent) }
        if let wakeReadEvent { event_free(wakeReadEvent) }
        event_base_free(base)
        close(wakeDescriptor)
    }

    /// Resets the eventfd's counter (nonblocking: a wake-up already drained reads EAGAIN).
    private func drainWakeDescriptor() {
        var count: UInt64 = 0
        _ = read(wakeDescriptor, &count, MemoryLayout<UInt64>.size)
    }

    /// Runs the loop until ``stop()``; then closes every registered resource and lets deferred callbacks
    /// run once more so their references are dropped (P10b).
    public func run() {
        _ = event_base_dispatch(base)
        // The persistent wake-up event would keep every non-blocking pass below busy; pending work from
        // other threads still runs through runPending().
        if let wakeReadEvent { _ = event_del(wakeReadEvent) }
        for resource in Array(registry.values) { resource.close() }
        registry.removeAll()
        // Deferred callbacks and bufferevent finalizers hold references until they run (P10b); a freed
        // bufferevent can queue another, so run non-blocking passes until nothing is left to do.
        for _ in 0..<16 {
            runPending()
            if event_base_loop(base, EVLOOP_NONBLOCK) != 0 && local.isEmpty { break }
        }
    }

    /// Makes ``run()`` return (thread-safe), also when called before the loop started dispatching: the
    /// break is queued as work, which the loop runs on its thread as soon as it dispatches.
    public func stop() {
        schedule { [self] in _ = event_base_loopbreak(self.base) }
    }

    /// Runs `work` on the loop thread soon (thread-safe).
    public func schedule(_ work: @escaping @Sendable () -> Void) {
        pending.append(work)
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, MemoryLayout<UInt64>.size)
    }

    /// Runs `work` on the next loop turn; call only on the loop thread.
    func soon(_ work: @escaping () -> Void) {
        local.append(work)
        if let wakeEvent { event_active(wakeEvent, 0, 0) }
    }

    private var local: [() -> Void] = []

    private func runPending() {
        for work in pending.takeAll() { work() }
        while !local.isEmpty {
            let batch = local
            local.removeAll()
            for work in batch { work() }
        }
    }

    func register(_ resource: any LoopResource) {
        registry[ObjectIdentifier(resource)] = resource
    }

    func unregister(_ resource: any LoopResource) {
        registry[ObjectIdentifier(resource)] = nil
    }

    /// Open resources (connections, listeners) on this loop.
    var openResources: Int { registry.count }

    /// The open resources themselves; read only on the loop thread.
    var resources: Dictionary<ObjectIdentifier, any LoopResource>.Values { registry.values }
}

/// Something a loop closes when it stops.
protocol LoopResource: AnyObject {
    func close()
}
