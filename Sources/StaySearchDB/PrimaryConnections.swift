import Foundation
import PostgresNIO

/// The writers' connections to the primary, at most `limit` open at once. Each is opened through the address's
/// hosts in order (``DatabaseAddress/connect(id:logger:)``), so that once a failover has promoted another node,
/// new connections reach it. A connection whose use failed for any reason but a statement's own error (its
/// server went away or turned read-only, the use was cancelled at its deadline) is closed, and the idle ones with
/// it: they most likely lead to the same lost server.
///
/// A use gives its connection's place back the moment it is cancelled, whether or not its work has ended: a
/// statement sent on a connection that has just closed is never answered (PostgresNIO leaves it waiting), so
/// a use that waited for its work to end could hold its place for good, and a few lost servers would leave the
/// writers none.
final class PrimaryConnections: @unchecked Sendable {
    private let address: DatabaseAddress
    private let limit: Int
    private let lock = NSLock()
    private var idle: [PostgresConnection] = []
    /// The uses holding a place, by number, with their connection once it is open (nil while it opens).
    private var holders: [Int: PostgresConnection?] = [:]
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var nextID = 100
    private var nextUse = 0

    /// The server's answers that mean the connection cannot write any more: read-only (a demoted primary or a
    /// standby), shut down by an administrator or a crash, not accepting connections now.
    static let lostStates: Set<String> = ["25006", "57P01", "57P02", "57P03"]

    init(address: DatabaseAddress, limit: Int = 8) {
        self.address = address
        self.limit = limit
    }

    /// The value of `body` run on a connection to the primary. Cancelling the task closes the connection and
    /// gives its place back at once, so that a statement sent to a server that no longer answers ends the use.
    func withConnection<Value: Sendable>(_ body: (PostgresConnection) async throws -> Value) async throws -> Value {
        let use = lock.withLock {
            nextUse += 1
            return nextUse
        }
        return try await withTaskCancellationHandler {
            let connection = try await take(for: use)
            do {
                let value = try await body(connection)
                release(use, reusable: !Task.isCancelled)
                return value
            } catch {
                let statementError = DatabaseError.sqlState(of: error).map { !PrimaryConnections.lostStates.contains($0) } ?? false
                release(use, reusable: statementError && !Task.isCancelled)
                throw error
            }
        } onCancel: {
            release(use, reusable: false)
        }
    }

    /// Closes every idle connection.
    func close() async {
        let closing = lock.withLock {
            defer { idle = [] }
            return idle
        }
        for connection in closing { try? await connection.close() }
    }

    /// A connection for use `use`, which holds its place from then on: an idle one, or a new one when fewer
    /// than `limit` are open, else the next one given back.
    private func take(for use: Int) async throws -> PostgresConnection {
        while true {
            try Task.checkCancellation()
            enum Step { case use(PostgresConnection), open(id: Int), wait }
            let step: Step = lock.withLock {
                if let connection = idle.popLast() {
                    holders[use] = connection
                    return .use(connection)
                }
                guard holders.count + idle.count < limit else { return .wait }
                holders[use] = .some(nil)
                nextID += 1
                return .open(id: nextID)
            }
            switch step {
            case .use(let connection):
                // Cancelled before the place was taken: the cancellation found nothing to give back.
                guard !Task.isCancelled else {
                    release(use, reusable: true)
                    throw CancellationError()
                }
                guard !connection.isClosed else {
                    release(use, reusable: false)
                    continue
                }
                return connection
            case .open(let id):
                let connection: PostgresConnection
                do {
                    connection = try await address.connect(id: id, logger: Database.logger)
                } catch {
                    release(use, reusable: false)
                    throw error
                }
                let held = lock.withLock { () -> Bool in
                    guard holders.index(forKey: use) != nil else { return false }
                    holders[use] = connection
                    return true
                }
                guard held, !Task.isCancelled else {
                    if held { release(use, reusable: false) } else { Task { try? await connection.close() } }
                    throw CancellationError()
                }
                return connection
            case .wait:
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let free = lock.withLock {
                        if !idle.isEmpty || holders.count + idle.count < limit || Task.isCancelled { return true }
                        waiters.append(continuation)
                        return false
                    }
                    if free { continuation.resume() }
                }
            }
        }
    }

    /// Gives use `use`'s place back, once (later calls find nothing to give): its connection kept for the next
    /// use when `reusable`, else closed with every idle one. Every waiter is woken to try again (a cancelled one
    /// leaves without using its turn).
    private func release(_ use: Int, reusable: Bool) {
        let (woken, closing): ([CheckedContinuation<Void, Never>], [PostgresConnection]) = lock.withLock {
            var closing: [PostgresConnection] = []
            if let held = holders.removeValue(forKey: use), let connection = held {
                if reusable && !connection.isClosed {
                    idle.append(connection)
                } else {
                    closing = [connection] + idle
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
