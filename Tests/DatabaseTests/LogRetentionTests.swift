import Foundation
import StayData
import StaySearch
import StaySearchAPI
import StaySearchDB
import StaySearchTestSupport
import Testing

extension DatabaseSuites {
    /// Snapshots and a trimmed change log with a real PostgreSQL: the log trimmed below the newest snapshot, a
    /// replica at or after it follows on; one behind it starts from the snapshot and answers as a fresh index;
    /// one started on its old position anyway stops following and says why.
    @Suite(.serialized) struct LogRetentionTests {
        @Test func aReplicaBehindTheTrimmedLogStartsFromTheNewestSnapshot() async throws {
            let address = try await SystemOfRecordTests.loadedDatabase("retention")
            let folder = Scratch.path("snapshots")
            let behindPath = Scratch.path("retention-behind.ssx"), stalePath = Scratch.path("retention-stale.ssx")
            // Two indexes at position 1 (the clock's entry), left behind while others write.
            let (behind, _) = try await SystemOfRecordTests.replica(of: address, at: behindPath)
            #expect(await behind.waitUntilApplied(1, timeout: .seconds(10)))
            await behind.stop()
            try FileManager.default.copyItem(atPath: behindPath, toPath: stalePath)
            try FileManager.default.copyItem(atPath: ChangeJournal.path(forIndex: behindPath), toPath: ChangeJournal.path(forIndex: stalePath))

            let (writer, live) = try await SystemOfRecordTests.replica(of: address, at: Scratch.path("retention-writer.ssx"))
            defer { Task { await writer.stop() } }
            let ids = try SystemOfRecordTests.bookable(live, checkIn: "2024-09-02", nights: 2, count: 30)
            for id in ids.prefix(20) { #expect(await writer.write([SystemOfRecordTests.booking(id, "2024-09-02", "2024-09-04")]).status == 200) }
            let first = try await Database.using(address) { try await $0.saveSnapshot(into: folder, keep: 1) }
            #expect(first.0.position == 21 && first.0.today == Day(iso: "2024-06-29") && first.0.listings == 2_870)
            #expect(FileManager.default.fileExists(atPath: folder + "/snapshot-000000000021.ssx"))
            for id in ids.suffix(10) { #expect(await writer.write([SystemOfRecordTests.booking(id, "2024-09-02", "2024-09-04")]).status == 200) }

            // Changes newer than the retention are kept; then everything the snapshot holds goes.
            let kept = try await Database.using(address) { try await $0.trimLog(keepSeconds: 3600) }
            #expect(kept.removed == 0 && kept.through == 0 && kept.snapshot == 21)
            let trimmed = try await Database.using(address) { try await $0.trimLog(keepSeconds: 0) }
            #expect(trimmed.removed == 21 && trimmed.through == 21)
            let rows = TestCluster.psql("\(address)", "SELECT min(position), max(position), count(*) FROM change_log")
            #expect(rows.output.trimmingCharacters(in: .whitespacesAndNewlines) == "22|31|10", "\(rows.output)")
            #expect(await writer.waitUntilApplied(31, timeout: .seconds(10)))
            #expect(writer.health().status == 200)

            // Behind the trimmed changes: started from the newest snapshot, then the log's tail.
            let snapshot = try await Replica.startingPoint(address: address, indexPath: behindPath, position: 1)
            #expect(snapshot?.position == 21)
            let (restarted, restartedLive) = try await SystemOfRecordTests.replica(of: address, at: behindPath, fresh: false)
            defer { Task { await restarted.stop() } }
            #expect(await restarted.waitUntilApplied(31, timeout: .seconds(10)) && restarted.today == Day(iso: "2024-06-29"))
            #expect(try await Replica.startingPoint(address: address, indexPath: behindPath, position: restarted.appliedPosition) == nil)
            let fresh = try await Database.using(address) { try await $0.snapshot() }
            var random = SeededGenerator(seed: 41)
            for _ in 0..<60 {
                let checkIn = try #require(Day(iso: "2024-08-28")).advanced(by: Int.random(in: 0...12, using: &random))
                let query = SearchQuery(region: random.pick([nil, "zuid", "antwerp"]), checkIn: checkIn,
                                        checkOut: checkIn.advanced(by: Int.random(in: 1...4, using: &random)), adults: 2, limit: 10)
                #expect(ResultFormatting.json(try restartedLive.search(query)) == ResultFormatting.json(try fresh.index.search(query)), "\(query)")
            }

            // Started on its trimmed position anyway: it stops following and says why.
            let (stale, _) = try await SystemOfRecordTests.replica(of: address, at: stalePath, fresh: false)
            defer { Task { await stale.stop() } }
            var health = stale.health()
            for _ in 0..<50 where !health.text.contains("trimmed") {
                try await Task.sleep(for: .milliseconds(100))
                health = stale.health()
            }
            #expect(health.status == 503 && health.text.contains("change-log position 1 has been trimmed (the log keeps the changes after 21)"),
                    "\(health.text)")
            #expect(stale.appliedPosition == 1)

            // A newer snapshot replaces the older one (keep 1).
            let second = try await Database.using(address) { try await $0.saveSnapshot(into: folder, keep: 1) }
            #expect(second.0.position == 31 && second.removed.map { ($0 as NSString).lastPathComponent } == ["snapshot-000000000021.ssx"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["snapshot-000000000031.ssx"])
        }

        /// With no snapshot there is nothing a trimmed replica could start from: the trim is refused.
        @Test func aTrimWithoutASnapshotIsRefused() async throws {
            let address = try await SystemOfRecordTests.loadedDatabase("retention_none")
            await #expect(throws: DatabaseError.self) { try await Database.using(address) { try await $0.trimLog(keepSeconds: 0) } }
        }
    }
}
