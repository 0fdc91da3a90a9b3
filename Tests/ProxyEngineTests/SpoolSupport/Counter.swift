import Foundation

/// An integer set from another thread.
final class Counter: @unchecked Sendable {
    // @unchecked Sendable: `stored` is only touched while holding `lock`.
    private let lock = NSLock()
    private var stored = 0
    func set(_ value: Int) { lock.lock(); stored = value; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return stored }
}
