import Foundation
import Metrics
import PostgresNIO
import StayData
import StaySearch
import StaySearchAPI

/// A replica's following of the change log: every change after the position its index and journal hold,
/// in position order (which is commit order, see ``ChangeWriter``), applied to the live index and
/// journalled with the position it reaches, so that a restart resumes where the disk says, neither losing
/// nor repeating a change. Woken by the database's notifications, polling as a fallback; reconnecting
/// with backoff while the database is away, answering searches all the while from what it has.
final class ChangeFollower: @unchecked Sendable {
    /// Where following stands, for health, metrics and read-your-writes.
    struct Status: Sendable {
        var applied: UInt64
        /// The log's today at the applied position (its last `today` entry); nil before the first.
        var today: Day?
        /// The platform's settings at the applied position (its last `settings` entry, or the database's when
        /// this replica started).
        var platform: PlatformFees
        /// The newest position seen in the log.
        var latest: UInt64
        var connected = false
        /// When (seconds since 1970) this replica last knew it had applied everything.
        var caughtUpAt: Double
        /// Seconds the oldest change not yet applied has waited (0 when caught up).
        var lagSeconds = 0.0
        var reconnects = 0
        /// The copies a write committed now is acknowledged on: 2 while the database connected to requires a
        /// synchronous standby (`synchronous_standby_names` set), 1 while it goes on alone; nil before it is read.
        var copies: Int?
        /// Changes the database accepted that this replica's index refused (none unless the snapshot and the
        /// database disagree).
        var refusedHere = 0
        /// Why following stopped for good (the journal cannot be written), if it did.
        var failure: String?
        var lastError: String?
    }

    private let address: DatabaseAddress
    private let live: LiveIndex
    private let journal: ChangeJournal
    private let lock = NSLock()
    private var status: Status
    private var waiters: [Int: (position: UInt64, continuation: CheckedContinuation<Void, Never>)] = [:]
    private var nextWaiter = 0
    /// The positions of the most recently applied log rows, by row id, for writers learning the positions
    /// of their commits (oldest first in `recentOrder`, at most ``recentLimit``).
    private var recentPositions: [Int64: UInt64] = [:]
    private var recentOrder: [Int64] = []
    private var logWaiters: [Int: (logID: Int64, continuation: CheckedContinuation<UInt64?, Never>)] = [:]
    static let recentLimit = 20_000
    let wakeup = Wakeup()
    /// The changes read from the log at a time.
    static let batchSize = 2_000
    /// The most changes applied and journalled as one group, read `batchSize` at a time, when far behind.
    static let catchUpSize = 30_000
    /// How long to wait for a notification before polling.
    static let pollInterval = Duration.milliseconds(500)

    private let appliedGauge = Gauge(label: "staysearch_follow_applied_position")
    private let latestGauge = Gauge(label: "staysearch_follow_latest_position")
    private let lagPositionsGauge = Gauge(label: "staysearch_follow_lag_positions")
    private let lagSecondsGauge = Gauge(label: "staysearch_follow_lag_seconds")
    private let connectedGauge = Gauge(label: "staysearch_follow_connected")
    private let copiesGauge = Gauge(label: "staysearch_database_copies")
    private let reconnectCounter = Counter(label: "staysearch_follow_reconnects_total")
    private let appliedCounter = Counter(label: "staysearch_follow_changes_applied_total")
    private let refusedCounter = Counter(label: "staysearch_follow_changes_refused_total")
    private let delayRecorder = Recorder(label: "staysearch_follow_visible_delay_seconds")

    init(address: DatabaseAddress, live: LiveIndex, journal: ChangeJournal, position: UInt64, today: Day?, platform: PlatformFees) {
        self.address = address
        self.live = live
        self.journal = journal
        status = Status(applied: position, today: today, platform: platform, latest: position, caughtUpAt: 0)
        appliedGauge.record(Int64(position))
    }

    /// A copy of the status.
    var current: Status { lock.withLock { status } }

