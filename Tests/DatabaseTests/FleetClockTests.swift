import Foundation
import StayData
import StaySearch
@testable import StaySearchAPI
@testable import StaySearchDB
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

        /// The clock moved forward a day at a time for forty days while clients book: every replica takes each
        /// day at the position of its entry; no accepted change touches a night before the today of the position
        /// it committed at (the clock waits for writes deciding on the old day); every ten days both replicas
        /// and a restarted one answer random searches as an index made fresh at that position, with its today.
        @Test func everyReplicaTakesEachNewDayAtItsPosition() async throws {
            let address = try await SystemOfRecordTests.loadedDatabase("clock_days")
            let url = "\(address)"
            let first = try Self.day("2024-06-29")
            let (one, oneLive) = try await SystemOfRecordTests.replica(of: address, at: Scratch.path("clock-one.ssx"))
            let twoPath = Scratch.path("clock-two.ssx")
            var (two, twoLive) = try await SystemOfRecordTests.replica(of: address, at: twoPath)
            defer { Task { await one.stop() } }
            #expect(await one.waitUntilApplied(1, timeout: .seconds(10)) && one.today == first)
            var random = SeededGenerator(seed: 40)
            let ids = try SystemOfRecordTests.bookable(oneLive, checkIn: "2024-08-20", nights: 1, count: 200)
            var accepted = 0, refusedAsPast = 0
            for step in 1...40 {
                let today = first.advanced(by: step)
                // Clients book nights around today while the day moves on.
                async let moved = Database.using(address) { try await $0.setClock(today: today) }
                let lines = (0..<12).map { n -> String in
                    let checkIn = today.advanced(by: Int.random(in: -2...1, using: &random))
                    return SystemOfRecordTests.booking(random.pick(ids), checkIn.description, checkIn.advanced(by: 1 + n % 2).description)
                }
                let verdicts = await withTaskGroup(of: (Int, String?).self) { group in
                    for (n, line) in lines.enumerated() {
                        let replica = n % 2 == 0 ? one : two
                        group.addTask { let verdict = SystemOfRecordTests.verdict(await replica.write([line])); return (verdict.status, verdict.code) }
                    }
                    return await group.reduce(into: [(Int, String?)]()) { $0.append($1) }
                }
                #expect(try await moved.loggedToday == today)
                accepted += verdicts.filter { $0.0 == 200 }.count
                refusedAsPast += verdicts.filter { $0.1 == "nights_before_today" }.count
                #expect(verdicts.allSatisfy { $0.0 == 200 || ["nights_before_today", "nights_not_available"].contains($0.1) }, "\(verdicts)")
                let entry = try #require(Self.lastDayEntry(url))
                #expect(entry.day == today.description)
                for replica in [one, two] {
                    #expect(await replica.waitUntilApplied(UInt64(entry.position), timeout: .seconds(10)) && replica.today == today, "day \(step)")
                }
                if step % 10 == 0 {
                    // A replica stopped and started again from its journal keeps its today.
                    await two.stop()
                    (two, twoLive) = try await SystemOfRecordTests.replica(of: address, at: twoPath, fresh: false)
                    #expect(two.today == today, "restarted on day \(step)")
                    let fresh = try await Database.using(address) { try await $0.snapshot() }
                    #expect(fresh.today == today)
                    for replica in [one, two] { #expect(await replica.waitUntilApplied(fresh.position, timeout: .seconds(10))) }
                    let clock = StayClock(today: fresh.today, first: first, dayCount: fresh.index.dayCount)
                    for _ in 0..<50 {
                        let checkIn = today.advanced(by: Int.random(in: -3...20, using: &random))
                        let query = SearchQuery(region: random.pick([nil, "zuid", "antwerp"]), checkIn: checkIn,
                                                checkOut: checkIn.advanced(by: Int.random(in: 1...3, using: &random)), adults: 2, limit: 10)
                        let expected = Self.answer { try ResultFormatting.json(fresh.index.search(clock.prepared(query))) }
                        for live in [oneLive, twoLive] {
                            let got = Self.answer { try ResultFormatting.json(live.search(clock.prepared(query))) }
                            #expect(got == expected, "day \(step): \(query)")
                        }
                    }
                }
            }
            await two.stop()
            #expect(accepted > 40 && refusedAsPast > 40, "accepted \(accepted), refused as past \(refusedAsPast)")
            // No accepted booking touches a night before the today announced before it in the log.
            let late = TestCluster.psql(url, #"""
                SELECT count(*) FROM change_log c WHERE c.change LIKE '{"op": "book"%' AND (c.change::json->>'checkin')::date <
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
