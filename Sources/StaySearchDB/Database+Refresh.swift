import NIOCore
import PostgresNIO
import StaySearch

extension Database {
    /// What ``refresh(with:chunkSize:)`` did.
    public struct RefreshSummary: Sendable {
        /// The listings in the scrape.
        public var scraped = 0
        public var added = 0
        public var updated = 0
        public var removed = 0
        public var unchanged = 0
        /// Of the removed, those with bookings of nights from today on (the bookings are kept).
        public var removedWithBookings = 0
        /// Nights the scrape says are open that a booking made through staysearch keeps closed.
        public var bookedNightsKeptClosed = 0
        /// The change-log rows written.
        public var logRows = 0
        /// Listings the scrape has that could not be taken in, each with why.
        public var refused: [String] = []
        /// The fleet's today the refresh was decided on (its last chunk's).
        public var today = Day(daysSinceEpoch: 0)
    }

    /// Takes a new scrape of its cities into the database while it serves (docs/fleet.md, "A new scrape"):
    /// listings new in the scrape are added, those of its cities it no longer has are removed (listings
    /// added by a `listing` change are left alone), and changed fields, prices, stay rules and nights from
    /// today on are updated — except that a night booked through staysearch (`bookings`) stays closed
    /// whatever the scrape says. Days the scrape has no calendar row for keep what the database has.
    ///
    /// Each changed listing is one change-log entry (``ListingRefresh``), so that replicas take it whole,
    /// in commit order with the bookings around it; the work is done in transactions of `chunkSize`
    /// listings, each holding only its listings' rows (a booking of one of them waits for it, one of any
    /// other listing does not).
    /// - Throws: ``DatabaseError/notReady(_:)`` before `db load`; ``DatabaseError/failed(step:reason:)``
    ///   (the chunks committed before it stay: a refresh run again finishes the work).
    public func refresh(with scrape: ListingIndex, chunkSize: Int = 200) async throws(DatabaseError) -> RefreshSummary {
        let clockBefore = try await clock()
        guard let span = try await calendarSpan() else {
            throw .notReady("the database \(address) has no listings yet: load a first scrape with 'staysearch db load'")
        }
        // Refused before anything is written (the new day included): a scrape none of whose nights lies in
        // the window from today on.
        if let refusal = try await refusal(of: scrape, clock: clockBefore, span: span) { throw .refusedData(refusal) }
        do {
            if try await FleetClock.read(on: connection).isBehind { try await FleetClock.announce(on: connection) }
        } catch {
            throw .failed(step: "announcing today", reason: DatabaseError.reason(of: error))
        }
        var summary = RefreshSummary()
        summary.scraped = scrape.count
        var scrapeRows: [Int64: Int] = [:]
        scrapeRows.reserveCapacity(scrape.count)
        var cities = Set<String>()
        for row in 0..<scrape.count {
            let record = scrape.listing(atRow: row)
            scrapeRows[record.id] = row
            cities.insert(record.region.city)
        }
        let scrapeOffset = span.first.distance(to: scrape.firstDay)

        // First, without locks: the listings that differ from the scrape (a change made after this read
        // is newer than the scrape and stays, unless the listing differs anyway).
        let clockNow = try await clock()
        let readDay = clockNow.loggedToday ?? clockNow.today
        let readDayCount = try await calendarSpan()?.dayCount ?? span.dayCount
        let booked = try await bookedNights(of: nil, from: readDay)
        summary.today = readDay
        var candidates: [Int64] = []
        var seen = Set<Int64>()
        let ids = scrapeRows.keys.sorted()
        var start = 0
        while start < ids.count {
            let part = Array(ids[start..<min(ids.count, start + 5_000)])
            start += part.count
            for (current, scraped) in try await listings(part, dayCount: readDayCount, locking: false) {
                let id = current.record.id
                seen.insert(id)
                let target = Database.refreshed(current, by: EditableListing(row: scrapeRows[id]!, of: scrape), scrapeOffset: scrapeOffset,
                                                dayCount: readDayCount, todayOffset: span.first.distance(to: readDay),
                                                booked: booked[id] ?? [])
                if !scraped || ListingRefresh.entry(from: current, to: target.listing, firstDay: span.first,
                                                    fromDay: span.first.distance(to: readDay)) != nil {
                    candidates.append(id)
                }
            }
        }
        candidates += ids.filter { !seen.contains($0) }
        candidates.sort()
        summary.unchanged = ids.count - candidates.count

        // Then each chunk of them in a transaction of its own, decided again on the rows locked.
        start = 0
        while start < candidates.count {
            let part = Array(candidates[start..<min(candidates.count, start + chunkSize)])
            try await inTransaction("refreshing listings") { () throws(DatabaseError) in
                let day = try await self.writeDay()
                let todayOffset = span.first.distance(to: day.today)
                var lines: [String] = []
                var current: [Int64: (EditableListing, Bool)] = [:]
                for (listing, scraped) in try await self.listings(part, dayCount: day.dayCount, locking: true) {
                    current[listing.record.id] = (listing, scraped)
                }
                // The bookings read once the rows are locked: a booking that held one of them has committed.
                let booked = try await self.bookedNights(of: part, from: day.today)
                var counts = RefreshSummary()
                for id in part {
                    let before = current[id]
                    let target = Database.refreshed(before?.0, by: EditableListing(row: scrapeRows[id]!, of: scrape), scrapeOffset: scrapeOffset,
                                                    dayCount: day.dayCount, todayOffset: todayOffset, booked: booked[id] ?? [])
                    counts.bookedNightsKeptClosed += target.keptClosed
                    guard let entry = ListingRefresh.entry(from: before?.0, to: target.listing, firstDay: span.first, fromDay: todayOffset) else {
                        if before?.1 == false { try await self.run("UPDATE listings SET scraped = true WHERE id = \(id)", "marking a listing scraped") }
                        counts.unchanged += 1
                        continue
                    }
                    // The row the database keeps is the one the entry's changes make, as on every replica.
                    var after = before?.0
                    var refusal: ChangeError?
                    for change in entry.changes {
                        switch ListingChangeOutcome.applying(change, to: after, firstDay: span.first, dayCount: day.dayCount) {
                        case .success(let listing): after = listing
                        case .failure(let error): refusal = error
                        }
                        if refusal != nil { break }
                    }
                    guard refusal == nil, let after else {
                        counts.refused.append("listing \(id): \(refusal?.description ?? "removed")")
                        continue
                    }
                    if let before {
                        if let update = ListingRow.update(from: before.0, to: after) { try await self.run(update, "updating a listing") }
                        if !before.1 { try await self.run("UPDATE listings SET scraped = true WHERE id = \(id)", "marking a listing scraped") }
                        counts.updated += 1
                    } else {
                        try await self.run(ListingRow.insert(after, scraped: true), "adding a listing")
                        counts.added += 1
                    }
                    lines.append(entry.line)
                }
                try await self.log(lines)
                counts.logRows = lines.count
                counts.today = day.today
                return counts
            }.merge(into: &summary)
            start += part.count
        }

        // Last, the listings of the scrape's cities it no longer has.
        let gone = try await run("SELECT id FROM listings WHERE city = ANY(\(Array(cities))) AND scraped ORDER BY id", "reading the listings")
        var vanished: [Int64] = []
        for row in gone {
            if let id = try? row.decode(Int64.self, context: .default), scrapeRows[id] == nil { vanished.append(id) }
        }
        start = 0
        while start < vanished.count {
            let part = Array(vanished[start..<min(vanished.count, start + 1_000)])
            start += part.count
            try await inTransaction("removing listings") { () throws(DatabaseError) in
                let day = try await self.writeDay()
                var counts = RefreshSummary()
                let deleted = try await self.run("DELETE FROM listings WHERE id = ANY(\(part)) AND scraped RETURNING id", "removing listings")
                let removed = deleted.compactMap { try? $0.decode(Int64.self, context: .default) }.sorted()
                counts.removedWithBookings = try await self.bookedNights(of: removed, from: day.today).count
                try await self.log(removed.map { "{\"op\":\"remove\",\"id\":\($0)}" })
                counts.removed = removed.count
                counts.logRows = removed.count
                counts.today = day.today
                return counts
            }.merge(into: &summary)
        }
        return summary
    }

