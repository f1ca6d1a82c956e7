import Foundation
import StaySearch
import StaySearchAPI
import StaySearchDB
import StaySearchTestSupport
import Testing

extension DatabaseSuites {
    /// A URL naming several hosts, as a failover orchestrator hands it out: hosts tried in order, one that does not
    /// answer or takes no writes skipped; a writer whose server turns read-only (a demoted primary) answers 503 at
    /// once and writes again, on new connections, once a host takes writes.
    @Suite(.serialized) struct PrimaryLocationTests {
        /// The address of `address`'s database behind a first host where nothing listens.
        static func behindADeadHost(_ address: DatabaseAddress, target: String = "read-write") throws -> DatabaseAddress {
            let live = address.endpoints[0]
            return try DatabaseAddress("postgres://\(address.user)@127.0.0.1:1,\(live.host):\(live.port)/\(address.database)?target_session_attrs=\(target)")
        }

        @Test func aHostThatDoesNotAnswerOrIsReadOnlyIsSkipped() async throws {
            let address = try await TestCluster.freshDatabase("locate")
            let twoHosts = try Self.behindADeadHost(address)
            #expect(try await Database.using(twoHosts) { _ in true })
            // Read-only sessions, as on a standby: read-write finds no host, any takes it.
            TestCluster.psql("\(address)", "ALTER DATABASE \(address.database) SET default_transaction_read_only = on")
            do {
                _ = try await Database.using(twoHosts) { _ in true }
                Issue.record("a read-only server was taken for writes")
            } catch let error as DatabaseError {
                #expect(error.description.contains("127.0.0.1:1: ") && error.description.contains("read-only"), "\(error)")
            }
            #expect(try await Database.using(try Self.behindADeadHost(address, target: "any")) { _ in true })
        }

        @Test func aWriterFollowsTheServerThatTakesWrites() async throws {
            let loaded = try await SystemOfRecordTests.loadedDatabase("locate_writes")
            let address = try Self.behindADeadHost(loaded)
            let (replica, live) = try await SystemOfRecordTests.replica(of: address, at: Scratch.path("locate-writes.ssx"))
            defer { Task { await replica.stop() } }
            let ids = try SystemOfRecordTests.bookable(live, checkIn: "2024-10-07", nights: 2, count: 3)
            let first = await replica.write([SystemOfRecordTests.booking(ids[0], "2024-10-07", "2024-10-09")])
            #expect(first.status == 200 && String(decoding: first.body, as: UTF8.self).contains(#""copies":1"#), "\(String(decoding: first.body, as: UTF8.self))")
            // The server turns read-only under the writer's open connections (a primary demoted): refused at once.
            TestCluster.psql("\(loaded)", "ALTER DATABASE \(loaded.database) SET default_transaction_read_only = on")
            TestCluster.psql("\(loaded)", "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(loaded.database)' AND pid <> pg_backend_pid()")
            let started = ContinuousClock.now
            let refused = SystemOfRecordTests.verdict(await replica.write([SystemOfRecordTests.booking(ids[1], "2024-10-07", "2024-10-09")]))
            #expect(refused.status == 503 && refused.code == "database_unreachable", "\(refused)")
            #expect(ContinuousClock.now - started < .seconds(9))
            // Writes taken again (a host promoted): new connections reach it.
            // (From another database: a read-only session cannot alter its own.)
            let other = "postgres://\(loaded.user)@\(loaded.host):\(loaded.port)/stays"
            #expect(TestCluster.psql(other, "ALTER DATABASE \(loaded.database) RESET default_transaction_read_only").status == 0)
            let again = SystemOfRecordTests.verdict(await replica.write([SystemOfRecordTests.booking(ids[1], "2024-10-07", "2024-10-09")]))
            #expect(again.status == 200 && again.position != nil, "\(again)")
            #expect(await replica.waitUntilApplied(try #require(again.position), timeout: .seconds(10)))
            let booked = TestCluster.psql("\(loaded)", "SELECT count(*) FROM bookings WHERE listing IN (\(ids[0]), \(ids[1]))")
            #expect(booked.output.trimmingCharacters(in: .whitespacesAndNewlines) == "2")
        }

        /// Every one of the writer's connections lost in the middle of a change, as when its primary dies: each
        /// change is answered 503 at once, and the next change is written on a new connection. (A statement
        /// sent on a connection that has just closed is never answered; one left waiting on it would hold its
        /// connection's place for good, and a few such losses would leave the writer none.)
        @Test func changesCutOffMidwayFreeTheirConnections() async throws {
            let loaded = try await SystemOfRecordTests.loadedDatabase("cut_writes")
            let (replica, live) = try await SystemOfRecordTests.replica(of: loaded, at: Scratch.path("cut-writes.ssx"))
            defer { Task { await replica.stop() } }
            let ids = try SystemOfRecordTests.bookable(live, checkIn: "2024-10-14", nights: 2, count: 3)
            let database = loaded.database
            let waiting = "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND wait_event_type = 'Lock'"
            for round in 0..<2 {
                // A session holds the listing's row, so that every writer connection waits on it mid-change.
                let holder = Thread {
                    TestCluster.psql("\(loaded)", "BEGIN; SELECT id FROM listings WHERE id = \(ids[0]) FOR UPDATE; SELECT pg_sleep(4); COMMIT")
                }
                holder.start()
                try await Task.sleep(for: .milliseconds(300))
                let answers = Task {
                    await withTaskGroup(of: (Int, String?, ContinuousClock.Instant).self) { group in
                        for _ in 0..<8 {
                            group.addTask {
                                let verdict = SystemOfRecordTests.verdict(await replica.write([SystemOfRecordTests.booking(ids[0], "2024-10-14", "2024-10-16")]))
                                return (verdict.status, verdict.code, ContinuousClock.now)
                            }
                        }
                        return await group.reduce(into: []) { $0.append($1) }
                    }
                }
                var blocked = 0
                for _ in 0..<40 where blocked < 8 {
                    try await Task.sleep(for: .milliseconds(50))
                    blocked = Int(TestCluster.psql("\(loaded)", waiting).output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
                }
                #expect(blocked == 8, "round \(round): \(blocked) of the writer's 8 connections waiting on the row")
                let cut = ContinuousClock.now
                TestCluster.psql("\(loaded)", "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database)' AND wait_event_type = 'Lock'")
                let answered = await answers.value
                #expect(answered.allSatisfy { $0.0 == 503 && $0.1 == "database_unreachable" }, "round \(round): \(answered.map { ($0.0, $0.1) })")
                let slowest = answered.map { $0.2 - cut }.max() ?? .zero
                #expect(slowest < .seconds(5), "round \(round): the cut changes answered after \(slowest) (the writer's deadline is 10 s)")
                // The next change finds a connection at once.
                let started = ContinuousClock.now
                let next = SystemOfRecordTests.verdict(await replica.write([SystemOfRecordTests.booking(ids[1 + round], "2024-10-14", "2024-10-16")]))
                #expect(next.status == 200, "round \(round): \(next)")
                #expect(ContinuousClock.now - started < .seconds(5), "round \(round): the next change waited \(ContinuousClock.now - started)")
                while holder.isExecuting { try await Task.sleep(for: .milliseconds(100)) }
            }
        }
    }
}
