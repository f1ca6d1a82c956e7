import PostgresNIO
import StaySearch
import StaySearchAPI

/// Writes changes to the system of record, one transaction each: the listing's row locked, the change
/// decided on it by the engine's own code (``ListingChangeOutcome``), the row and the bookings written
/// (the exclusion constraint refusing an overlapping stay), and the change logged; the log's trigger
/// numbers it as the transaction commits, under the position lock, so that positions follow commit order.
final class ChangeWriter: Sendable {
    /// What became of one line.
    enum Outcome: Sendable {
        /// Committed as the change-log row `logID`; its position, given at commit, is learnt from the log
        /// (``ChangeFollower/position(ofLogID:timeout:)``) or read back (``positions(ofLogIDs:)``). `copies`: 2
        /// when the commit was acknowledged only once a synchronous standby had it (the primary's
        /// `synchronous_standby_names` set before and after it), else 1.
        case accepted(logID: Int64, copies: Int)
        /// Refused, with the error answered (its code's status: 400 unreadable or invalid, 404 unknown
        /// listing, 409 conflicting, 503 no database, 500 a failure the log describes).
        case refused(APIError)
    }

    let connections: PrimaryConnections
    /// The calendars' first day (their day count grows as the window rolls: read with each write).
    let firstDay: Day

    init(connections: PrimaryConnections, firstDay: Day) {
        self.connections = connections
        self.firstDay = firstDay
    }

    /// The longest one change may take, waits for its listing's lock included, before it is answered 503 (a
    /// connection to a database that restarted can leave a query unanswered rather than failed).
    static let deadline = Duration.seconds(10)

