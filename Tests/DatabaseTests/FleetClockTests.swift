import Foundation
import StayData
import StaySearch
import StaySearchAPI
import StaySearchDB
import StaySearchTestSupport
import Testing

extension DatabaseSuites {
    /// The fleet's clock with a real PostgreSQL: a new day is an entry of the change log that every replica takes
    /// at the same position; the database refuses changes to nights before the log's today, also when the day
    /// moves while they are being decided; a replica keeps its today across a restart and a snapshot carries it.
    @Suite(.serialized) struct FleetClockTests {
        static func day(_ text: String) throws -> Day { try #require(Day(iso: text)) }

        /// The JSON of a search, or its error's message.
        static func answer(_ search: () throws -> String) -> String {
            do { return try search() } catch { return "error: \(error)" }
        }

        /// The position of the log's last `today` entry.
        static func lastDayEntry(_ url: String) -> (position: Int, day: String)? {
            let rows = TestCluster.psql(url, #"SELECT position, change FROM change_log WHERE change LIKE '{"today":%' ORDER BY position DESC LIMIT 1"#)
            let fields = rows.output.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|")
            guard fields.count == 2, let position = Int(fields[0]) else { return nil }
            return (position, String(fields[1].dropFirst(10).prefix(10)))
        }

        /// The clock moved forward a day at a time for 400 days while clients book and hosts open the days the
        /// window adds: every replica takes each day at the position of its entry, and its window's new days;
        /// no accepted change touches a night before the today of the position it committed at (the clock
        /// waits for writes deciding on the old day); every 20 days both replicas (one of them restarted from
        /// its journal) answer 100 random searches as an index made fresh by `import --from` at that position.
        @Test func aFleetLivesFourHundredDays() async throws {
            let address = try await SystemOfRecordTests.loadedDatabase("clock_days")
            let url = "\(address)"
            let first = try Self.day("2024-06-29")
            let window = 365
            let (one, oneLive) = try await SystemOfRecordTests.replica(of: address, at: Scratch.path("clock-one.ssx"))
            let twoPath = Scratch.path("clock-two.ssx")
            var (two, twoLive) = try await SystemOfRecordTests.replica(of: address, at: twoPath)
            defer { Task { await one.stop() } }
            #expect(await one.waitUntilApplied(1, timeout: .seconds(10)) && one.today == first)
            var random = SeededGenerator(seed: 40)
            let ids = try SystemOfRecordTests.bookable(oneLive, checkIn: "2024-08-20", nights: 1, count: 200)
            var accepted = 0, refusedAsPast = 0, bookedInAddedDays = 0, compared = 0, withStays = 0
            for step in 1...400 {
                let today = first.advanced(by: step)
                // Clients book nights around today while the day moves on; a host prices and opens the days
                // the window adds, and a guest books two of them.
                async let moved = Database.using(address) { try await $0.setClock(today: today) }
                var lines = (0..<4).map { n -> String in
                    let checkIn = today.advanced(by: Int.random(in: -2...1, using: &random))
                    return SystemOfRecordTests.booking(random.pick(ids), checkIn.description, checkIn.advanced(by: 1 + n % 2).description)
                }
                let verdicts = await Self.write(lines, through: [one, two])
                #expect(try await moved.loggedToday == today)
                accepted += verdicts.filter { $0.0 == 200 }.count
                refusedAsPast += verdicts.filter { $0.1 == "nights_before_today" }.count
                #expect(verdicts.allSatisfy { $0.0 == 200 || ["nights_before_today", "nights_not_available"].contains($0.1) }, "\(verdicts)")
                let entry = try #require(Self.lastDayEntry(url))
                #expect(entry.day == today.description)
                for replica in [one, two] {
                    #expect(await replica.waitUntilApplied(UInt64(entry.position), timeout: .seconds(10)) && replica.today == today, "day \(step)")
                }
                #expect(oneLive.calendarSpan.first.advanced(by: oneLive.calendarSpan.dayCount) == today.advanced(by: window), "day \(step)")
                let added = today.advanced(by: window - 4)
                lines = []
                for id in [random.pick(Array(ids.prefix(20)))] {   // twenty hosts: an overlay of twenty listings
                    lines += [#"{"op": "price", "id": "\#(id)", "from": "\#(added)", "to": "\#(added.advanced(by: 4))", "price": \#(Int.random(in: 40...900, using: &random))}"#,
                              #"{"op": "availability", "id": "\#(id)", "from": "\#(added)", "to": "\#(added.advanced(by: 4))", "available": true}"#,
                              SystemOfRecordTests.booking(id, added.advanced(by: 1).description, added.advanced(by: 3).description)]
                }
                for line in lines {
                    let verdict = SystemOfRecordTests.verdict(await (random.chance(0.5) ? one : two).write([line]))
                    #expect(verdict.status == 200 || verdict.code == "nights_not_available", "day \(step): \(line) → \(verdict)")
                    if verdict.status == 200, line.contains(#""op": "book""#) { bookedInAddedDays += 1 }
                }
                guard step % 20 == 0 else { continue }
                if step % 100 == 0 {
                    // A replica stopped and started again from its journal keeps its today and its window.
                    await two.stop()
                    (two, twoLive) = try await SystemOfRecordTests.replica(of: address, at: twoPath, fresh: false)
                    #expect(two.today == today, "restarted on day \(step)")
                }
                let fresh = try await Database.using(address) { try await $0.snapshot() }
                #expect(fresh.today == today && fresh.index.firstDay == today && fresh.index.dayCount == window)
                for replica in [one, two] { #expect(await replica.waitUntilApplied(fresh.position, timeout: .seconds(10))) }
                for number in 0..<100 {
                    let checkIn = today.advanced(by: Int.random(in: -3...(window + 2), using: &random))
                    var query = SearchQuery(region: random.pick([nil, "zuid", "antwerp"]), checkIn: checkIn,
                                            checkOut: checkIn.advanced(by: Int.random(in: 1...4, using: &random)), adults: 2, limit: 10)
                    if number % 5 == 0 {     // without dates, in price order: prices from today's nights
                        query.checkIn = nil
                        query.checkOut = nil
                        query.sort = .price
                    }
                    let expected = Self.answer(fresh.index, today: today, query)
                    if expected.hasPrefix(#"{"total":"#), !expected.hasPrefix(#"{"total":0,"#) { withStays += 1 }
                    for live in [oneLive, twoLive] {
                        #expect(Self.answer(live, today: today, query) == expected, "day \(step): \(query)")
                    }
                    compared += 1
                }
            }
            await two.stop()
            #expect(accepted > 150 && refusedAsPast > 150 && bookedInAddedDays > 200 && withStays > 200,
                    "accepted \(accepted), refused as past \(refusedAsPast), booked in added days \(bookedInAddedDays), with stays \(withStays) of \(compared)")
            // No accepted change touches a night before the today announced before it in the log.
            let late = TestCluster.psql(url, #"""
                SELECT count(*) FROM change_log c WHERE c.change LIKE '{"op":%' AND coalesce(c.change::json->>'checkin', c.change::json->>'from')::date <
                  (SELECT (d.change::json->>'today')::date FROM change_log d WHERE d.change LIKE '{"today":%' AND d.position < c.position
                   ORDER BY d.position DESC LIMIT 1)
                """#)
            #expect(late.status == 0 && late.output.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(late.output)")
            // The fleet's today never goes back; the database's own date takes over with --utc.
            await #expect(throws: DatabaseError.self) { try await Database.using(address) { try await $0.setClock(today: first) } }
            let utc = try await Database.using(address) { try await $0.setClock(today: nil) }
            let databaseDate = TestCluster.psql(url, "SELECT (now() AT TIME ZONE 'UTC')::date").output.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(utc.setToday == nil && utc.today.description == databaseDate && utc.loggedToday == utc.today)
            let entry = try #require(Self.lastDayEntry(url))
            #expect(await one.waitUntilApplied(UInt64(entry.position), timeout: .seconds(10)) && one.today == utc.today)
        }

        /// Writes each line through the replicas in turn, all at once.
        static func write(_ lines: [String], through replicas: [Replica]) async -> [(Int, String?)] {
            await withTaskGroup(of: (Int, String?).self) { group in
                for (n, line) in lines.enumerated() {
                    let replica = replicas[n % replicas.count]
                    group.addTask { let verdict = SystemOfRecordTests.verdict(await replica.write([line])); return (verdict.status, verdict.code) }
                }
                return await group.reduce(into: [(Int, String?)]()) { $0.append($1) }
            }
        }

        /// A search as a replica's server prepares it: the clock at `today` over the index's own days.
        static func answer(_ index: ListingIndex, today: Day, _ query: SearchQuery) -> String {
            answer { try ResultFormatting.json(index.search(StayClock(today: today, first: index.firstDay, dayCount: index.dayCount).prepared(query))) }
        }

        static func answer(_ live: LiveIndex, today: Day, _ query: SearchQuery) -> String {
            let span = live.calendarSpan
            return answer { try ResultFormatting.json(live.search(StayClock(today: today, first: span.first, dayCount: span.dayCount).prepared(query))) }
        }

        /// With the clock at the database's own date, a replica announces the new day by itself (nobody writes).
        @Test func aReplicaAnnouncesTheDatabasesDate() async throws {
            let address = try await TestCluster.freshDatabase("clock_utc")
            _ = try await Database.using(address) { try await $0.load(SystemOfRecordTests.sample.get()) }
            let (replica, _) = try await SystemOfRecordTests.replica(of: address, at: Scratch.path("clock-utc.ssx"))
            defer { Task { await replica.stop() } }
            #expect(await replica.waitUntilApplied(1, timeout: .seconds(10)))
            let databaseDate = TestCluster.psql("\(address)", "SELECT (now() AT TIME ZONE 'UTC')::date").output.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(replica.today?.description == databaseDate)
            #expect(Self.lastDayEntry("\(address)")?.position == 1)
        }
    }
}