    /// Follows until cancelled, or until the journal cannot be written.
    func run() async {
        var backoff = 0.1
        while !Task.isCancelled {
            do {
                let connection = try await address.connect(id: 2, logger: Database.logger)
                update { $0.connected = true; $0.lastError = nil }
                connectedGauge.record(1)
                backoff = 0.1
                do {
                    try await follow(on: connection)
                } catch {
                    Task { try? await connection.close() }
                    throw error
                }
            } catch let error as FollowFailure {
                update { $0.failure = error.message; $0.connected = false }
                Standard.error("staysearch: following stopped: \(error.message)")
                return
            } catch {
                guard !Task.isCancelled else { return }
                let reason = DatabaseError.reason(of: error)
                let wasConnected = lock.withLock { status.connected }
                update { $0.connected = false; $0.lastError = reason }
                connectedGauge.record(0)
                if wasConnected {
                    update { $0.reconnects += 1 }
                    reconnectCounter.increment()
                    Standard.error("staysearch: lost the database at \(address) (\(reason)); answering from position \(current.applied), reconnecting")
                }
            }
            guard !Task.isCancelled else { return }
            try? await Task.sleep(for: .seconds(backoff))
            backoff = min(backoff * 2, 5)
        }
    }

    /// Waits until `position` is applied, at most `timeout`; whether it is.
    func waitUntilApplied(_ position: UInt64, timeout: Duration) async -> Bool {
        if current.applied >= position { return true }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ticket: Int? = lock.withLock {
                if status.applied >= position { return nil }
                nextWaiter += 1
                waiters[nextWaiter] = (position, continuation)
                return nextWaiter
            }
            guard let ticket else { return continuation.resume() }
            Task {
                try? await Task.sleep(for: timeout)
                self.lock.withLock { self.waiters.removeValue(forKey: ticket) }?.continuation.resume()
            }
        }
        return current.applied >= position
    }

    /// The position of log row `logID` once this replica has applied it, waiting at most `timeout`; nil
    /// when it has not been applied by then (or too long ago to be remembered).
    func position(ofLogID logID: Int64, timeout: Duration) async -> UInt64? {
        await withCheckedContinuation { (continuation: CheckedContinuation<UInt64?, Never>) in
            let ticket: Int? = lock.withLock {
                if let position = recentPositions[logID] {
                    continuation.resume(returning: position)
                    return nil
                }
                nextWaiter += 1
                logWaiters[nextWaiter] = (logID, continuation)
                return nextWaiter
            }
            guard let ticket else { return }
            Task {
                try? await Task.sleep(for: timeout)
                self.lock.withLock { self.logWaiters.removeValue(forKey: ticket) }?.continuation.resume(returning: nil)
            }
        }
    }

    private func follow(on connection: PostgresConnection) async throws {
        // Notifications only wake the loop early; the loop alone talks to the database and notices a lost
        // connection (its next query fails). The listener is not waited for: a notification stream of a
        // dropped connection need not end.
        let listener = Task {
            do {
                for try await _ in try await connection.listen(DatabaseSchema.channel) { self.wakeup.signal() }
            } catch {}
        }
        defer { listener.cancel() }
        try await checkNotTrimmed(on: connection)
        var clockReadAt = ContinuousClock.now - ChangeFollower.clockInterval
        while true {
            try Task.checkCancellation()
            try await catchUp(on: connection)
            if ContinuousClock.now - clockReadAt >= ChangeFollower.clockInterval {
                // Caught up: when the database's date has passed the log's today, the new day is announced
                // (by whichever replica or writer notices first; the others find it announced).
                clockReadAt = ContinuousClock.now
                try await withDeadline(ChangeFollower.queryDeadline) {
                    if try await FleetClock.read(on: connection).isBehind { try await FleetClock.announce(on: connection) }
                }
                let standbys = try await withDeadline(ChangeFollower.queryDeadline) {
                    try await connection.query("SHOW synchronous_standby_names", logger: Database.logger).collect().first?
                        .decode(String.self, context: .default) ?? ""
                }
                let copies = standbys.isEmpty ? 1 : 2
                update { $0.copies = copies }
                copiesGauge.record(copies)
                continue
            }
            await wakeup.wait(upTo: ChangeFollower.pollInterval)
        }
    }

    /// How often a caught-up replica reads the database's clock.
    static let clockInterval = Duration.seconds(1)

    /// Applies every change after the applied position, in groups of ``batchSize``.
    private func catchUp(on connection: PostgresConnection) async throws {
        while true {
            let applied = current.applied
            var fetched = try await withDeadline(ChangeFollower.queryDeadline) {
                try await ChangeFollower.fetch(after: applied, on: connection)
            }
            if let first = fetched.batch.first, first.position > applied + 1 {
                // A gap: positions lost to failed commits, or changes trimmed from under this replica.
                try await checkNotTrimmed(on: connection)
            }
            // Far behind (a replica starting on an old snapshot, a refresh): more groups read before they are
            // applied as one, so that the overlay of changed listings is indexed again once, not once a group.
            while fetched.batch.count % ChangeFollower.batchSize == 0, fetched.batch.count < ChangeFollower.catchUpSize,
                  let last = fetched.batch.last?.position {
                let more = try await withDeadline(ChangeFollower.queryDeadline) {
                    try await ChangeFollower.fetch(after: last, on: connection)
                }
                fetched.batch += more.batch
                fetched.databaseNow = more.databaseNow
                if more.batch.count < ChangeFollower.batchSize { break }
            }
            guard let first = fetched.batch.first, let last = fetched.batch.last else {
                let now = Date().timeIntervalSince1970
                update { $0.caughtUpAt = now; $0.lagSeconds = 0 }
                recordGauges()
                return
            }
            var latest = last.position
            if fetched.batch.count >= ChangeFollower.batchSize {
                // Far behind: how far, for health and metrics.
                latest = max(latest, try await withDeadline(ChangeFollower.queryDeadline) {
                    let rows = try await connection.query("SELECT coalesce(max(position), 0) FROM change_log", logger: Database.logger).collect()
                    return UInt64(try rows.first!.decode(Int64.self, context: .default))
                })
            }
            update { $0.latest = max($0.latest, latest); $0.lagSeconds = max(0, fetched.databaseNow - first.committedAt) }
            try apply(fetched.batch)
            if fetched.batch.count % ChangeFollower.batchSize != 0 {
                // Caught up with what was committed when the read began. Under a stream of commits, a
                // moment's pause lets their notifications gather into one read.
                try await Task.sleep(for: ChangeFollower.gathering)
                return
            }
        }
    }

    /// Stops following (for good) when the log no longer holds every change after the applied position.
    private func checkNotTrimmed(on connection: PostgresConnection) async throws {
        let applied = current.applied
        let trimmed = try await withDeadline(ChangeFollower.queryDeadline) {
            try await LogRetention.state(on: connection).trimmedThrough
        }
        if trimmed > applied {
            throw FollowFailure(message: "change-log position \(applied) has been trimmed (the log keeps the changes after \(trimmed)); "
                + "restart this replica: it starts from the newest snapshot ('staysearch db snapshot')")
        }
    }

    /// The longest a read of the log may take before the connection is given up on (a connection the
    /// server closed while it was listening can leave a query unanswered rather than failed).
    static let queryDeadline = Duration.seconds(5)
    /// The pause after a read that found changes, so that a stream of commits is read in groups.
    static let gathering = Duration.milliseconds(2)

    /// The database's clock and the next group of changes after `applied`, in one query.
    private static func fetch(after applied: UInt64, on connection: PostgresConnection) async throws
        -> (databaseNow: Double, batch: [LoggedChange]) {
        let rows = try await connection.execute(ChangeLogReadStatement(after: Int64(applied), limit: Int64(batchSize)), logger: Database.logger)
        var batch: [LoggedChange] = []
        var databaseNow = 0.0
        for try await (position, id, line, committedAt, now) in rows {
            batch.append(LoggedChange(position: UInt64(position), logID: id, line: line, committedAt: committedAt))
            databaseNow = now
        }
        return (databaseNow, batch)
    }

    /// Applies a group of logged changes, journals them with the position they reach, and wakes the readers
    /// waiting for it.
    private func apply(_ batch: [LoggedChange]) throws {
        var changes: [CalendarChange] = []
        var positions: [UInt64] = []
        var refused = 0, appliedHere = 0
        // A day announced in the batch is taken once its changes are applied: replicas decide nothing on
        // it, so only the position it holds from matters, and that is the batch's last. The days its window
        // adds are added at its place, before the changes after it (which may touch them).
        var today = current.today
        var platform = current.platform
        func applyGathered() {
            let verdicts = live.apply(changes)
            for ((change, verdict), position) in zip(zip(changes, verdicts), positions) {
                if let verdict {
                    refused += 1
                    Standard.error("staysearch: warning: change \(position) was accepted by the database but refused here (\(verdict.description)); "
                        + "this replica's index does not match the database: make it again with 'import --from'")
                } else {
                    journal.append(change)
                    appliedHere += 1
                }
            }
            changes.removeAll()
            positions.removeAll()
        }
        for entry in batch {
            if let (day, until) = FleetClock.day(inEntry: entry.line) {
                today = max(today ?? day, day)
                if let until {
                    applyGathered()
                    live.extendCalendar(until: until)
                    journal.appendExtension(until: until)
                }
                continue
            }
            if let settings = PlatformSettings.fees(inEntry: entry.line) {
                platform = settings
                continue
            }
            if let refresh = ListingRefresh(line: entry.line) {
                // A listing a new scrape refreshed: its changes in this group, so that no search sees it half done.
                let parts = refresh.changes
                changes += parts
                positions += repeatElement(entry.position, count: parts.count)
                continue
            }
            do {
                changes.append(try ChangeLine.parse(entry.line))
                positions.append(entry.position)
            } catch {
                refused += 1
                Standard.error("staysearch: warning: change \(entry.position) of the log cannot be read here (\(error)); skipped")
            }
        }
        applyGathered()
        let last = batch.last!.position
        journal.appendPosition(last, today: today)
        do {
            try journal.commit()
        } catch {
            throw FollowFailure(message: "the journal \(journal.path) cannot be written (\(error.description)); restart once it can")
        }
        let now = Date().timeIntervalSince1970
        for entry in batch { delayRecorder.record(max(0, now - entry.committedAt)) }
        appliedCounter.increment(by: Int64(appliedHere))
        if refused > 0 { refusedCounter.increment(by: Int64(refused)) }
        let ready: ([CheckedContinuation<Void, Never>], [(CheckedContinuation<UInt64?, Never>, UInt64)]) = lock.withLock {
            status.applied = last
            status.today = today
            status.platform = platform
            status.refusedHere += refused
            if last >= status.latest {
                status.caughtUpAt = now
                status.lagSeconds = 0
            }
            let due = waiters.filter { $0.value.position <= last }
            for key in due.keys { waiters[key] = nil }
            for entry in batch {
                recentPositions[entry.logID] = entry.position
                recentOrder.append(entry.logID)
            }
            if recentOrder.count > 2 * ChangeFollower.recentLimit {
                for logID in recentOrder.prefix(recentOrder.count - ChangeFollower.recentLimit) { recentPositions[logID] = nil }
                recentOrder.removeFirst(recentOrder.count - ChangeFollower.recentLimit)
            }
            let known = logWaiters.compactMap { key, waiter in recentPositions[waiter.logID].map { (key, waiter.continuation, $0) } }
            for (key, _, _) in known { logWaiters[key] = nil }
            return (due.map(\.value.continuation), known.map { ($0.1, $0.2) })
        }
        for continuation in ready.0 { continuation.resume() }
        for (continuation, position) in ready.1 { continuation.resume(returning: position) }
        recordGauges()
    }

    private func update(_ body: (inout Status) -> Void) {
        lock.withLock { body(&status) }
    }

    private func recordGauges() {
        let status = current
        appliedGauge.record(Int64(status.applied))
        latestGauge.record(Int64(status.latest))
        lagPositionsGauge.record(Int64(status.latest &- min(status.latest, status.applied)))
        lagSecondsGauge.record(status.lagSeconds)
    }
}

/// A row of the change log, as read.
struct LoggedChange {
    let position: UInt64
    /// The row's id (given at insert; its position is given at commit).
    let logID: Int64
    let line: String
    let committedAt: Double
}

/// Following cannot go on (the journal cannot be written).
struct FollowFailure: Error {
    let message: String
}
