import CEventTLS

/// One libevent `event_base`, driven by one thread.
///
/// Everything registered with the loop (listeners, connections, timers) is touched only from the loop's
/// thread. The only calls allowed from other threads are ``stop()`` (`event_base_loopbreak` is thread-safe
/// once `evthread_use_pthreads` ran) and ``schedule(_:)``, which hands a closure to the loop thread.
public final class EventLoop: @unchecked Sendable {
    // @unchecked Sendable: the base is only used on the loop thread, except event_base_loopbreak and
    // event_active on the wake-up event, which libevent makes thread-safe with evthread_use_pthreads.
    let base: OpaquePointer
    private var wakeEvent: OpaquePointer?
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
        let made = event_base_new_with_config(config)
        event_config_free(config)
        guard let base = made else { fatalError("libevent: event_base_new failed") }
        self.base = base
        let me = Unmanaged.passUnretained(self).toOpaque()
        wakeEvent = event_new(base, -1, 0, { _, _, context in
            Unmanaged<EventLoop>.fromOpaque(context!).takeUnretainedValue().runPending()
        }, me)
    }

    deinit {
        if let wakeEvent { event_free(wakeEvent) }
        event_base_free(base)
    }

    /// Runs the loop until ``stop()``; then closes every registered resource and lets deferred callbacks
    /// run once more so their references are dropped (P10b).
    public func run() {
        _ = event_base_dispatch(base)
        for resource in Array(registry.values) { resource.close() }
        registry.removeAll()
        // Deferred callbacks and bufferevent finalizers hold references until they run (P10b); a freed
        // bufferevent can queue another, so run non-blocking passes until nothing is left to do.
        for _ in 0..<16 {
            runPending()
            if event_base_loop(base, EVLOOP_NONBLOCK) != 0 && local.isEmpty { break }
        }
    }

    /// Makes ``run()`` return (thread-safe), also when called before the loop started dispatching:
    /// libevent clears a pending loopbreak when dispatch begins, so the break is also queued as work,
    /// which the loop runs as soon as it dispatches.
    public func stop() {
        schedule { [self] in _ = event_base_loopbreak(self.base) }
        _ = event_base_loopbreak(base)
    }

    /// Runs `work` on the loop thread soon (thread-safe).
    public func schedule(_ work: @escaping @Sendable () -> Void) {
        pending.append(work)
        if let wakeEvent { event_active(wakeEvent, 0, 0) }
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
}

/// Something a loop closes when it stops.
protocol LoopResource: AnyObject {
    func close()
}
