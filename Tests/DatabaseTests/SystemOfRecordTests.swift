import Foundation
import StayData
import StaySearch
import StaySearchAPI
import StaySearchDB
import StaySearchTestSupport
import Testing

extension DatabaseSuites {
    /// The system of record with a real PostgreSQL (``TestCluster``): the writer's verdicts and conflicts, the
    /// follower's commit order past a slow transaction, and a replica's restart from its position. Each test
    /// has a database of its own holding the shipped Antwerp sample.
    @Suite(.serialized) struct SystemOfRecordTests {
        /// The shipped sample, loaded once.
        static let sample: Result<ListingIndex, DataError> = Result { () throws(DataError) in
            try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: "Antwerp", path: TestCluster.root + "/Data/antwerp")]).index
        }

        /// A database of its own with the sample loaded, its clock at the sample's own date (the scrape's first
        /// day, 2024-06-29), announced at position 1.
        static func loadedDatabase(_ name: String) async throws -> DatabaseAddress {
            let address = try await TestCluster.freshDatabase(name)
            let index = try sample.get()
            let summary = try await Database.using(address) { try await $0.load(index) }
            #expect(summary.listings == 2_870)
            let clock = try await Database.using(address) { try await $0.setClock(today: index.firstDay) }
            #expect(clock.loggedToday == index.firstDay && clock.setToday == index.firstDay)
            return address
        }

        /// A replica of `address`, started from an index made of a snapshot (as `import --from` makes it) saved
        /// at `path`, or from the index already there with its journal.
        static func replica(of address: DatabaseAddress, at path: String, fresh: Bool = true, maxLag: Double = 5) async throws -> (Replica, LiveIndex) {
            if fresh {
                let snapshot = try await Database.using(address) { try await $0.snapshot() }
                try? FileManager.default.removeItem(atPath: ChangeJournal.path(forIndex: path))
                _ = try IndexFileWriter.save(snapshot.index, to: path, changeLogPosition: snapshot.position, today: snapshot.today)
            }
            let loaded = try LiveIndexFile.open(from: path)
            let saved = try IndexFileReader.changeLogPosition(ofIndexAt: path)
            let position = try #require(loaded.contents.followedPosition ?? saved)
            let today = loaded.contents.followedPosition == nil ? try IndexFileReader.systemOfRecordToday(ofIndexAt: path) : loaded.contents.followedToday
            nonisolated(unsafe) let journal = loaded.journal
            let replica = try await Replica.start(address: address, live: loaded.live, journal: journal, position: position, today: today,
                                                  maxLag: maxLag)
            return (replica, loaded.live)
        }

        /// The answer's status, its error code if any, and its log position if any.
        static func verdict(_ answer: SearchService.Answer) -> (status: Int, code: String?, position: UInt64?) {
            let object = (try? JSONSerialization.jsonObject(with: Data(answer.body))) as? [String: Any]
            return (answer.status, object?["code"] as? String, (object?["position"] as? NSNumber).map { $0.uint64Value })
        }

        /// Listings with `nights` open nights from `checkIn` for two guests, as the replica's index sees them.
        static func bookable(_ live: LiveIndex, checkIn: String, nights: Int, count: Int) throws -> [Int64] {
            let day = try #require(Day(iso: checkIn))
            let result = try live.search(SearchQuery(checkIn: day, checkOut: day.advanced(by: nights), adults: 2, limit: count))
            #expect(result.matches.count == count)
            return result.matches.map(\.id)
        }

        static func booking(_ id: Int64, _ checkIn: String, _ checkOut: String) -> String {
            #"{"op": "book", "id": "\#(id)", "checkin": "\#(checkIn)", "checkout": "\#(checkOut)", "adults": 2}"#
        }

        /// Every write is decided once by the database: an accepted booking has its position; the same nights
        /// again, an unknown listing, an unreadable line each have their code; of thirty clients racing for one
        /// stay exactly one wins and the database holds one booking.
        @Test func theWriterDecidesEachChangeOnce() async throws {
            let address = try await Self.loadedDatabase("verdicts")
            let (replica, live) = try await Self.replica(of: address, at: Scratch.path("verdicts.ssx"))
            defer { Task { await replica.stop() } }
            let ids = try Self.bookable(live, checkIn: "2024-10-07", nights: 3, count: 2)

            let first = Self.verdict(await replica.write([Self.booking(ids[0], "2024-10-07", "2024-10-10")]))
            #expect(first.status == 200 && first.position != nil)
            #expect(Self.verdict(await replica.write([Self.booking(ids[0], "2024-10-08", "2024-10-09")])) == (409, "nights_not_available", nil))
            #expect(Self.verdict(await replica.write([Self.booking(1, "2024-10-08", "2024-10-09")])) == (404, "listing_not_found", nil))
            #expect(Self.verdict(await replica.write([#"{"op": "book"}"#])) == (400, "invalid_change", nil))
            #expect(Self.verdict(await replica.write([Self.booking(ids[0], "2019-10-08", "2019-10-09")])) == (400, "nights_before_today", nil))
            #expect(Self.verdict(await replica.write([Self.booking(ids[0], "2026-10-08", "2026-10-09")])).code == "nights_outside_calendar")
            // The booking is searchable here once answered (read-your-writes on the replica that took it).
            let day = try #require(Day(iso: "2024-10-08"))
            #expect(live.withListing(id: ids[0]) { index, row in index.quote(row: row, checkIn: day, checkOut: day.advanced(by: 1), guests: 2).isBookable } == false)

            let racers = 30
            let line = Self.booking(ids[1], "2024-10-07", "2024-10-10")
            let statuses = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<racers { group.addTask { await replica.write([line]).status } }
                return await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1 && statuses.filter { $0 == 409 }.count == racers - 1, "\(statuses)")
            let rows = TestCluster.psql("\(address)", "SELECT count(*) FROM bookings WHERE listing = \(ids[1])")
            #expect(rows.status == 0 && rows.output.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "\(rows.output)")
            let logged = TestCluster.psql("\(address)", "SELECT count(*), count(DISTINCT position), min(position), max(position) FROM change_log")
            #expect(logged.output.trimmingCharacters(in: .whitespacesAndNewlines) == "3|3|1|3", "\(logged.output)")
        }

        /// Positions are handed out in commit order: a transaction held at its commit for two seconds after it
        /// took its position, while twenty others commit, is applied by the follower all the same, and every
        /// change reaches the index.
        @Test func theFollowerAppliesChangesInCommitOrderPastASlowTransaction() async throws {
            let address = try await Self.loadedDatabase("order")
            let url = "\(address)"
            let (replica, live) = try await Self.replica(of: address, at: Scratch.path("order.ssx"))
            defer { Task { await replica.stop() } }
            let created = TestCluster.psql(url, """
                CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN IF NEW.change LIKE '%"price": 1234%' THEN PERFORM pg_sleep(2); END IF; RETURN NULL; END $$;
                CREATE CONSTRAINT TRIGGER zz_slow_commit AFTER INSERT ON change_log DEFERRABLE INITIALLY DEFERRED
                    FOR EACH ROW EXECUTE FUNCTION slow_commit();
                """)
            #expect(created.status == 0, "\(created.output)")
            let ids = try Self.bookable(live, checkIn: "2024-11-01", nights: 1, count: 21)
            let lines = ids.enumerated().map { n, id in
                #"{"op": "price", "id": "\#(id)", "from": "2024-11-01", "to": "2024-11-03", "price": \#(n == 0 ? 1234 : 300 + n)}"#
            }
            let answers = await withTaskGroup(of: (Int, SearchService.Answer).self) { group in
                for (n, line) in lines.enumerated() {
                    group.addTask {
                        // The slow one first, so that the others commit while it waits at its commit.
                        if n > 0 { try? await Task.sleep(for: .milliseconds(200)) }
                        return (n, await replica.write([line]))
                    }
                }
                return await group.reduce(into: [Int: SearchService.Answer]()) { $0[$1.0] = $1.1 }
            }
            #expect(answers.values.allSatisfy { $0.status == 200 }, "\(answers.values.map(\.text))")
            let rows = TestCluster.psql(url, "SELECT position, pg_xact_commit_timestamp(xmin) FROM change_log ORDER BY position")
            let stamps = rows.output.split(separator: "\n").map { $0.split(separator: "|").map(String.init) }
            #expect(stamps.count == 22 && stamps.map { $0[0] } == (1...22).map(String.init))
            #expect(stamps.map { $0[1] } == stamps.map { $0[1] }.sorted(), "positions follow commit order")
            // The slow one took its position first (after the clock's entry) and held the position lock until it
            // committed: the others were numbered after it, as they committed after it.
            let slowPosition = try #require(Self.verdict(answers[0]!).position)
            #expect(slowPosition == 2)
            #expect(await replica.waitUntilApplied(22, timeout: .seconds(10)))
            let day = try #require(Day(iso: "2024-11-01"))
            for (n, id) in ids.enumerated() {
                let total = live.withListing(id: id) { index, row in index.quote(row: row, checkIn: day, checkOut: day.advanced(by: 1), guests: 2).total }
                #expect(total == Money(minorUnits: Int64(n == 0 ? 1234 : 300 + n) * 100), "listing \(id)")
            }
        }

        /// A replica stopped, then started again from its saved index and journal while others wrote, catches up
        /// from its position (nothing applied twice, nothing missed) and answers as an index made fresh from the
        /// database.
        @Test func aReplicaRestartsFromItsPosition() async throws {
            let address = try await Self.loadedDatabase("restart")
            let path = Scratch.path("restart.ssx")
            let (replica, live) = try await Self.replica(of: address, at: path)
            let (writer, _) = try await Self.replica(of: address, at: Scratch.path("restart-writer.ssx"))
            defer { Task { await writer.stop() } }
            let ids = try Self.bookable(live, checkIn: "2024-09-02", nights: 2, count: 40)
            for id in ids.prefix(20) { #expect(await replica.write([Self.booking(id, "2024-09-02", "2024-09-04")]).status == 200) }
            #expect(await replica.waitUntilApplied(20, timeout: .seconds(10)))
            await replica.stop()
            // While it is down: bookings, a new price, a new listing.
            for id in ids.suffix(20) { #expect(await writer.write([Self.booking(id, "2024-09-02", "2024-09-04")]).status == 200) }
            #expect(await writer.write([#"{"op": "price", "id": "\#(ids[0])", "from": "2024-09-10", "to": "2024-09-20", "price": 77}"#]).status == 200)
            #expect(await writer.write([
                #"{"op": "listing", "id": "90000000001", "name": "New loft", "city": "Antwerp", "neighbourhood": "Zuid", "room_type": "Entire home/apt", "accommodates": 2}"#,
            ]).status == 200)
            let (restarted, restartedLive) = try await Self.replica(of: address, at: path, fresh: false)
            defer { Task { await restarted.stop() } }
            #expect(await restarted.waitUntilApplied(43, timeout: .seconds(10)))

            let fresh = try await Database.using(address) { try await $0.snapshot() }
            #expect(fresh.position == 43)
            var random = SeededGenerator(seed: 42)
            let regions = [nil, "zuid", "historisch centrum", "antwerp", "centraal station"]
            for _ in 0..<60 {
                let checkIn = try #require(Day(iso: "2024-09-01")).advanced(by: Int.random(in: 0...25, using: &random))
                let query = SearchQuery(region: random.pick(regions), checkIn: checkIn, checkOut: checkIn.advanced(by: Int.random(in: 1...4, using: &random)),
                                        adults: Int.random(in: 1...4, using: &random), limit: 10)
                #expect(ResultFormatting.json(try restartedLive.search(query)) == ResultFormatting.json(try fresh.index.search(query)), "\(query)")
            }
            // Ready while caught up within its bound; a replica allowed no lag at all is not, and says so in the
            // error object's shape beside its figures.
            let health = restarted.health()
            #expect(health.status == 200 && health.text.hasPrefix(#"{"ok":true,"applied_position":43,"#), "\(health.text)")
            let (strict, _) = try await Self.replica(of: address, at: Scratch.path("restart-strict.ssx"), maxLag: 1e-9)
            defer { Task { await strict.stop() } }
            let unready = strict.health()
            let object = try #require(try JSONSerialization.jsonObject(with: Data(unready.body)) as? [String: Any])
            #expect(unready.status == 503 && object["ok"] as? Bool == false && object["code"] as? String == "replica_not_ready"
                    && object["type"] as? String == "system" && object["error"] as? String == object["message"] as? String
                    && object["applied_position"] != nil, "\(unready.text)")
        }

        /// Prices up to 1,000,000,000.00 a night in the system of record: loaded (`COPY`), kept as `bigint[]`, changed
        /// through a replica, and back whole in a snapshot, whose searches the replica's equal; a database made with
        /// 32-bit prices is widened when a replica starts.
        @Test func widePricesLoadChangeAndReachTheReplicas() async throws {
            let data = TestDataset.random(seed: 11).withWidePrices(seed: 11)
            #expect(data.hasWidePrices)
            let index = data.makeIndex().index
            let address = try await TestCluster.freshDatabase("wide")
            _ = try await Database.using(address) { try await $0.load(index) }
            _ = try await Database.using(address) { try await $0.setClock(today: index.firstDay) }
            let loaded = try await Database.using(address) { try await $0.snapshot() }
            var random = SeededGenerator(seed: 11)
            for _ in 0..<30 {
                let query = data.randomQuery(using: &random)
                guard let want = try? ResultFormatting.json(index.search(query)) else { continue }
                #expect(try ResultFormatting.json(loaded.index.search(query)) == want, "\(query)")
            }
            let (replica, live) = try await Self.replica(of: address, at: Scratch.path("wide.ssx"))
            defer { Task { await replica.stop() } }
            let id = try #require(data.listings.first { $0.price != nil }?.id)
            let from = index.firstDay.advanced(by: 2), to = index.firstDay.advanced(by: 5)
            #expect(await replica.write([#"{"op": "price", "id": "\#(id)", "from": "\#(from)", "to": "\#(to)", "price": 1000000000}"#]).status == 200)
            #expect(Self.verdict(await replica.write([#"{"op": "price", "id": "\#(id)", "from": "\#(from)", "to": "\#(to)", "price": 1000000000.01}"#])).code
                    == "invalid_change")
            #expect(await replica.waitUntilApplied(2, timeout: .seconds(10)))
            let row = TestCluster.psql("\(address)", "SELECT night_prices[3], pg_typeof(night_prices) FROM listings WHERE id = \(id)")
            #expect(row.output.trimmingCharacters(in: .whitespacesAndNewlines) == "100000000000|bigint[]", "\(row.output)")
            let fresh = try await Database.using(address) { try await $0.snapshot() }
            #expect(live.withListing(id: id) { index, row in index.nightPrice(row: row, day: from) } == 100_000_000_000)
            for nights in [1, 3, 7] {
                let query = SearchQuery(checkIn: from, checkOut: from.advanced(by: nights), sort: .priceDescending, limit: 50)
                #expect(ResultFormatting.json(try live.search(query)) == ResultFormatting.json(try fresh.index.search(query)), "\(nights) nights")
            }

            // A database of before: 32-bit prices, widened by the next replica to start (a small one, whose prices fit).
            let old = try await TestCluster.freshDatabase("narrow")
            _ = try await Database.using(old) { try await $0.load(TestDataset.random(seed: 12).makeIndex().index) }
            _ = try await Database.using(old) { try await $0.setClock(today: TestDataset.calendarStart) }
            let narrowed = TestCluster.psql("\(old)", "DROP VIEW listing_nights; ALTER TABLE listings ALTER COLUMN night_prices TYPE integer[]")
            #expect(narrowed.status == 0, "\(narrowed.output)")
            let (narrow, _) = try await Self.replica(of: old, at: Scratch.path("narrow.ssx"))
            defer { Task { await narrow.stop() } }
            let type = TestCluster.psql("\(old)", "SELECT DISTINCT pg_typeof(night_prices) FROM listings").output
            #expect(type.trimmingCharacters(in: .whitespacesAndNewlines) == "bigint[]", "\(type)")
            let nights = TestCluster.psql("\(old)", "SELECT count(*) > 0 FROM listing_nights WHERE price_minor >= 0").output
            #expect(nights.trimmingCharacters(in: .whitespacesAndNewlines) == "t", "the view of the nights made again: \(nights)")
        }

        /// Fees in the system of record: a sample with fees loads with them (`COPY`) and comes back whole in a
        /// snapshot; a `listing` change that sets and clears fees is decided by the database, kept in its row and
        /// applied by a replica that follows the log, whose trip prices then equal a fresh snapshot's.
        @Test func feesLoadChangeAndReachTheReplicas() async throws {
            let jersey = try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: "Jersey City",
                                                                                 path: TestCluster.root + "/Data/jersey-city-2019")]).index
            let address = try await TestCluster.freshDatabase("fees")
            _ = try await Database.using(address) { try await $0.load(jersey) }
            _ = try await Database.using(address) { try await $0.setClock(today: jersey.firstDay) }
            let loaded = try await Database.using(address) { try await $0.snapshot() }
            #expect(loaded.index.count == jersey.count)
            for row in 0..<jersey.count {
                let id = jersey.listing(atRow: row).id
                #expect(loaded.index.row(ofListingID: id).flatMap { loaded.index.fees(ofRow: $0) } == jersey.fees(ofRow: row), "listing \(id)")
            }
            let path = Scratch.path("fees.ssx")
            let (replica, live) = try await Self.replica(of: address, at: path)
            defer { Task { await replica.stop() } }
            let withFees = jersey.listing(atRow: (0..<jersey.count).first { jersey.fees(ofRow: $0) != nil }!).id
            let withoutFees = jersey.listing(atRow: (0..<jersey.count).first { jersey.fees(ofRow: $0) == nil }!).id
            let lines = [
                #"{"op": "listing", "id": "\#(withoutFees)", "cleaning_fee": 80, "guests_included": 1, "extra_guest_fee": 15.5, "weekly_discount": 12.5}"#,
                #"{"op": "listing", "id": "\#(withFees)", "cleaning_fee": null, "extra_guest_fee": null, "weekly_discount": null, "monthly_discount": null, "security_deposit": null}"#,
            ]
            for line in lines { #expect(await replica.write([line]).status == 200, "\(line)") }
            #expect(Self.verdict(await replica.write([#"{"op": "listing", "id": "\#(withFees)", "weekly_discount": 99.5}"#])).code == "invalid_change")
            #expect(await replica.waitUntilApplied(3, timeout: .seconds(10)))
            let expected = ListingFees(cleaningFee: Money(minorUnits: 8_000), guestsIncluded: 1, extraGuestFee: Money(minorUnits: 1_550),
                                       weeklyDiscountBasisPoints: 1_250)
            #expect(live.withListing(id: withoutFees) { index, row in index.fees(ofRow: row) } == expected)
            #expect(live.withListing(id: withFees) { index, row in index.fees(ofRow: row) } == .some(nil), "the fees are cleared, the listing kept")
            let row = TestCluster.psql("\(address)", "SELECT fees FROM listings WHERE id = \(withoutFees)")
            #expect(row.output.trimmingCharacters(in: .whitespacesAndNewlines) == "{8000,1,1550,1250,0,-1}", "\(row.output)")
            let fresh = try await Database.using(address) { try await $0.snapshot() }
            let checkIn = jersey.firstDay.advanced(by: 30)
            for nights in [2, 7, 30] {
                let query = SearchQuery(checkIn: checkIn, checkOut: checkIn.advanced(by: nights), adults: 3, sort: .price, limit: 50)
                #expect(ResultFormatting.json(try live.search(query)) == ResultFormatting.json(try fresh.index.search(query)), "\(nights) nights")
            }

            // The platform's settings: set in the database, taken by the replica at their log position, priced
            // with by its service (a search's totals, a quote's tax line, /v1/index).
            let service = SearchService(live: live, journal: nil, systemOfRecord: replica)
            let dated = [("checkin", checkIn.description), ("checkout", checkIn.advanced(by: 7).description), ("adults", "3"), ("sort", "price")]
            let before = service.search(dated).text
            var settings = PlatformFees(serviceFeeBasisPoints: 1_420)
            settings.setTax(city: "Jersey City", basisPoints: 663)
            let position = try await Database.using(address) { try await $0.setPlatformSettings(settings) }
            #expect(position == 4)
            #expect(try await Database.using(address) { try await $0.platformSettings() } == settings)
            #expect(await replica.waitUntilApplied(position, timeout: .seconds(10)))
            #expect(replica.platform == settings)
            #expect(service.indexInfo().text.contains(#""service_fee_percent":14.2"#) && service.indexInfo().text.contains(#""Jersey City":6.63"#),
                    "\(service.indexInfo().text)")
            var query = SearchQuery(checkIn: checkIn, checkOut: checkIn.advanced(by: 7), adults: 3, sort: .price, limit: 20)
            query.serviceFeeBasisPoints = 1_420
            #expect(stable(service.search(dated).text) == stable(ResultFormatting.json(try fresh.index.search(query)) + "\n"),
                    "the replica's search prices with the service fee")
            #expect(stable(service.search(dated).text) != stable(before))
            let quote = service.listing(id: String(withoutFees), dated.filter { $0.0 != "sort" }).text
            #expect(quote.contains(#""taxes":{"percent":6.63,"#) && quote.contains(#""service_fee":{"percent":14.2,"#), "\(quote)")
            // A tax of 0 removes the city's; the service fee back to 0 prices as before.
            settings = PlatformFees()
            #expect(try await Database.using(address) { try await $0.setPlatformSettings(settings) } == 5)
            #expect(await replica.waitUntilApplied(5, timeout: .seconds(10)))
            #expect(stable(service.search(dated).text) == stable(before))
        }

        /// An answer without its `took_us`.
        func stable(_ text: String) -> String { text.replacingOccurrences(of: #",?"took_us":\d+"#, with: "", options: .regularExpression) }
    }
}
