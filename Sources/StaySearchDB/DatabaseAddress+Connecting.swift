import Logging
import PostgresNIO

extension DatabaseAddress {
    /// A connection to the first of the hosts, in order, that answers and is the server ``target`` asks for:
    /// with `read-write`, a host whose sessions are read-only (a standby, or a promoted node its orchestrator
    /// still holds read-only) is closed and skipped, so that a writer reaches whichever node is the primary now.
    /// - Throws: ``DatabaseError/unreachable(address:reason:)`` naming each host and why it was not taken.
    func connect(id: Int, logger: Logger) async throws(DatabaseError) -> PostgresConnection {
        var reasons: [(endpoint: Endpoint, reason: String)] = []
        for endpoint in endpoints {
            let connection: PostgresConnection
            do {
                connection = try await PostgresConnection.connect(configuration: try connectionConfiguration(to: endpoint), id: id, logger: logger)
            } catch let error as DatabaseError {
                throw error
            } catch {
                reasons.append((endpoint, DatabaseError.reason(of: error)))
                continue
            }
            guard target == .readWrite else { return connection }
            do {
                let rows = try await connection.query("SHOW transaction_read_only", logger: logger).collect()
                if try rows.first?.decode(String.self, context: .default) == "off" { return connection }
                reasons.append((endpoint, "read-only (a standby, or not yet taking writes)"))
            } catch {
                reasons.append((endpoint, DatabaseError.reason(of: error)))
            }
            try? await connection.close()
        }
        if reasons.count == 1 { throw .unreachable(address: description, reason: reasons[0].reason) }
        throw .unreachable(address: description, reason: "no host would do (" + reasons.map { "\($0.endpoint): \($0.reason)" }.joined(separator: "; ") + ")")
    }
}