    /// `current` (nil: new) as the scraped listing `scraped` makes it: the scrape's fields, and its nights
    /// from `todayOffset` on where it has a calendar row (the scrape's day `s` is the database's day
    /// `scrapeOffset + s`), with the nights `booked` (day offsets) kept closed.
    package static func refreshed(_ current: EditableListing?, by scraped: EditableListing, scrapeOffset: Int, dayCount: Int, todayOffset: Int,
                          booked: [Range<Int>]) -> (listing: EditableListing, keptClosed: Int) {
        let own = StayRule(minimumNights: scraped.record.minimumNights, maximumNights: scraped.record.maximumNights).packed
        var target = current ?? EditableListing(record: scraped.record, prices: Array(repeating: Int64(ListingIndex.noCalendarRow), count: dayCount),
                                                bookable: Array(repeating: false, count: dayCount), rules: Array(repeating: own, count: dayCount))
        target.record = scraped.record
        // Amenities are a set: the order an index gives them in is not the scrape's.
        if let current, current.record.amenities.sorted() == scraped.record.amenities.sorted() {
            target.record.amenities = current.record.amenities
        }
        if let price = scraped.record.price {
            // Nights without a price take the listing's new one, closed (as a `listing` change gives them).
            for day in target.prices.indices where target.prices[day] == ListingIndex.unpricedNight {
                target.prices[day] = max(0, price.minorUnits)
                target.bookable[day] = false
            }
        }
        // The scrape's nights inside the window from today on (none when they lie wholly outside it).
        let lower = max(todayOffset, scrapeOffset, 0), upper = min(dayCount, scrapeOffset + scraped.prices.count)
        for day in lower..<max(lower, upper) {
            let source = day - scrapeOffset
            guard scraped.prices[source] != ListingIndex.noCalendarRow else { continue }
            target.prices[day] = scraped.prices[source]
            target.bookable[day] = scraped.bookable[source]
            target.rules[day] = scraped.rules[source]
        }
        var keptClosed = 0
        for stay in booked {
            for day in max(stay.lowerBound, todayOffset, 0)..<min(stay.upperBound, dayCount) where target.bookable[day] {
                target.bookable[day] = false
                keptClosed += 1
            }
        }
        return (target, keptClosed)
    }

