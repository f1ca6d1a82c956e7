import Foundation

/// A database call that has not answered within its time is given up on: the follower treats its
/// connection as lost and connects again, rather than waiting on a connection that may never answer.
struct DeadlineExceeded: Error, CustomStringConvertible {
    let limit: Duration
    var description: String { "no answer within \(limit)" }
}

/// The value of `body`, or ``DeadlineExceeded`` when it takes longer than `limit`; `body` is then
/// cancelled and left to end on its own (it must not change anything this process holds).
func withDeadline<Value: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> Value) async throws -> Value {
    let outcome = FirstOutcome<Value>()
    let work = Task {
        do { outcome.finish(.success(try await body())) } catch { outcome.finish(.failure(error)) }
    }
    let timer = Task {
        try? await Task.sleep(for: limit)
        outcome.finish(.failure(DeadlineExceeded(limit: limit)))
    }
    defer {
        work.cancel()
        timer.cancel()
    }
    return try await outcome.value()
}

/// The first of several outcomes; later ones are dropped.
private final class FirstOutcome<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Value, any Error>?
    private var waiting: CheckedContinuation<Value, any Error>?

    func finish(_ outcome: Result<Value, any Error>) {
        let waiter: CheckedContinuation<Value, any Error>? = lock.withLock {
            guard result == nil else { return nil }
            result = outcome
            defer { waiting = nil }
            return waiting
        }
        waiter?.resume(with: outcome)
    }

    func value() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<Value, any Error>? = lock.withLock {
                if let result { return result }
                waiting = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}
