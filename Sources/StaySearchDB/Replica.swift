import Foundation
import PostgresNIO
import StayData
import StaySearch
import StaySearchAPI

/// A search replica of a system of record (`serve --follow`): writes sent to it are decided by the
/// database (``ChangeWriter``), and its live index follows the database's change log (``ChangeFollower``).
public final class Replica: SystemOfRecord, @unchecked Sendable {
    private let writer: ChangeWriter
    private let follower: ChangeFollower
    private let connections: PrimaryConnections
    private let tasks: [Task<Void, Never>]
    /// The most seconds this replica may be behind the log and still say it is ready.
    private let maxLag: Double
    /// How long a write waits for its change to be applied here before it is answered.
    static let ownWriteWait = Duration.seconds(2)

    private init(writer: ChangeWriter, follower: ChangeFollower, connections: PrimaryConnections, tasks: [Task<Void, Never>], maxLag: Double) {
        self.writer = writer
        self.follower = follower
        self.connections = connections
        self.tasks = tasks
        self.maxLag = maxLag
    }

    /// Starts following the database at `address` from `position` (the index's and its journal's, where
    /// the log's today was `today`), after checking that the database covers the same calendar span as `live`.
    /// - Throws: ``DatabaseError`` when the database cannot be reached or covers another span.
    public static func start(address: DatabaseAddress, live: LiveIndex, journal: ChangeJournal, position: UInt64, today: Day?,
                             maxLag: Double) async throws(DatabaseError) -> Replica {
        let span: (first: Day, dayCount: Int)?
        let platform: PlatformFees
        do {
            (span, platform) = try await Database.using(address) { database in
                _ = try await database.clock()
                return (try await database.calendarSpan(), try await database.platformSettings())
            }
        } catch let error as DatabaseError {
            throw error
        } catch {
            throw .unreachable(address: address.description, reason: DatabaseError.reason(of: error))
        }
        guard let span else { throw .notReady("the database \(address) has no listings: run 'staysearch db load' first") }
        let ours = live.calendarSpan
        // The index may start later (a snapshot keeps the days from its today) and end sooner (the log's
        // later days extend it as they come).
        guard ours.first >= span.first, ours.first.advanced(by: ours.dayCount) <= span.first.advanced(by: span.dayCount) else {
            throw .notReady("the index covers \(ours.dayCount) days from \(ours.first), the database \(span.dayCount) days from "
                + "\(span.first): make the index with 'staysearch import --from'")
        }
        if journal.lastSequence == 0 || position > 0 {
            // A position record first, so that even the first group of followed changes is known as such on load.
            journal.appendPosition(position, today: today)
            do { try journal.commit() } catch { throw .notReady("the journal \(journal.path) cannot be written: \(error.description)") }
        }
        let connections = PrimaryConnections(address: address)
        let follower = ChangeFollower(address: address, live: live, journal: journal, position: position, today: today, platform: platform)
        let tasks = [Task { await follower.run() }]
        return Replica(writer: ChangeWriter(connections: connections, firstDay: span.first), follower: follower, connections: connections,
                       tasks: tasks, maxLag: maxLag)
    }

    /// Stops following and closes the connections; waits for them at most five seconds (a connection that
    /// hangs must not keep a server from stopping).
    public func stop() async {
        for task in tasks { task.cancel() }
        let stopped = Wakeup()
        Task { [tasks, connections] in
            for task in tasks { await task.value }
            await connections.close()
            stopped.signal()
        }
        await stopped.wait(upTo: .seconds(5))
    }

    package func write(_ lines: [String]) async -> SearchService.Answer {
        var outcomes: [ChangeWriter.Outcome] = []
        for line in lines {
            // Once the database has not answered, the rest of the body is not tried (each would wait as long).
            if case .refused(let error)? = outcomes.last, error.code == .databaseUnreachable {
                outcomes.append(.refused(APIError(.databaseUnreachable, "not attempted: the database did not answer an earlier change of this request")))
                continue
            }
            outcomes.append(await writer.write(line))
        }
        // Each accepted change's position, given at commit, as this replica applies it (read-your-writes on
        // this replica: answered once the changes are searchable here); read back from the log for any not
        // applied within the wait.
        var positions: [Int64: UInt64] = [:]
        for case .accepted(let logID, _) in outcomes {
            positions[logID] = await follower.position(ofLogID: logID, timeout: Replica.ownWriteWait)
        }
        let unknown = outcomes.compactMap { outcome -> Int64? in
            if case .accepted(let logID, _) = outcome, positions[logID] == nil { return logID }
            return nil
        }
        if !unknown.isEmpty, let read = try? await writer.positions(ofLogIDs: unknown) {
            positions.merge(read) { $1 }
        }
        var output = ""
        var single = 200
        for outcome in outcomes {
            switch outcome {
            case let .accepted(logID, copies):
                if let position = positions[logID] {
                    output += "{\"ok\":true,\"position\":\(position),\"copies\":\(copies)}\n"
                } else {
                    // Committed, but its position could not be learnt (the database went away just after).
                    output += "{\"ok\":true,\"copies\":\(copies)}\n"
                }
                single = 200
            case let .refused(error):
                output += error.json + "\n"
                single = error.status
            }
        }
        return SearchService.Answer(status: lines.count == 1 ? single : 200, body: Array(output.utf8))
    }

    package func health() -> SearchService.Answer {
        let status = follower.current
        let now = Date().timeIntervalSince1970
        let behind = status.latest &- min(status.latest, status.applied)
        let ready = status.failure == nil && now - status.caughtUpAt <= maxLag
        var json = JSONWriter()
        json.beginObject()
        json.field("ok", bool: ready)
        json.field("applied_position", number: Int(status.applied))
        json.field("latest_position", number: Int(status.latest))
        json.field("lag_positions", number: Int(behind))
        json.field("lag_seconds", number: String(format3: status.lagSeconds))
        json.field("caught_up_seconds_ago", number: status.caughtUpAt == 0 ? nil : String(format3: now - status.caughtUpAt))
        json.field("database", string: status.connected ? "connected" : "unreachable")
        json.field("reconnects", number: status.reconnects)
        json.field("database_copies", number: status.copies.map(String.init))
        json.field("refused_here", number: status.refusedHere)
        if let error = status.lastError { json.field("last_error", string: error) }
        if !ready {
            // Unhealthy: an error object (code replica_not_ready) with the figures above.
            let why = status.failure.map { "this replica has stopped following the change log: \($0)" }
                ?? "this replica is behind the change log (\(behind) positions, caught up \(status.caughtUpAt == 0 ? "never" : "\(String(format3: now - status.caughtUpAt)) s ago"); at most \(String(format3: maxLag)) s allowed)"
            APIError(.replicaNotReady, why).fields(into: &json)
        }
        json.endObject()
        return SearchService.Answer(status: ready ? 200 : 503, body: Array((json.text + "\n").utf8))
    }

    package func waitUntilApplied(_ position: UInt64, timeout: Duration) async -> Bool {
        await follower.waitUntilApplied(position, timeout: timeout)
    }

    package var appliedPosition: UInt64 { follower.current.applied }

    package var today: Day? { follower.current.today }

    package var platform: PlatformFees { follower.current.platform }
}
