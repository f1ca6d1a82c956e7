import Dispatch

/// Runs async work to its end from a synchronous command.
enum Blocking {
    /// The value of `body`, waited for on the calling thread.
    static func run<Value: Sendable>(_ body: @escaping @Sendable () async throws -> Value) throws -> Value {
        let box = ResultBox<Value>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        return try box.result!.get()
    }
}

/// The outcome of a task, read once it has ended.
private final class ResultBox<Value>: @unchecked Sendable {
    var result: Result<Value, any Error>?
}