    /// Why `scrape` cannot be taken in on `clock`: it has a calendar, and none of its nights lies in the window
    /// from the fleet's today on (all past, or all after the window's last day). Nil when it can.
    func refusal(of scrape: ListingIndex, clock: FleetClock, span: (first: Day, dayCount: Int)) async throws(DatabaseError) -> String? {
        guard scrape.dayCount > 0 else { return nil }
        let rows = try await run("SELECT coalesce(window_days, day_count) FROM staysearch_calendar", "reading the calendar span")
        let window = Int((try? rows.first?.decode(Int32.self, context: .default)) ?? Int32(span.dayCount))
        let today = max(clock.today, clock.loggedToday ?? clock.today)
        let windowEnd = span.first.advanced(by: max(span.dayCount, span.first.distance(to: today) + window))
        let first = scrape.firstDay, last = scrape.firstDay.advanced(by: scrape.dayCount - 1)
        let nights = "the scrape's nights (\(first) … \(last))"
        if last < today {
            let settable = clock.loggedToday.map { $0 <= first } ?? true
            return "\(nights) all lie before the fleet's today, \(today): nothing was taken in; take a newer scrape"
                + (settable ? ", or run the fleet at the scrape's date first: staysearch db clock \(address) --today \(first)" : "")
        }
        if first >= windowEnd {
            return "\(nights) all lie after the fleet's window, whose last night is \(windowEnd.advanced(by: -1)) (today \(today)): "
                + "nothing was taken in; move the fleet's clock into the scrape first: staysearch db clock \(address) --today \(first)"
        }
        return nil
    }

