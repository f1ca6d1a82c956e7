import Logging
import PostgresNIO
import StaySearch

/// One connection to the system of record, for the commands that set it up, load it and take snapshots.
public final class Database: Sendable {
    let connection: PostgresConnection
    let address: DatabaseAddress
    static let logger = Logger(label: "staysearch.db", factory: { _ in SwiftLogNoOpLogHandler() })

    private init(connection: PostgresConnection, address: DatabaseAddress) {
        self.connection = connection
        self.address = address
    }

    /// Connects to the database at `address` (its first host that will do, ``DatabaseAddress/connect(id:logger:)``).
    /// - Throws: ``DatabaseError/unreachable(address:reason:)``.
    public static func connect(_ address: DatabaseAddress) async throws(DatabaseError) -> Database {
        Database(connection: try await address.connect(id: 1, logger: logger), address: address)
    }

    /// The value of `body` with a connection to `address`, closed afterwards whether `body` succeeds or not.
    public static func using<Value: Sendable>(_ address: DatabaseAddress,
                                              _ body: (Database) async throws -> Value) async throws -> Value {
        let database = try await connect(address)
        do {
            let value = try await body(database)
            await database.close()
            return value
        } catch {
            await database.close()
            throw error
        }
    }

    /// Closes the connection.
    public func close() async {
        try? await connection.close()
    }

    /// Runs `query`, naming `step` when it fails (at once when the connection is already closed: a statement
    /// sent on a closed connection is never answered).
    @discardableResult
    func run(_ query: PostgresQuery, _ step: String) async throws(DatabaseError) -> [PostgresRow] {
        guard !connection.isClosed else { throw .failed(step: step, reason: "the connection to the database was lost") }
        do {
            return try await connection.query(query, logger: Database.logger).collect()
        } catch {
            throw .failed(step: step, reason: DatabaseError.reason(of: error))
        }
    }

    /// The one integer `query` answers, naming `step` when it fails.
    func integer(_ query: PostgresQuery, _ step: String) async throws(DatabaseError) -> Int64 {
        let rows = try await run(query, step)
        do {
            guard let value = try rows.first?.decode(Int64.self, context: .default) else { throw DatabaseError.failed(step: step, reason: "no row") }
            return value
        } catch {
            throw .failed(step: step, reason: DatabaseError.reason(of: error))
        }
    }

    /// Whether the staysearch tables are there.
    func isInitialised() async throws(DatabaseError) -> Bool {
        let rows = try await run("SELECT to_regclass('public.change_log') IS NOT NULL", "checking the tables")
        return (try? rows.first?.decode(Bool.self, context: .default)) ?? false
    }

    /// Creates the tables (``DatabaseSchema``); with `reset`, drops them first.
    /// - Throws: ``DatabaseError/notReady(_:)`` when they are there and `reset` is false.
    public func initialise(reset: Bool) async throws(DatabaseError) {
        if try await isInitialised(), !reset {
            throw .notReady("the database \(address) already has staysearch's tables; 'db init --reset' drops them and their data")
        }
        try await run("BEGIN", "starting the transaction")
        do throws(DatabaseError) {
            if reset { for statement in DatabaseSchema.removal { try await run(PostgresQuery(unsafeSQL: statement), "dropping the tables") } }
            for statement in DatabaseSchema.creation + DatabaseSchema.additions {
                try await run(PostgresQuery(unsafeSQL: statement), "creating the tables")
            }
            try await run("COMMIT", "committing the tables")
        } catch {
            _ = try? await run("ROLLBACK", "rolling back")
            throw error
        }
    }

    /// The calendar span the listings' days cover, when one is set.
    func calendarSpan() async throws(DatabaseError) -> (first: Day, dayCount: Int)? {
        let rows = try await run("SELECT first_day - DATE '1970-01-01', day_count FROM staysearch_calendar", "reading the calendar span")
        guard let row = rows.first else { return nil }
        do {
            let (first, count) = try row.decode((Int32, Int32).self, context: .default)
            return (Day(daysSinceEpoch: first), Int(count))
        } catch {
            throw .failed(step: "reading the calendar span", reason: "\(error)")
        }
    }
}
