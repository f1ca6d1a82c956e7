import Foundation
import PostgresNIO
import StayData
import StaySearch

/// Snapshots kept for replicas to start from, and the change log trimmed below them (docs/fleet.md,
/// "Snapshots and a trimmed log").
///
/// `db snapshot` saves an index of the database (as `import --from` makes it) into a folder the operator
/// names and registers it with its position; `db trim` removes the log's changes up to the newest
/// snapshot's position that are older than the retention, and records the last position removed. A replica
/// whose position has been removed cannot follow (it would miss changes): it says so and starts from the
/// newest snapshot instead.
public enum LogRetention {
    /// A registered snapshot.
    public struct SavedSnapshot: Sendable, Equatable {
        public var position: UInt64
        public var path: String
        public var today: Day?
        public var listings: Int
    }

    /// What the log keeps: every change after `trimmedThrough`; the newest snapshot, if any.
    public struct State: Sendable {
        public var trimmedThrough: UInt64
        public var newest: SavedSnapshot?
    }

    /// The file name of the snapshot at `position` (sorts by position).
    static func fileName(position: UInt64) -> String {
        "snapshot-" + String(repeating: "0", count: max(0, 12 - String(position).count)) + String(position) + ".ssx"
    }

    /// The last position trimmed and the newest registered snapshot.
    static func state(on connection: PostgresConnection) async throws -> State {
        try await FleetClock.install(on: connection)
        let trimmed = try await connection.query("SELECT trimmed_through FROM staysearch_log_trim", logger: Database.logger).collect()
            .first?.decode(Int64.self, context: .default) ?? 0
        let rows = try await connection.query("""
            SELECT position, path, today - DATE '1970-01-01', listings FROM staysearch_snapshots ORDER BY position DESC LIMIT 1
            """, logger: Database.logger).collect()
        let newest = try rows.first.map { row in
            let (position, path, today, listings) = try row.decode((Int64, String, Int32?, Int32).self, context: .default)
            return SavedSnapshot(position: UInt64(position), path: path, today: today.map(Day.init(daysSinceEpoch:)), listings: Int(listings))
        }
        return State(trimmedThrough: UInt64(trimmed), newest: newest)
    }
}

extension Database {
    /// What the log keeps and the newest snapshot.
    /// - Throws: ``DatabaseError``.
    public func retention() async throws(DatabaseError) -> LogRetention.State {
        guard try await isInitialised() else { throw .notReady("the database \(address) has no staysearch tables: run 'staysearch db init' first") }
        do { return try await LogRetention.state(on: connection) } catch {
            throw .failed(step: "reading the snapshots", reason: DatabaseError.reason(of: error))
        }
    }

    /// Saves a snapshot of the database into `folder` (`snapshot-POSITION.ssx`, written whole then renamed
    /// into place), registers it, and removes all but the newest `keep` snapshots (files and rows).
    /// - Returns: the snapshot, its file's size in bytes, and the snapshots removed.
    /// - Throws: ``DatabaseError``; a file that cannot be written as ``DatabaseError/notReady(_:)`` with its reason.
    public func saveSnapshot(into folder: String, keep: Int) async throws(DatabaseError) -> (LogRetention.SavedSnapshot, bytes: Int, removed: [String]) {
        let snapshot = try await snapshot()
        let folderURL = URL(fileURLWithPath: folder, isDirectory: true).standardizedFileURL
        do {
            try FileManager.default.createDirectory(at: folderURL, withIntermediateDirectories: true)
        } catch {
            throw .notReady("the snapshot folder \(folder) cannot be made: \(error.localizedDescription)")
        }
        let path = folderURL.appendingPathComponent(LogRetention.fileName(position: snapshot.position)).path
        let bytes: Int
        do {
            bytes = try IndexFileWriter.save(snapshot.index, to: path, changeLogPosition: snapshot.position, today: snapshot.today)
        } catch {
            throw .notReady(error.description)
        }
        let saved = LogRetention.SavedSnapshot(position: snapshot.position, path: path, today: snapshot.today, listings: snapshot.index.count)
        var removed: [String] = []
        do {
            try await connection.query("""
                INSERT INTO staysearch_snapshots (position, path, today, listings) VALUES (\(Int64(saved.position)), \(path), \
                DATE '1970-01-01' + \(saved.today?.daysSinceEpoch)::integer, \(Int32(saved.listings))) \
                ON CONFLICT (position) DO UPDATE SET path = EXCLUDED.path, made_at = now()
                """, logger: Database.logger)
            let old = try await connection.query("""
                DELETE FROM staysearch_snapshots WHERE position NOT IN \
                (SELECT position FROM staysearch_snapshots ORDER BY position DESC LIMIT \(Int64(max(1, keep)))) RETURNING path
                """, logger: Database.logger)
            for try await oldPath in old.decode(String.self) where oldPath != path {
                if (try? FileManager.default.removeItem(atPath: oldPath)) != nil { removed.append(oldPath) }
            }
        } catch {
            throw .failed(step: "registering the snapshot", reason: DatabaseError.reason(of: error))
        }
        return (saved, bytes, removed)
    }