    /// Writes one change line.
    func write(_ line: String) async -> Outcome {
        let change: CalendarChange
        switch ChangeLine.read(line) {
        case .success(let read): change = read
        case .failure(let error): return .refused(error)
        }
        // A new listing's id taken by a concurrent write, a deadlock or a serialisation failure: try again.
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await withDeadline(ChangeWriter.deadline) { [self] in
                    try await connections.withConnection { connection in
                        try await self.write(change, line: line, on: connection)
                    }
                }
            } catch is DeadlineExceeded {
                return .refused(APIError(.databaseUnreachable, "the database did not answer within \(ChangeWriter.deadline) (listing \(change.id)); "
                    + "the change may have been made: a booking sent again is refused if it was"))
            } catch {
                let state = DatabaseError.sqlState(of: error)
                if ["23505", "40P01", "40001"].contains(state), attempt < 4 { continue }
                if state == "23P01" {
                    return .refused(APIError(.nightsNotAvailable, "listing \(change.id): the stay overlaps a booking (the database refused it)"))
                }
                // No connection, a connection lost, or a server that no longer takes writes (a demoted
                // primary, a standby): nothing was committed, and another host may take the next try.
                let unreachable: Bool
                if case .unreachable = error as? DatabaseError { unreachable = true } else { unreachable = false }
                if unreachable {
                    return .refused(APIError(.databaseUnreachable, "\(DatabaseError.reason(of: error)); the change is not made"))
                }
                if error is PSQLError && (state == nil || PrimaryConnections.lostStates.contains(state!)) {
                    return .refused(APIError(.databaseUnreachable, "the database was lost during the change (\(DatabaseError.reason(of: error))); "
                        + "it is not made unless the loss came at its commit: a booking sent again is refused if it was"))
                }
                Standard.error("staysearch: error: the database refused a change of listing \(change.id): \(DatabaseError.reason(of: error))")
                return .refused(APIError(.internalError, "the database refused the change; it is not made (the server's log has the details)"))
            }
        }
    }

    private func write(_ change: CalendarChange, line: String, on connection: PostgresConnection) async throws -> Outcome {
        let logger = Database.logger
        while true {
            try await connection.query("BEGIN", logger: logger)
            let outcome: Outcome
            do {
                // Decided on the log's today, held (shared) until the commit: a new day's entry waits for
                // this change, and this change never commits after an entry it was not decided on.
                let row = try await connection.query("""
                    SELECT today - DATE '1970-01-01', days, current_setting('synchronous_standby_names') <> '' FROM staysearch_write_day()
                    """, logger: logger).collect().first?.decode((Int32?, Int32, Bool).self, context: .default)
                guard let row, let day = row.0 else {
                    // The database's date has moved past the log's: the new day is announced first.
                    try await connection.query("ROLLBACK", logger: logger)
                    try await FleetClock.announce(on: connection)
                    continue
                }
                let today = Day(daysSinceEpoch: day)
                if let nights = change.nights, nights.from < today {
                    outcome = .refused(APIError(ChangeError.nightsBeforeToday(from: nights.from, today: today)))
                } else {
                    outcome = try await decide(change, line: line, dayCount: Int(row.1), on: connection)
                }
                if case .accepted(let logID, _) = outcome {
                    try await connection.query("COMMIT", logger: logger)
                    // The standby is required when the transaction began and still after the commit: the
                    // commit waited for it (a setting cleared in between, as an orchestrator does when the
                    // standby is lost, is counted as one copy).
                    let after = try? await connection.query("SHOW synchronous_standby_names", logger: logger).collect().first?
                        .decode(String.self, context: .default)
                    return .accepted(logID: logID, copies: row.2 && after?.isEmpty == false ? 2 : 1)
                } else {
                    try await connection.query("ROLLBACK", logger: logger)
                }
            } catch {
                // Not on a connection already closed: a statement sent on one is never answered.
                if !connection.isClosed { _ = try? await connection.query("ROLLBACK", logger: logger) }
                throw error
            }
            return outcome
        }
    }

    /// The positions the commits of the log rows `logIDs` gave them.
    func positions(ofLogIDs logIDs: [Int64]) async throws -> [Int64: UInt64] {
        try await withDeadline(ChangeFollower.queryDeadline) { [connections] in
            try await connections.withConnection { connection in
                let rows = try await connection.query("SELECT id, position FROM change_log WHERE id = ANY(\(logIDs))", logger: Database.logger)
                var positions: [Int64: UInt64] = [:]
                for try await (id, position) in rows.decode((Int64, Int64).self) { positions[id] = UInt64(position) }
                return positions
            }
        }
    }

    private func decide(_ change: CalendarChange, line: String, dayCount: Int, on connection: PostgresConnection) async throws -> Outcome {
        let logger = Database.logger
        let id = change.id
        var before: EditableListing?
        for try await row in try await connection.execute(ListingLockStatement(id: id), logger: logger) {
            before = try ListingRow.listing(from: row, dayCount: dayCount)
        }
        let after: EditableListing?
        switch ListingChangeOutcome.applying(change, to: before, firstDay: firstDay, dayCount: dayCount) {
        case .failure(let error):
            return .refused(APIError(error))
        case .success(let listing):
            after = listing
        }
        if case let .book(_, checkIn, checkOut, guests) = change, let after {
            // The common write in one statement: a booking changes only the nights it closes; those, the
            // booking and the log row.
            let statement = BookingStatement(nightsOpen: after.bookable, listing: id, checkIn: checkIn.daysSinceEpoch,
                                             checkOut: checkOut.daysSinceEpoch, guests: guests.map { Int32(clamping: $0) }, line: line)
            var logID: Int64?
            for try await id in try await connection.execute(statement, logger: logger) { logID = id }
            return .accepted(logID: logID!, copies: 1)
        }
        switch (before, after) {
        case (nil, let added?): try await connection.query(ListingRow.insert(added), logger: logger)
        case (let unchanged?, let changed?):
            if let update = ListingRow.update(from: unchanged, to: changed) { try await connection.query(update, logger: logger) }
        case (_?, nil): try await connection.query("DELETE FROM listings WHERE id = \(id)", logger: logger)
        case (nil, nil): break
        }
        switch change {
        case let .cancel(_, from, to), let .availability(_, from, to, true):
            try await trimBookings(of: id, from: from, to: to, on: connection)
        default:
            break
        }
        let logged = try await connection.query("""
            INSERT INTO change_log (change) VALUES (\(line)) RETURNING id
            """, logger: logger).collect()
        return .accepted(logID: try logged.first!.decode(Int64.self, context: .default), copies: 1)
    }

    /// Nights reopened (a cancellation, or availability set): the bookings over them keep only their other nights.
    private func trimBookings(of id: Int64, from: Day, to: Day, on connection: PostgresConnection) async throws {
        let logger = Database.logger
        let gone = try await connection.query("""
            DELETE FROM bookings WHERE listing = \(id) AND stay && daterange(DATE '1970-01-01' + \(from.daysSinceEpoch), \
            DATE '1970-01-01' + \(to.daysSinceEpoch), '[)') \
            RETURNING lower(stay) - DATE '1970-01-01', upper(stay) - DATE '1970-01-01', guests
            """, logger: logger)
        var kept: [(Int32, Int32, Int32?)] = []
        for try await (lower, upper, guests) in gone.decode((Int32, Int32, Int32?).self) {
            if lower < from.daysSinceEpoch { kept.append((lower, from.daysSinceEpoch, guests)) }
            if upper > to.daysSinceEpoch { kept.append((to.daysSinceEpoch, upper, guests)) }
        }
        for (lower, upper, guests) in kept {
            try await connection.query("""
                INSERT INTO bookings (listing, stay, guests) VALUES (\(id), \
                daterange(DATE '1970-01-01' + \(lower), DATE '1970-01-01' + \(upper), '[)'), \(guests))
                """, logger: logger)
        }
    }
}
