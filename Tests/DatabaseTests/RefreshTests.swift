import Foundation
import StayData
import StaySearch
import StaySearchAPI
import StaySearchDB
import StaySearchTestSupport
import Testing

extension DatabaseSuites {
    /// A new scrape taken into a live database with a real PostgreSQL: listings added, removed, renamed and
    /// repriced while sixty clients book through a replica; no booking lost or doubled, every booked night
    /// still closed, the past untouched, and the replica answering as an index made fresh from the database.
    @Suite(.serialized) struct RefreshTests {
        /// The sample as a scrape taken on 2024-07-03 (four days after its own): its calendars from that day
        /// (365 days, the last four without rows), without `removed`, with `added` new listings (copies of
        /// the first listings, new ids), `repriced` listings' nights 7 % dearer and `renamed` ones renamed.
        static func laterScrape(removed: Set<Int64>, repriced: Set<Int64>, renamed: Set<Int64>, added: Int) throws -> ListingIndex {
            let sample = try SystemOfRecordTests.sample.get()
            var listings: [EditableListing] = []
            for row in 0..<sample.count {
                var listing = EditableListing(row: row, of: sample).droppingDays(4)
                listing.extend(toDayCount: sample.dayCount)
                let id = listing.record.id
                if removed.contains(id) { continue }
                if repriced.contains(id) { listing.prices = listing.prices.map { $0 >= 0 ? $0 / 100 * 107 + 100 : $0 } }
                if renamed.contains(id) { listing.record.name += " (renovated)" }
                listings.append(listing)
            }
            for number in 0..<added {
                var copy = listings[number]
                copy.record.id = 9_200_000_000 + Int64(number)
                copy.record.name = "New listing \(number)"
                listings.append(copy)
            }
            return IndexBuilder.build(listings: listings.map(\.record), firstDay: try #require(Day(iso: "2024-07-03")), dayCount: sample.dayCount,
                                      listingAt: { listings[$0] }, neighbourhoods: sample.neighbourhoodShapes(), aliases: sample.regionAliases())
        }

        static func bookings(_ url: String) -> [String] {
            TestCluster.psql(url, "SELECT listing || ' ' || lower(stay) || ' ' || upper(stay) FROM bookings ORDER BY 1").output
                .split(separator: "\n").map(String.init)
        }

