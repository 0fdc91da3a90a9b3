import Foundation
import ProxyEngine

/// Collects what an ``EchoUpstream`` received, across threads.
public final class EchoRecorder: @unchecked Sendable {
    // @unchecked Sendable: every access holds `lock`.
    private let lock = NSLock()
    private var items: [EchoRecord] = []

    public init() {}

    public func append(_ record: EchoRecord) {
        lock.lock()
        items.append(record)
        lock.unlock()
    }

    public var records: [EchoRecord] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}
