import Foundation
import ProxyEngine

/// Collects what an ``EchoUpstream`` received, across threads.
public final class EchoRecorder: @unchecked Sendable {
    // @unchecked Sendable: every access holds `condition`.
    private let condition = NSCondition()
    private var items: [EchoRecord] = []

    public init() {}

    public func append(_ record: EchoRecord) {
        condition.lock()
        items.append(record)
        condition.broadcast()
        condition.unlock()
    }

    public var records: [EchoRecord] {
        condition.lock()
        defer { condition.unlock() }
        return items
    }

    /// Waits until at least `count` records arrived or `timeout` seconds passed; returns the records.
    public func wait(for count: Int, timeout: TimeInterval = 10) -> [EchoRecord] {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while items.count < count, condition.wait(until: deadline) {}
        return items
    }
}
