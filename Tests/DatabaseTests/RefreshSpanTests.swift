import Foundation
import StayData
import StaySearch
import StaySearchAPI
import StaySearchDB
import StaySearchTestSupport
import Testing

extension DatabaseSuites {
    /// `db refresh` with the scrape's span drawn against the fleet's today and window in every order — all
    /// before today, overlapping it, inside the window, all after it, no calendar at all — with listings added
    /// and removed and bookings made through a replica first. A scrape with no night in the window is refused
    /// before anything is written; any other is taken in whole: its nights from today on where it has them,
    /// booked nights kept closed, bookings kept, and the replica answering as an index made fresh from the
    /// database.
    @Suite(.serialized) struct RefreshSpanTests {
        /// Where the scrape's days lie against the window.
        enum Placement: Int, CaseIterable {
            case beforeToday, overlappingToday, insideWindow, afterWindow, noCalendar
        }

        /// Everything a refusal must leave as it was: the listings' rows, the bookings, the log and the clock.
        static func state(_ url: String) -> String {
            TestCluster.psql(url, """
                SELECT (SELECT md5(coalesce(string_agg(l::text, '|' ORDER BY l.id), '')) FROM listings l) || ' ' || \
                (SELECT md5(coalesce(string_agg(b.listing || ' ' || b.stay::text, '|' ORDER BY 1), '')) FROM bookings b) || ' ' || \
                (SELECT count(*) FROM change_log) || ' ' || (SELECT k::text FROM staysearch_clock k) || ' ' || \
                (SELECT c::text FROM staysearch_calendar c)
                """).output
        }

        /// The scrape: `base`'s listings but `removed`, with `added` new ones and some renamed, each with a
        /// calendar of `dayCount` days from `first` (random prices, a few days without a row, most open).
        static func scrape(of base: ListingIndex, first: Day, dayCount: Int, removed: Set<Int64>, added: Int,
                           random: inout SeededGenerator) -> ListingIndex {
            var records: [ListingRecord] = []
            for row in 0..<base.count where !removed.contains(base.listing(atRow: row).id) {
                var record = base.fullListing(atRow: row)
                if random.chance(0.2) { record.name += " (renovated)" }
                records.append(record)
            }
            for number in 0..<added {
                var record = records[number % records.count]
                record.id = 9_400_000_000 + Int64(number)
                if record.region.neighbourhood.isEmpty { record.region.neighbourhood = "Centrum" }   // a new listing needs one
                record.name = "New listing \(number)"
                records.append(record)
            }
            let listings = records.map { record in
                let rule = StayRule(minimumNights: record.minimumNights, maximumNights: record.maximumNights).packed
                let prices: [Int64] = (0..<dayCount).map { _ in random.chance(0.05) ? Int64(ListingIndex.noCalendarRow) : random.pick([5_000, 7_550, 12_000, 99]) }
                return EditableListing(record: record, prices: prices, bookable: prices.map { $0 >= 0 && random.chance(0.8) },
                                       rules: Array(repeating: rule, count: dayCount))
            }
            return IndexBuilder.build(listings: records, firstDay: first, dayCount: dayCount, listingAt: { listings[$0] })
        }