    /// The log's today and the calendars' day count for a write, in a transaction, under the clock lock
    /// (shared): the new day announced first (the transaction begun again) when the database's date has
    /// passed the log's.
    private func writeDay() async throws(DatabaseError) -> (today: Day, dayCount: Int) {
        while true {
            let rows = try await run("SELECT today - DATE '1970-01-01', days FROM staysearch_write_day()", "reading today")
            guard let row = try? rows.first?.decode((Int32?, Int32).self, context: .default) else {
                throw .failed(step: "reading today", reason: "no clock row")
            }
            if let today = row.0 { return (Day(daysSinceEpoch: today), Int(row.1)) }
            do {
                try await connection.query("ROLLBACK", logger: Database.logger)
                try await FleetClock.announce(on: connection)
                try await connection.query("BEGIN", logger: Database.logger)
            } catch {
                throw .failed(step: "announcing today", reason: DatabaseError.reason(of: error))
            }
        }
    }

    /// The stays booked through staysearch with nights from `today` on, as day offsets of the calendars,
    /// by listing (of `ids`, or every listing).
    private func bookedNights(of ids: [Int64]?, from today: Day) async throws(DatabaseError) -> [Int64: [Range<Int>]] {
        let rows = try await run("""
            SELECT b.listing, lower(b.stay) - k.first_day, upper(b.stay) - k.first_day FROM bookings b, staysearch_calendar k \
            WHERE upper(b.stay) > DATE '1970-01-01' + \(today.daysSinceEpoch)::integer \
            AND (\(ids == nil) OR b.listing = ANY(\(ids ?? [])))
            """, "reading the bookings")
        var booked: [Int64: [Range<Int>]] = [:]
        for row in rows {
            guard let (id, lower, upper) = try? row.decode((Int64, Int32, Int32).self, context: .default), lower < upper else { continue }
            booked[id, default: []].append(Int(lower)..<Int(upper))
        }
        return booked
    }

    /// The listings of `ids` the database has, each with whether it came from a scrape; `locking`: their
    /// rows locked for the transaction.
    private func listings(_ ids: [Int64], dayCount: Int, locking: Bool) async throws(DatabaseError) -> [(EditableListing, Bool)] {
        let rows = try await run("""
            SELECT \(unescaped: ListingRow.columnList), scraped FROM listings WHERE id = ANY(\(ids)) ORDER BY id \
            \(unescaped: locking ? "FOR UPDATE" : "")
            """, "reading the listings")
        do {
            return try rows.map { row in
                (try ListingRow.listing(from: row, dayCount: dayCount), try row.makeRandomAccess()[ListingRow.columns.count].decode(Bool.self, context: .default))
            }
        } catch let error as DatabaseError {
            throw error
        } catch {
            throw .failed(step: "reading the listings", reason: "\(error)")
        }
    }

    /// Appends `lines` to the change log, in order (numbered as the transaction commits).
    private func log(_ lines: [String]) async throws(DatabaseError) {
        guard !lines.isEmpty else { return }
        try await run("INSERT INTO change_log (change) SELECT unnest(\(lines)::text[])", "writing the change log")
    }

    /// `body` in a transaction, committed when it returns; tried again (at most four times) after a
    /// deadlock, a serialization failure or a listing id a concurrent change added first.
    private func inTransaction<Value>(_ step: String, _ body: () async throws(DatabaseError) -> Value) async throws(DatabaseError) -> Value {
        var attempt = 0
        while true {
            attempt += 1
            try await run("BEGIN", step)
            do throws(DatabaseError) {
                let value = try await body()
                try await run("COMMIT", step)
                return value
            } catch {
                _ = try? await run("ROLLBACK", step)
                if attempt < 4, case .failed(_, let reason) = error,
                   ["deadlock detected", "could not serialize access", "duplicate key value"].contains(where: { reason.contains($0) }) { continue }
                throw error
            }
        }
    }
}

private extension Database.RefreshSummary {
    /// Adds a chunk's counts to `summary`.
    func merge(into summary: inout Database.RefreshSummary) {
        summary.added += added
        summary.updated += updated
        summary.removed += removed
        summary.unchanged += unchanged
        summary.removedWithBookings += removedWithBookings
        summary.bookedNightsKeptClosed += bookedNightsKeptClosed
        summary.logRows += logRows
        summary.refused += refused
        summary.today = today
    }
}
