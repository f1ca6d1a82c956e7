import PostgresNIO
import StaySearch
import StaySearchAPI

/// The fleet's clock as the database keeps it (`staysearch_clock`, docs/fleet.md, "Today").
///
/// The database's today is the day `db clock --today` set, or else its own date in UTC. The fleet moves to
/// it through the change log: once the database's today passes the log's, one `{"today": "YYYY-MM-DD"}`
/// entry is written (by whichever writer or replica notices first), and every replica takes the new day at
/// that entry's position — so replicas agree on today at every position, and a change is decided on the
/// today of the position it commits at.
public struct FleetClock: Sendable, Equatable {
    /// The day set with `db clock --today`; nil when the clock is the database's own date in UTC.
    public var setToday: Day?
    /// The database's today: the day set, or its own UTC date.
    public var today: Day
    /// The today the change log last announced; nil before its first `today` entry.
    public var loggedToday: Day?

    /// The line of the change-log entry that moves the fleet to `day`, its calendars running until `until`
    /// (exclusive): the window rolled on.
    static func entry(for day: Day, until: Day) -> String { "{\"today\":\"\(day.description)\",\"until\":\"\(until.description)\"}" }

    /// The day and the calendars' end of a change-log line when it is a `today` entry (no client can write
    /// one: a change line names a listing).
    static func day(inEntry line: String) -> (today: Day, until: Day?)? {
        let prefix = "{\"today\":\""
        guard line.hasPrefix(prefix), line.hasSuffix("\"}") else { return nil }
        let text = line.utf8.dropFirst(prefix.utf8.count)
        guard let today = Day(iso: String(decoding: text.prefix(10), as: UTF8.self)) else { return nil }
        let untilPrefix = "\",\"until\":\""
        let rest = text.dropFirst(10)
        guard rest.starts(with: untilPrefix.utf8) else { return (today, nil) }
        return (today, Day(iso: String(decoding: rest.dropFirst(untilPrefix.utf8.count).prefix(10), as: UTF8.self)))
    }

    /// Creates the clock, the snapshots' register and the trimmed mark when the database has none (made before
    /// them), and widens its prices to 64 bits, one installer at a time (replicas starting together).
    static func install(on connection: PostgresConnection) async throws {
        let logger = Database.logger
        // Already there (the common case): nothing to lock or replace.
        let present = try await connection.query("""
            SELECT to_regclass('public.staysearch_log_trim') IS NOT NULL AND to_regclass('public.staysearch_snapshots') IS NOT NULL \
            AND to_regclass('public.staysearch_settings') IS NOT NULL AND to_regprocedure('staysearch_write_day()') IS NOT NULL AND EXISTS (SELECT 1 FROM staysearch_log_trim) \
            AND EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'public.staysearch_calendar'::regclass AND attname = 'window_days') \
            AND EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'public.listings'::regclass AND attname = 'scraped') \
            AND EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'public.listings'::regclass AND attname = 'fees') \
            AND (SELECT atttypid FROM pg_attribute WHERE attrelid = 'public.listings'::regclass AND attname = 'night_prices') = 'bigint[]'::regtype \
            AND NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'bookings_listing_fkey')
            """, logger: logger).collect().first?.decode(Bool?.self, context: .default)
        if present == true { return }
        try await connection.query("BEGIN", logger: logger)
        do {
            try await connection.query("SELECT pg_advisory_xact_lock(\(DatabaseSchema.clockLock) + 1)", logger: logger)
            for statement in DatabaseSchema.additions { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
            try await connection.query("COMMIT", logger: logger)
        } catch {
            // Not on a connection already closed: a statement sent on one is never answered.
            if !connection.isClosed { _ = try? await connection.query("ROLLBACK", logger: logger) }
            throw error
        }
    }

    /// The clock as the database has it now.
    static func read(on connection: PostgresConnection) async throws -> FleetClock {
        let rows = try await connection.query("""
            SELECT set_today - DATE '1970-01-01', staysearch_today() - DATE '1970-01-01', logged_today - DATE '1970-01-01' \
            FROM staysearch_clock
            """, logger: Database.logger).collect()
        guard let row = rows.first else { throw ClockMissing() }
        let (set, today, logged) = try row.decode((Int32?, Int32, Int32?).self, context: .default)
        return FleetClock(setToday: set.map(Day.init(daysSinceEpoch:)), today: Day(daysSinceEpoch: today),
                          loggedToday: logged.map(Day.init(daysSinceEpoch:)))
    }

    /// Whether the log must announce a new day.
    var isBehind: Bool { loggedToday.map { $0 < today } ?? true }

    /// Writes the `today` entry of the database's today when the log's is older, in a transaction of its
    /// own that waits for every write deciding on the old day (``DatabaseSchema/clockLock``); with `setting`,
    /// first sets the clock (`.some(nil)`: back to the database's own date).
    /// - Returns: the clock after it.
    /// - Throws: ``ClockGoesBack`` when `setting` names a day before the log's today.
    @discardableResult
    static func announce(on connection: PostgresConnection, setting: Day?? = nil) async throws -> FleetClock {
        let logger = Database.logger
        try await connection.query("BEGIN", logger: logger)
        do {
            try await connection.query("SELECT pg_advisory_xact_lock(\(DatabaseSchema.clockLock))", logger: logger)
            if let setting {
                let logged = try await read(on: connection).loggedToday
                if let day = setting, let logged, day < logged { throw ClockGoesBack(logged: logged, asked: day) }
                try await connection.query("""
                    UPDATE staysearch_clock SET set_today = DATE '1970-01-01' + \(setting?.daysSinceEpoch)::integer
                    """, logger: logger)
            }
            var clock = try await read(on: connection)
            if clock.isBehind {
                // The window rolls: the calendars run `window_days` from the new day (never fewer days than now).
                let until = try await connection.query("""
                    UPDATE staysearch_calendar SET day_count = greatest(day_count, \
                    (DATE '1970-01-01' + \(clock.today.daysSinceEpoch)::integer - first_day) + coalesce(window_days, day_count)) \
                    RETURNING first_day + day_count - DATE '1970-01-01'
                    """, logger: logger).collect().first?.decode(Int32.self, context: .default)
                try await connection.query("UPDATE staysearch_clock SET logged_today = staysearch_today()", logger: logger)
                if let until {
                    try await connection.query("INSERT INTO change_log (change) VALUES (\(entry(for: clock.today, until: Day(daysSinceEpoch: until))))",
                                               logger: logger)
                }
                clock.loggedToday = clock.today
            }
            try await connection.query("COMMIT", logger: logger)
            return clock
        } catch {
            // Not on a connection already closed: a statement sent on one is never answered.
            if !connection.isClosed { _ = try? await connection.query("ROLLBACK", logger: logger) }
            throw error
        }
    }
}

/// The database has no clock row (its tables were dropped under a running replica).
struct ClockMissing: Error, CustomStringConvertible {
    var description: String { "the database has no staysearch_clock row: run 'staysearch db init'" }
}

/// `db clock --today` named a day before the one the log has announced: the fleet's today never goes back
/// (nights a replica refused as past would open again).
public struct ClockGoesBack: Error, CustomStringConvertible {
    public let logged: Day
    public let asked: Day
    public var description: String {
        "the fleet's today is \(logged) (announced in the change log); the clock cannot be set back to \(asked)"
    }
}

extension Database {
    /// The fleet's clock (`db clock`), its table created first when the database was made without one.
    /// - Throws: ``DatabaseError``.
    public func clock() async throws(DatabaseError) -> FleetClock {
        guard try await isInitialised() else { throw .notReady("the database \(address) has no staysearch tables: run 'staysearch db init' first") }
        do {
            try await FleetClock.install(on: connection)
            return try await FleetClock.read(on: connection)
        } catch {
            throw .failed(step: "reading the clock", reason: DatabaseError.reason(of: error))
        }
    }

