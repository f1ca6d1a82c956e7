import NIOCore
import PostgresNIO
import StaySearch

extension Database {
    /// What ``load(_:)`` did.
    public struct LoadSummary: Sendable {
        public var listings: Int
        public var rings: Int
        public var bytesSent: Int
    }

    /// Loads `index` (made from Inside Airbnb folders) into the tables in one transaction: its listings and
    /// their days with `COPY`, its neighbourhoods' boundaries; the calendar span is set by the first load
    /// and must be the same for the next.
    /// - Throws: ``DatabaseError/notReady(_:)`` when the database is not initialised, already follows
    ///   changes, or covers another span; ``DatabaseError/failed(step:reason:)`` (a listing id loaded before,
    ///   say); then nothing is loaded.
    public func load(_ index: ListingIndex) async throws(DatabaseError) -> LoadSummary {
        guard try await isInitialised() else { throw .notReady("the database \(address) has no staysearch tables: run 'staysearch db init' first") }
        _ = try await clock()       // (the clock's tables, in a database made before them)
        try await run("BEGIN", "starting the transaction")
        do throws(DatabaseError) {
            let summary = try await loadInTransaction(index)
            try await run("COMMIT", "committing the load")
            return summary
        } catch {
            _ = try? await run("ROLLBACK", "rolling back")
            throw error
        }
    }

    private func loadInTransaction(_ index: ListingIndex) async throws(DatabaseError) -> LoadSummary {
        // One load at a time, and none while writes are numbered.
        try await run("LOCK TABLE listings, staysearch_calendar, change_log IN EXCLUSIVE MODE", "locking the tables")
        let logged = try await run(#"SELECT count(*) FROM (SELECT 1 FROM change_log WHERE change NOT LIKE '{"today":%' LIMIT 1) AS any_change"#,
                                   "reading the change log")
        if ((try? logged.first?.decode(Int64.self, context: .default)) ?? 0) > 0 {
            throw .notReady("the database already has changes in its log: 'db load' fills a database before replicas follow it; "
                + "add listings to a live one with POST /v1/changes (op listing)")
        }
        if let span = try await calendarSpan() {
            guard span.first == index.firstDay, span.dayCount == index.dayCount else {
                throw .notReady("the database's calendar covers \(span.dayCount) days from \(span.first); these folders cover "
                    + "\(index.dayCount) days from \(index.firstDay): load folders of the same span, or 'db init --reset'")
            }
        } else {
            try await run("""
                INSERT INTO staysearch_calendar (first_day, day_count, window_days) \
                VALUES (DATE '1970-01-01' + \(index.firstDay.daysSinceEpoch), \(Int32(index.dayCount)), \(Int32(index.dayCount)))
                """, "setting the calendar span")
            // A clock already past the scrape's first day: its window from today on.
            try await run("""
                UPDATE staysearch_calendar k SET day_count = greatest(k.day_count, c.logged_today - k.first_day + k.window_days) \
                FROM staysearch_clock c WHERE c.logged_today IS NOT NULL
                """, "setting the calendar span")
        }
        var sent = 0
        do {
            try await connection.copyFrom(table: "listings", columns: ListingRow.columns, logger: Database.logger) { writer in
                var line: [UInt8] = []
                line.reserveCapacity(1 << 20)
                for row in 0..<index.count {
                    ListingRow.appendCopyLine(EditableListing(row: row, of: index), to: &line)
                    if line.count >= 1 << 20 || row == index.count - 1 {
                        sent += line.count
                        try await writer.write(ByteBuffer(bytes: line))
                        line.removeAll(keepingCapacity: true)
                    }
                }
            }
        } catch {
            throw .failed(step: "copying the listings", reason: DatabaseError.reason(of: error))
        }
        var rings = 0
        for shape in index.neighbourhoodShapes() {
            for (number, ring) in shape.rings.enumerated() {
                try await run("""
                    INSERT INTO neighbourhood_rings (city, name, ring, latitudes, longitudes) VALUES \
                    (\(shape.city), \(shape.name), \(Int32(number)), \(ring.map(\.latitude)), \(ring.map(\.longitude)))
                    """, "saving the neighbourhoods")
                rings += 1
            }
        }
        for alias in index.regionAliases() {
            try await run("""
                INSERT INTO region_aliases (city, alias, region) VALUES (\(alias.city), \(alias.alias), \(alias.region)) \
                ON CONFLICT DO NOTHING
                """, "saving the region aliases")
        }
        return LoadSummary(listings: index.count, rings: rings, bytesSent: sent)
    }
}