    /// Removes from the log every change up to the newest snapshot's position committed more than
    /// `keepSeconds` ago, and records the last position removed.
    /// - Returns: how many changes were removed, the last position removed (0: none ever), and the newest
    ///   snapshot's position.
    /// - Throws: ``DatabaseError/notReady(_:)`` when there is no snapshot (a replica behind the trimmed
    ///   positions would have nothing to start from).
    public func trimLog(keepSeconds: Double) async throws(DatabaseError) -> (removed: Int, through: UInt64, snapshot: UInt64) {
        let state = try await retention()
        guard let newest = state.newest else {
            throw .notReady("the database \(address) has no snapshot: run 'staysearch db snapshot' first (a replica behind the "
                + "trimmed changes starts from the newest snapshot)")
        }
        try await run("BEGIN", "starting the trim")
        do throws(DatabaseError) {
            let through = try await integer("""
                SELECT coalesce(max(position), 0) FROM change_log \
                WHERE position <= \(Int64(newest.position)) AND committed_at < clock_timestamp() - make_interval(secs => \(keepSeconds))
                """, "finding what to trim")
            let removed = try await integer("""
                WITH gone AS (DELETE FROM change_log WHERE position <= \(through) RETURNING 1) SELECT count(*) FROM gone
                """, "trimming the log")
            let mark = try await integer("""
                UPDATE staysearch_log_trim SET trimmed_through = greatest(trimmed_through, \(through)) RETURNING trimmed_through
                """, "recording the trim")
            try await run("COMMIT", "committing the trim")
            return (Int(removed), UInt64(mark), newest.position)
        } catch {
            _ = try? await run("ROLLBACK", "rolling back")
            throw error
        }
    }
}

extension Replica {
    /// Where a replica of `address` whose index is at `position` starts: there, when the log still holds
    /// every change after it; else the newest snapshot, copied over the index at `indexPath` (whole, then
    /// renamed into place) with its journal reset.
    /// - Returns: nil when the index at its position can be followed; else the snapshot it now holds.
    /// - Throws: ``DatabaseError/notReady(_:)`` when the position is trimmed and no snapshot can be read here.
    public static func startingPoint(address: DatabaseAddress, indexPath: String, position: UInt64)
        async throws(DatabaseError) -> LogRetention.SavedSnapshot? {
        let state: LogRetention.State
        do {
            state = try await Database.using(address) { try await $0.retention() }
        } catch let error as DatabaseError {
            throw error
        } catch {
            throw .unreachable(address: address.description, reason: DatabaseError.reason(of: error))
        }
        guard state.trimmedThrough > position else { return nil }
        let trimmed = "change-log position \(position) of \(indexPath) has been trimmed (the log keeps the changes after \(state.trimmedThrough))"
        guard let newest = state.newest, newest.position >= state.trimmedThrough, FileManager.default.isReadableFile(atPath: newest.path) else {
            throw .notReady(trimmed + "; no snapshot at or after it can be read here: make the index again with 'staysearch import --from'")
        }
        let temporary = indexPath + ".from-snapshot"
        do {
            try? FileManager.default.removeItem(atPath: temporary)
            try FileManager.default.copyItem(atPath: newest.path, toPath: temporary)
            try ChangeJournal.reset(path: ChangeJournal.path(forIndex: indexPath), identity: IndexFileReader.identity(ofIndexAt: temporary),
                                    firstSequence: 1)
            guard rename(temporary, indexPath) == 0 else { throw DataError.cannotWrite(path: indexPath, reason: String(cString: strerror(errno))) }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw .notReady(trimmed + "; the newest snapshot \(newest.path) could not be copied over it: \(error)")
        }
        return newest
    }
}
