import Foundation
import PostgresNIO

/// The writers' connections to the primary, at most `limit` open at once. Each is opened through the address's
/// hosts in order (``DatabaseAddress/connect(id:logger:)``), so that once a failover has promoted another node,
/// new connections reach it. A connection whose use failed for any reason but a statement's own error (its
/// server went away or turned read-only, the use was cancelled at its deadline) is closed, and the idle ones with
/// it: they most likely lead to the same lost server.
final class PrimaryConnections: @unchecked Sendable {
    private let address: DatabaseAddress
    private let limit: Int
    private let lock = NSLock()
    private var idle: [PostgresConnection] = []
    private var open = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var nextID = 100

    /// The server's answers that mean the connection cannot write any more: read-only (a demoted primary or a
    /// standby), shut down by an administrator or a crash, not accepting connections now.
    static let lostStates: Set<String> = ["25006", "57P01", "57P02", "57P03"]

    init(address: DatabaseAddress, limit: Int = 8) {
        self.address = address
        self.limit = limit
    }

    /// The value of `body` run on a connection to the primary. Cancelling the task closes the connection, so
    /// that a statement sent to a server that no longer answers ends at once.
    func withConnection<Value: Sendable>(_ body: (PostgresConnection) async throws -> Value) async throws -> Value {
        let connection = try await take()
        do {
            let value = try await withTaskCancellationHandler {
                try await body(connection)
            } onCancel: {
                Task { try? await connection.close() }
            }
            release(connection, reusable: !Task.isCancelled && !connection.isClosed)
            return value
        } catch {
            let statementError = DatabaseError.sqlState(of: error).map { !PrimaryConnections.lostStates.contains($0) } ?? false
            release(connection, reusable: statementError && !Task.isCancelled && !connection.isClosed)
            throw error
        }
    }

    /// Closes every idle connection.
    func close() async {
        let closing = lock.withLock {
            defer { open -= idle.count; idle = [] }
            return idle
        }
        for connection in closing { try? await connection.close() }
    }

    private func take() async throws -> PostgresConnection {
        while true {
            try Task.checkCancellation()
            enum Step { case use(PostgresConnection), open(id: Int), wait }
            let step: Step = lock.withLock {
                if let connection = idle.popLast() { return .use(connection) }
                guard open < limit else { return .wait }
                open += 1
                nextID += 1
                return .open(id: nextID)
            }
            switch step {
            case .use(let connection):
                guard !connection.isClosed else {
                    release(connection, reusable: false)
                    continue
                }
                return connection
            case .open(let id):
                do {
                    let connection = try await address.connect(id: id, logger: Database.logger)
                    if Task.isCancelled {
                        release(connection, reusable: false)
                        throw CancellationError()
                    }
                    return connection
                } catch {
                    release(nil, reusable: false)
                    throw error
                }
            case .wait:
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let free = lock.withLock {
                        if !idle.isEmpty || open < limit { return true }
                        waiters.append(continuation)
                        return false
                    }
                    if free { continuation.resume() }
                }
            }
        }
    }

    /// Gives a connection's slot back: the connection kept for the next use when `reusable`, else closed with
    /// every idle one. Every waiter is woken to try again (a cancelled one leaves without using its turn).
    private func release(_ connection: PostgresConnection?, reusable: Bool) {
        let (woken, closing): ([CheckedContinuation<Void, Never>], [PostgresConnection]) = lock.withLock {
            var closing: [PostgresConnection] = []
            if let connection, reusable {
                idle.append(connection)
            } else {
                open -= 1
                if let connection { closing.append(connection) }
                if connection != nil {
                    closing += idle
                    open -= idle.count
                    idle = []
                }
            }
            defer { waiters = [] }
            return (waiters, closing)
        }
        for connection in closing { Task { try? await connection.close() } }
        for waiter in woken { waiter.resume() }
    }
}