        @Test(arguments: 0..<10)
        func aScrapeAnywhereAgainstTheWindowIsTakenInWholeOrRefusedWithNothingWritten(trial: Int) async throws {
            let placement = try #require(Placement(rawValue: trial % Placement.allCases.count))
            var random = SeededGenerator(seed: 4_100 + UInt64(trial))
            let base = TestDataset.random(seed: 4_200 + UInt64(trial), maximumListings: 40).makeIndex().index
            let address = try await TestCluster.freshDatabase("span\(trial)")
            let url = "\(address)"
            _ = try await Database.using(address) { try await $0.load(base) }
            let window = base.dayCount
            let today = base.firstDay.advanced(by: Int.random(in: 0...(window / 2), using: &random))
            _ = try await Database.using(address) { try await $0.setClock(today: today) }
            let windowEnd = today.advanced(by: window)   // the rolled window: today + the scrape's days

            // Bookings from today on through a replica, which then follows the refresh.
            let (replica, live) = try await SystemOfRecordTests.replica(of: address, at: Scratch.path("span\(trial).ssx"))
            defer { Task { await replica.stop() } }
            let ids = (0..<base.count).map { base.listing(atRow: $0).id }
            var booked: [String] = []
            for _ in 0..<12 {
                let id = random.pick(ids)
                let checkIn = today.advanced(by: Int.random(in: 0...20, using: &random))
                let checkOut = checkIn.advanced(by: Int.random(in: 1...3, using: &random))
                let answer = await replica.write([SystemOfRecordTests.booking(id, checkIn.description, checkOut.description)])
                if answer.status == 200 { booked.append("\(id) \(checkIn) \(checkOut)") }
            }

            // The scrape's span.
            let length = placement == .noCalendar ? 0 : Int.random(in: 5...40, using: &random)
            let first: Day
            switch placement {
            case .beforeToday: first = today.advanced(by: -length - Int.random(in: 0...10, using: &random))
            case .overlappingToday: first = today.advanced(by: -length / 2)
            case .insideWindow: first = today.advanced(by: Int.random(in: 0...(window - length), using: &random))
            case .afterWindow: first = windowEnd.advanced(by: Int.random(in: 0...10, using: &random))
            case .noCalendar: first = today
            }
            let removed = Set(ids.filter { _ in random.chance(0.2) })
            let scrape = Self.scrape(of: base, first: first, dayCount: length, removed: removed, added: 3, random: &random)
            let before = Self.state(url)

            let outcome: Result<Database.RefreshSummary, DatabaseError>
            do { outcome = .success(try await Database.using(address) { try await $0.refresh(with: scrape, chunkSize: 7) }) } catch {
                outcome = .failure(try #require(error as? DatabaseError))
            }
            switch (placement, outcome) {
            case (.beforeToday, .failure(.refusedData(let reason))), (.afterWindow, .failure(.refusedData(let reason))):
                #expect(reason.contains("nothing was taken in") && !reason.contains("\n"), "\(reason)")
                #expect(Self.state(url) == before, "a refused refresh wrote nothing")
                return
            case (.overlappingToday, .success(let summary)), (.insideWindow, .success(let summary)), (.noCalendar, .success(let summary)):
                #expect(summary.refused.isEmpty && summary.added == 3, "\(summary)")
            default:
                Issue.record("\(placement): \(outcome)")
                return
            }

            // Bookings kept, and each booked night from today on closed.
            #expect(RefreshTests.bookings(url) == booked.sorted())
            let open = TestCluster.psql(url, """
                SELECT count(*) FROM bookings b JOIN listings l ON l.id = b.listing CROSS JOIN staysearch_calendar k \
                CROSS JOIN LATERAL generate_series(greatest(lower(b.stay), DATE '\(today)') - k.first_day + 1, upper(b.stay) - k.first_day) AS d(n) \
                WHERE l.night_open[d.n]
                """)
            #expect(open.output.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "booked nights open: \(open.output)")

            // The scrape's nights inside the window from today on, as it says (but those booked); its listings.
            let fresh = try await Database.using(address) { try await $0.snapshot() }
            #expect(fresh.index.count == base.count - removed.count + 3)
            let bookedNights = Set(booked.flatMap { line -> [String] in
                let parts = line.split(separator: " ")
                let (from, to) = (Day(iso: String(parts[1]))!, Day(iso: String(parts[2]))!)
                return (0..<from.distance(to: to)).map { "\(parts[0]) \(from.advanced(by: $0))" }
            })
            let freshRows = Dictionary(uniqueKeysWithValues: (0..<fresh.index.count).map { (fresh.index.listing(atRow: $0).id, $0) })
            for row in 0..<scrape.count {
                let id = scrape.listing(atRow: row).id
                let freshRow = try #require(freshRows[id], "listing \(id) of the scrape")
                #expect(fresh.index.listing(atRow: freshRow).name == scrape.listing(atRow: row).name)
                let theirs = EditableListing(row: row, of: scrape), ours = EditableListing(row: freshRow, of: fresh.index)
                for day in stride(from: max(today, first), to: min(windowEnd, first.advanced(by: length)), by: 1) {
                    let source = first.distance(to: day), offset = fresh.index.firstDay.distance(to: day)
                    guard theirs.prices[source] != ListingIndex.noCalendarRow else { continue }
                    #expect(ours.prices[offset] == theirs.prices[source], "listing \(id) on \(day)")
                    #expect(ours.bookable[offset] == (theirs.bookable[source] && !bookedNights.contains("\(id) \(day)")), "listing \(id) on \(day)")
                }
            }

            // The replica took the refresh in log order and answers as the fresh index does.
            let latest = UInt64(TestCluster.psql(url, "SELECT max(position) FROM change_log").output.trimmingCharacters(in: .whitespacesAndNewlines))!
            #expect(await replica.waitUntilApplied(latest, timeout: .seconds(30)))
            for number in 0..<25 {
                let checkIn = today.advanced(by: Int.random(in: 0...(window - 8), using: &random))
                var query = SearchQuery(checkIn: checkIn, checkOut: checkIn.advanced(by: Int.random(in: 1...7, using: &random)), adults: 1,
                                        sort: random.pick([.price, .recommended]), limit: 50)
                query.today = today
                if number % 5 == 0 { (query.checkIn, query.checkOut) = (nil, nil) }
                #expect(ResultFormatting.json(try live.search(query)) == ResultFormatting.json(try fresh.index.search(query)), "\(query)")
            }
        }
    }
}

extension DatabaseSuites.RefreshSpanTests {
    /// `db clock --today` at its bounds: the latest day it names is taken, a day after it is refused in one line
    /// naming it (the database untouched), and so is a day before the log's today.
    @Test func theClockTakesItsLatestDayAndRefusesPastItOrBackWithNothingWritten() async throws {
        let base = TestDataset.random(seed: 4_300, maximumListings: 10).makeIndex().index
        let address = try await TestCluster.freshDatabase("clock_bounds")
        let url = "\(address)"
        _ = try await Database.using(address) { try await $0.load(base) }
        _ = try await Database.using(address) { try await $0.setClock(today: base.firstDay.advanced(by: 3)) }
        let latest = try await Database.using(address) { try await $0.latestClockDay() }
        #expect(latest.day == base.firstDay.advanced(by: 1_000_000 - base.dayCount), "\(latest)")

        for asked in [latest.day.advanced(by: 1), Day.latest, base.firstDay.advanced(by: 2)] {
            let before = Self.state(url)
            do {
                _ = try await Database.using(address) { try await $0.setClock(today: asked) }
                Issue.record("\(asked) was taken")
            } catch let error as DatabaseError {
                guard case .refusedRequest(let reason) = error else { Issue.record("\(error)"); continue }
                #expect(!reason.contains("\n") && (asked < base.firstDay.advanced(by: 3) ? reason.contains("cannot be set back") : reason.contains("\(latest.day)")),
                        "\(reason)")
            }
            #expect(Self.state(url) == before, "a refused clock wrote nothing")
        }
        let clock = try await Database.using(address) { try await $0.setClock(today: latest.day) }
        #expect(clock.loggedToday == latest.day)
        #expect(TestCluster.psql(url, "SELECT day_count FROM staysearch_calendar").output == "1000000\n")
    }
}