        @Test func aNewScrapeIsTakenInWhileSixtyClientsBook() async throws {
            let address = try await SystemOfRecordTests.loadedDatabase("refresh")
            let url = "\(address)"
            _ = try await Database.using(address) { try await $0.setClock(today: try #require(Day(iso: "2024-07-05"))) }
            let (replica, live) = try await SystemOfRecordTests.replica(of: address, at: Scratch.path("refresh.ssx"))
            defer { Task { await replica.stop() } }
            #expect(await replica.waitUntilApplied(2, timeout: .seconds(10)))

            let sample = try SystemOfRecordTests.sample.get()
            var random = SeededGenerator(seed: 57)
            let ids = (0..<sample.count).map { sample.listing(atRow: $0).id }.shuffled(using: &random)
            let removed = Set(ids[0..<40]), repriced = Set(ids[40..<190]), renamed = Set(ids[190..<240])
            let scrape = try Self.laterScrape(removed: removed, repriced: repriced, renamed: renamed, added: 30)

            // Before the refresh: bookings of listings it reprices and removes, and a listing a host added here.
            var booked: [String] = []
            for id in ids[0..<10] + ids[40..<60] {
                if await replica.write([SystemOfRecordTests.booking(id, "2024-09-10", "2024-09-13")]).status == 200 { booked.append("\(id) 2024-09-10 2024-09-13") }
            }
            #expect(booked.count >= 15)
            let hostAdded = #"{"op":"listing","id":9300000001,"name":"Host's own","city":"Antwerp","neighbourhood":"Zuid","room_type":"Entire home/apt","accommodates":2,"price":80}"#
            #expect(await replica.write([hostAdded]).status == 200)

            // The refresh, while sixty clients book stays of random listings (those it changes among them).
            let refreshing = Task { try await Database.using(address) { try await $0.refresh(with: scrape, chunkSize: 50) } }
            let accepted = await withTaskGroup(of: [String].self) { group in
                for client in 0..<60 {
                    group.addTask {
                        var random = SeededGenerator(seed: UInt64(100 + client))
                        var mine: [String] = []
                        for _ in 0..<6 {
                            let id = random.pick(Array(ids[0..<400]))
                            let checkIn = Day(iso: "2024-07-06")!.advanced(by: Int.random(in: 0...150, using: &random))
                            let checkOut = checkIn.advanced(by: Int.random(in: 1...5, using: &random))
                            let answer = await replica.write([SystemOfRecordTests.booking(id, checkIn.description, checkOut.description)])
                            if answer.status == 200 { mine.append("\(id) \(checkIn) \(checkOut)") }
                        }
                        return mine
                    }
                }
                return await group.reduce(into: []) { $0 += $1 }
            }
            let summary = try await refreshing.value
            booked += accepted
            #expect(summary.added == 30 && summary.removed == 40 && summary.updated >= 200 && summary.refused.isEmpty,
                    "\(summary)")
            #expect(summary.removedWithBookings >= 1 && summary.bookedNightsKeptClosed >= 1, "\(summary)")

            // No booking lost, none doubled, every booked night of a listing still there closed.
            #expect(Self.bookings(url) == booked.sorted(), "\(booked.count) accepted")
            let open = TestCluster.psql(url, """
                SELECT count(*) FROM bookings b JOIN listings l ON l.id = b.listing CROSS JOIN staysearch_calendar k \
                CROSS JOIN LATERAL generate_series(lower(b.stay) - k.first_day + 1, upper(b.stay) - k.first_day) AS d(n) WHERE l.night_open[d.n]
                """)
            #expect(open.output.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "booked nights open: \(open.output)")

            // The scrape's fields and prices from today on; the days before today as they were.
            let repricedID = try #require(repriced.first { id in !booked.contains { $0.hasPrefix("\(id) ") } })
            let row = try #require((0..<sample.count).first { sample.listing(atRow: $0).id == repricedID })
            let before = EditableListing(row: row, of: sample).prices
            let prices = TestCluster.psql(url, "SELECT night_prices[1] || ' ' || night_prices[5] || ' ' || night_prices[8] FROM listings WHERE id = \(repricedID)")
            #expect(prices.output.trimmingCharacters(in: .whitespacesAndNewlines)
                    == "\(before[0]) \(before[4]) \(before[7] >= 0 ? before[7] / 100 * 107 + 100 : before[7])")
            let renamedID = try #require(renamed.first)
            #expect(TestCluster.psql(url, "SELECT name FROM listings WHERE id = \(renamedID)").output.hasSuffix(" (renovated)\n"))
            #expect(TestCluster.psql(url, "SELECT count(*) FROM listings WHERE id = ANY(ARRAY[\(removed.map(String.init).joined(separator: ","))]::bigint[])").output == "0\n")
            #expect(TestCluster.psql(url, "SELECT count(*) FROM listings WHERE name LIKE 'New listing %' OR id = 9300000001").output == "31\n",
                    "30 added, the host's kept")

            // The replica took it all, as an index made fresh from the database answers.
            let latest = UInt64(TestCluster.psql(url, "SELECT max(position) FROM change_log").output.trimmingCharacters(in: .whitespacesAndNewlines))!
            #expect(await replica.waitUntilApplied(latest, timeout: .seconds(30)))
            #expect(replica.health().text.contains("\"refused_here\":0"))
            let fresh = try await Database.using(address) { try await $0.snapshot() }
            #expect(fresh.index.count == sample.count - 40 + 31)
            let today = try #require(Day(iso: "2024-07-05"))
            for number in 0..<60 {
                let checkIn = today.advanced(by: Int.random(in: 0...120, using: &random))
                var query = SearchQuery(region: random.pick([nil, "zuid", "antwerp"]), checkIn: checkIn,
                                        checkOut: checkIn.advanced(by: Int.random(in: 1...6, using: &random)), adults: 2,
                                        sort: random.pick([.price, .recommended]), limit: 10)
                query.today = today
                if number % 4 == 0 {     // without dates: prices from today's nights
                    query.checkIn = nil
                    query.checkOut = nil
                }
                #expect(ResultFormatting.json(try live.search(query)) == ResultFormatting.json(try fresh.index.search(query)), "\(query)")
            }

            // The same scrape again changes nothing.
            let again = try await Database.using(address) { try await $0.refresh(with: scrape) }
            #expect(again.added == 0 && again.updated == 0 && again.removed == 0 && again.logRows == 0 && again.unchanged == scrape.count, "\(again)")
        }
    }
}
