import PostgresNIO
import StaySearch

extension Database {
    /// An index of the database at one consistent point, and that point's change-log position.
    public struct Snapshot: Sendable {
        public var index: ListingIndex
        /// Every change up to this position is in the index, none after it.
        public var position: UInt64
        /// The log's today at the position (its last `today` entry); nil before it announced one.
        public var today: Day?
    }

    /// Reads every listing and neighbourhood in one read-only, repeatable-read transaction (one snapshot of
    /// the database) and indexes them from the log's today on (the nights before it are past); the position is the last change that snapshot sees, which, as
    /// positions are handed out in commit order, means every change up to it and none after.
    /// - Throws: ``DatabaseError``: not initialised, not loaded, unreadable.
    public func snapshot() async throws(DatabaseError) -> Snapshot {
        guard try await isInitialised() else { throw .notReady("the database \(address) has no staysearch tables: run 'staysearch db init' and 'db load' first") }
        try await run("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", "starting the snapshot")
        do throws(DatabaseError) {
            let snapshot = try await snapshotInTransaction()
            try await run("COMMIT", "ending the snapshot")
            return snapshot
        } catch {
            _ = try? await run("ROLLBACK", "ending the snapshot")
            throw error
        }
    }

    private func snapshotInTransaction() async throws(DatabaseError) -> Snapshot {
        let positionRows = try await run("SELECT coalesce(max(position), 0) FROM change_log", "reading the change log")
        var today: Day?
        let hasClock = try await run("SELECT to_regclass('public.staysearch_clock') IS NOT NULL", "reading the clock")
        if (try? hasClock.first?.decode(Bool.self, context: .default)) == true {
            // (A database made before the clock has announced nothing.)
            do { today = try await FleetClock.read(on: connection).loggedToday } catch {
                throw .failed(step: "reading the clock", reason: DatabaseError.reason(of: error))
            }
        }
        guard let span = try await calendarSpan() else {
            throw .notReady("the database \(address) has no listings yet: run 'staysearch db load' first")
        }
        let position: Int64
        do { position = try positionRows.first!.decode(Int64.self, context: .default) } catch {
            throw .failed(step: "reading the change log", reason: "\(error)")
        }
        // The nights before today are past: the index keeps the window, from today on (only its days read).
        let dropped = min(max(0, span.first.distance(to: today ?? span.first)), span.dayCount)
        var records: [ListingRecord] = []
        var days = HeldDays(dayCount: span.dayCount - dropped)
        var shapes: [NeighbourhoodShape] = []
        var aliases: [RegionAlias] = []
        do {
            let rows = try await connection.query("SELECT \(unescaped: ListingRow.columnList(fromDay: dropped)) FROM listings ORDER BY id",
                                                  logger: Database.logger)
            for try await row in rows {
                let listing = try ListingRow.listing(from: row, dayCount: span.dayCount - dropped)
                records.append(listing.record)
                days.append(listing)
            }
            let ringRows = try await connection.query(
                "SELECT city, name, latitudes, longitudes FROM neighbourhood_rings ORDER BY city, name, ring", logger: Database.logger)
            for try await (city, name, latitudes, longitudes) in ringRows.decode((String, String, [Double], [Double]).self) {
                let ring = zip(latitudes, longitudes).map { GeoPoint(latitude: $0, longitude: $1) }
                if let last = shapes.last, last.city == city, last.name == name {
                    shapes[shapes.count - 1].rings.append(ring)
                } else {
                    shapes.append(NeighbourhoodShape(city: city, name: name, rings: [ring]))
                }
            }
            let aliasRows = try await connection.query("SELECT city, alias, region FROM region_aliases ORDER BY city, alias, region",
                                                       logger: Database.logger)
            for try await (city, alias, region) in aliasRows.decode((String, String, String).self) {
                aliases.append(RegionAlias(city: city, alias: alias, region: region))
            }
        } catch let error as DatabaseError {
            throw error
        } catch {
            throw .failed(step: "reading the listings", reason: DatabaseError.reason(of: error))
        }
        let index = IndexBuilder.build(listings: records, firstDay: span.first.advanced(by: dropped), dayCount: span.dayCount - dropped,
                                       listingAt: { days.listing(at: $0, record: records[$0]) }, neighbourhoods: shapes,
                                       aliases: aliases)
        return Snapshot(index: index, position: UInt64(position), today: today)
    }
}