    /// The latest day the fleet's clock can take, and why: its window (the loaded scrape's days) must end by
    /// ``Day/latest``, and the calendars may hold at most ``DatabaseSchema/largestDayCount`` days from their first.
    public func latestClockDay() async throws(DatabaseError) -> (day: Day, why: String) {
        let rows = try await run("SELECT first_day - DATE '1970-01-01', coalesce(window_days, day_count) FROM staysearch_calendar",
                                 "reading the calendar span")
        guard let (first, window) = try? rows.first?.decode((Int32, Int32).self, context: .default) else {
            return (Day.latest, "the last date staysearch takes")
        }
        let byDate = Day.latestToday(window: Int(window))
        let byCount = Day(daysSinceEpoch: first).advanced(by: DatabaseSchema.largestDayCount - Int(window))
        return byCount < byDate
            ? (byCount, "the calendars hold at most \(ResultFormatting.grouped(DatabaseSchema.largestDayCount)) days from their first, "
                + "\(Day(daysSinceEpoch: first)), "
                + "and the window is \(window) days")
            : (byDate, "a window of \(window) days must end by \(Day.latest), the last date staysearch takes")
    }

    /// The first day of the loaded calendars: the scrape's own date (`db clock --scrape-date`).
    /// - Throws: ``DatabaseError/notReady(_:)`` before `db load`.
    public func scrapeDate() async throws(DatabaseError) -> Day {
        guard try await isInitialised(), let span = try await calendarSpan() else {
            throw .notReady("the database \(address) has no listings yet: run 'staysearch db load' first")
        }
        return span.first
    }

    /// Sets the fleet's clock to `today` (nil: the database's own date in UTC) and announces the day in the
    /// change log when it moved on (`db clock --today`, `--utc`).
    /// - Throws: ``DatabaseError/refusedRequest(_:)`` for a day before the log's today (the clock never goes
    ///   back) or after ``latestClockDay()``.
    public func setClock(today: Day?) async throws(DatabaseError) -> FleetClock {
        _ = try await clock()
        if let today {
            let latest = try await latestClockDay()
            guard today <= latest.day else {
                throw .refusedRequest("--today \(today) is past the latest day the fleet's clock can take, \(latest.day) (\(latest.why))")
            }
        }
        do {
            return try await FleetClock.announce(on: connection, setting: .some(today))
        } catch let error as ClockGoesBack {
            throw .refusedRequest(error.description)
        } catch {
            throw .failed(step: "setting the clock", reason: DatabaseError.reason(of: error))
        }
    }
}
