import Foundation

/// A signal one task waits on with a time limit: a notification from the database wakes the follower at
/// once, the limit makes it poll when notifications are lost.
final class Wakeup: @unchecked Sendable {
    private let lock = NSLock()
    private var pending = false
    private var waiting: CheckedContinuation<Void, Never>?
    private var generation = 0

    /// Wakes the waiter, or the next wait when none is waiting.
    func signal() {
        let waiter: CheckedContinuation<Void, Never>? = lock.withLock {
            guard let waiting else {
                pending = true
                return nil
            }
            self.waiting = nil
            return waiting
        }
        waiter?.resume()
    }

    /// Returns when signalled (or already signalled since the last wait), or after `limit`.
    func wait(upTo limit: Duration) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ticket: Int? = lock.withLock {
                if pending {
                    pending = false
                    return nil
                }
                generation += 1
                waiting = continuation
                return generation
            }
            guard let ticket else { return continuation.resume() }
            Task {
                try? await Task.sleep(for: limit)
                let waiter: CheckedContinuation<Void, Never>? = self.lock.withLock {
                    guard self.generation == ticket, let waiting = self.waiting else { return nil }
                    self.waiting = nil
                    return waiting
                }
                waiter?.resume()
            }
        }
    }
}
