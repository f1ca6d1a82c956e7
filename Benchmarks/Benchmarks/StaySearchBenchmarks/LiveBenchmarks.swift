import Benchmark
import Foundation
import StayData
import StaySearch

/// Live calendars: changes applied durably, searches while they apply, a load that replays a
/// journal of 100,000 changes.
enum LiveFixture {
    /// Live copies of the calibrated index (changes never reach `Fixture.index`): one that changes, one
    /// that stays as loaded.
    static let live = LiveIndex(Fixture.index)
    static let unchanged = LiveIndex(Fixture.index)
    static let ids: [Int64] = (0..<Fixture.index.count).map { Fixture.index.listingID(ofRow: $0) }

    /// `count` changes as a booking host's day brings them: two bookings in three, the rest cancellations,
    /// of 1–7 nights at random listings and dates (seeded: the same stream every run).
    static func changes(_ count: Int, seed: UInt64) -> [CalendarChange] {
        var state = seed
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        let first = Fixture.index.firstDay
        return (0..<count).map { k in
            let id = ids[next() % ids.count]
            let checkIn = first.advanced(by: next() % (Fixture.index.dayCount - 8))
            let checkOut = checkIn.advanced(by: 1 + next() % 7)
            return k % 3 == 2 ? .cancel(id: id, checkIn: checkIn, checkOut: checkOut) : .book(id: id, checkIn: checkIn, checkOut: checkOut, guests: nil)
        }
    }

    /// A live copy in which 10,000 listings at random have new prices for a month (so they sit in the
    /// overlay), and those listings' ids.
    static let repricedIDs: [Int64] = {
        var seen = Set<Int64>()
        return (0..<20_000).map { ids[($0 &* 2_654_435_761) % ids.count] }.filter { seen.insert($0).inserted }.prefix(10_000).map { $0 }
    }()
    static let repriced: LiveIndex = {
        let live = LiveIndex(Fixture.index)
        let errors = live.apply(priceChanges(repricedIDs, seed: 1))
        precondition(errors.allSatisfy { $0 == nil })
        return live
    }()

    /// Another live copy with the same 10,000 listings in the overlay, whose window rolls (days added).
    static let rolling: LiveIndex = {
        let live = LiveIndex(Fixture.index)
        let errors = live.apply(priceChanges(repricedIDs, seed: 1))
        precondition(errors.allSatisfy { $0 == nil })
        return live
    }()

    /// A month of new prices for each of `listingIDs`, from a day and at a price that vary with `seed`.
    static func priceChanges(_ listingIDs: [Int64], seed: Int) -> [CalendarChange] {
        let first = Fixture.index.firstDay
        return listingIDs.enumerated().map { k, id in
            let from = first.advanced(by: (k &* 7 &+ seed) % (Fixture.index.dayCount - 31))
            return .price(id: id, from: from, to: from.advanced(by: 30), price: Money(minorUnits: Int64(5_000 + (k &+ seed) % 200 * 100)))
        }
    }

    /// The saved calibrated index with a journal of 100,000 accepted changes beside it (a second file, so
    /// that `LoadIndex` keeps measuring a load without one). Saved as `import` and `compact` save an index,
    /// not copied: a copy made by `FileManager.copyItem` loaded 10–30 % slower here (its page cache is
    /// held in smaller pieces), which made the journal load look slower than it is.
    static let indexWithJournal: String = {
        let path = NSTemporaryDirectory() + "staysearch-bench-journal-\(getpid()).ssx"
        try! IndexFileWriter.save(Fixture.index, to: path)
        let (journal, _) = try! ChangeJournal.open(path: ChangeJournal.path(forIndex: path),
                                                   identity: try! IndexFileReader.identity(ofIndexAt: path))
        let scratch = LiveIndex(try! IndexFileReader.load(from: path))
        var written = 0
        var seed: UInt64 = 11
        while written < 100_000 {
            let batch = changes(10_000, seed: seed)
            seed += 1
            for (change, error) in zip(batch, scratch.apply(batch)) where error == nil && written < 100_000 {
                journal.append(change)
                written += 1
            }
        }
        try! journal.commit()
        journal.close()
        return path
    }()
}

/// Applies changes at a steady rate on a thread of its own until stopped: 100 every 10 ms (10,000 a
/// second), each group written to a journal with one fsync, as `update` does.
final class ChangeStream: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true
    private let done = DispatchSemaphore(value: 0)
    private(set) var applied = 0

    init(live: LiveIndex, journalPath: String) {
        Thread {
            let (journal, _) = try! ChangeJournal.open(path: journalPath, identity: 1)
            var seed: UInt64 = 1_000
            var next = Date()
            while self.isRunning {
                let group = LiveFixture.changes(100, seed: seed)
                seed += 1
                for (change, error) in zip(group, live.apply(group)) where error == nil { journal.append(change) }
                try! journal.commit()
                self.lock.withLock { self.applied += group.count }
                next += 0.01
                let wait = next.timeIntervalSinceNow
                if wait > 0 { Thread.sleep(forTimeInterval: wait) }
            }
            journal.close()
            self.done.signal()
        }.start()
    }

    private var isRunning: Bool { lock.withLock { running } }

    /// Stops the stream and waits for its thread.
    func stop() {
        lock.withLock { running = false }
        done.wait()
    }
}

/// Rolls a live index's window a day every 20 ms on a thread of its own until stopped.
final class RollingDays: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true
    private let done = DispatchSemaphore(value: 0)

    init(live: LiveIndex) {
        Thread {
            while self.isRunning {
                live.extendCalendar(toDayCount: live.calendarSpan.dayCount + 1)
                Thread.sleep(forTimeInterval: 0.02)
            }
            self.done.signal()
        }.start()
    }

    private var isRunning: Bool { lock.withLock { running } }

    /// Stops rolling and waits for the thread.
    func stop() {
        lock.withLock { running = false }
        done.wait()
    }
}

func liveBenchmarks() {
    // Which bookings are refused depends on every change before (and a refusal quotes the stay): malloc
    // counts are not repeatable, so only time is measured.
    Benchmark("Live.ApplyChanges1000", configuration: .init(metrics: [.wallClock], maxDuration: .seconds(isSmoke ? 1 : 5),
                                                             maxIterations: isSmoke ? 20 : 1_000_000, thresholds: [:])) { benchmark in
        let live = LiveFixture.live
        let (journal, _) = try! ChangeJournal.open(path: NSTemporaryDirectory() + "staysearch-bench-apply-\(getpid()).journal", identity: 1)
        let groups = (0..<50).map { LiveFixture.changes(1_000, seed: UInt64($0)) }
        var round = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            // One group of 1,000 changes: applied under one lock, appended, one fsync.
            let group = groups[round % groups.count]
            round += 1
            for (change, error) in zip(group, live.apply(group)) where error == nil { journal.append(change) }
            try! journal.commit()
        }
        benchmark.stopMeasurement()
        journal.close()
    }
    // The same search on the live index, without and with 10,000 changes a second applying meanwhile.
    let query = Fixture.cityDates
    Benchmark("Live.SearchFrozen") { benchmark in
        let live = LiveFixture.unchanged
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try! live.search(query)) }
    }
    Benchmark("Live.SearchWhileChanging", configuration: .init(metrics: [.wallClock], maxDuration: .seconds(isSmoke ? 1 : 5),
                                                                maxIterations: isSmoke ? 20 : 1_000_000, thresholds: [:])) { benchmark in
        let live = LiveFixture.live
        let stream = ChangeStream(live: live, journalPath: NSTemporaryDirectory() + "staysearch-bench-stream-\(getpid()).journal")
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try! live.search(query)) }
        benchmark.stopMeasurement()
        stream.stop()
    }
    // Price changes move listings into the overlay, rebuilt once a group: 100 new prices for listings of an
    // overlay of 10,000, applied, journalled, one fsync.
    Benchmark("Live.PriceChanges100", configuration: .init(metrics: [.wallClock], maxDuration: .seconds(isSmoke ? 1 : 5),
                                                            maxIterations: isSmoke ? 5 : 1_000_000, thresholds: [:])) { benchmark in
        let live = LiveFixture.repriced
        let (journal, _) = try! ChangeJournal.open(path: NSTemporaryDirectory() + "staysearch-bench-price-\(getpid()).journal", identity: 1)
        let groups = (0..<50).map { LiveFixture.priceChanges(Array(LiveFixture.repricedIDs[($0 * 100)..<($0 * 100 + 100)]), seed: $0 + 2) }
        var round = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let group = groups[round % groups.count]
            round += 1
            for (change, error) in zip(group, live.apply(group)) where error == nil { journal.append(change) }
            try! journal.commit()
        }
        benchmark.stopMeasurement()
        journal.close()
    }
    // The search of `Live.SearchFrozen` with 10,000 listings in the overlay (their frozen rows masked out).
    Benchmark("Live.SearchWithOverlay10k", configuration: .init(metrics: [.wallClock], maxDuration: .seconds(isSmoke ? 1 : 5),
                                                                 maxIterations: isSmoke ? 20 : 1_000_000, thresholds: [:])) { benchmark in
        let live = LiveFixture.repriced
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try! live.search(query)) }
    }
    // A window that rolls a day: the day added to every calendar (the frozen rows untouched; the overlay's
    // 10,000 listings extended and indexed again), as a replica takes a new day's entry. One day an iteration.
    Benchmark("Live.RollWindow", configuration: .init(metrics: [.wallClock], maxDuration: .seconds(isSmoke ? 1 : 5),
                                                      maxIterations: isSmoke ? 3 : 200, thresholds: [:])) { benchmark in
        let live = LiveFixture.rolling
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { live.extendCalendar(toDayCount: live.calendarSpan.dayCount + 1) }
    }
    // The search of `Live.SearchWithOverlay10k` while the window rolls a day every 20 ms on another thread
    // (a roll holds the write lock: a search that meets one waits for it).
    Benchmark("Live.SearchWhileRolling", configuration: .init(metrics: [.wallClock], maxDuration: .seconds(isSmoke ? 1 : 5),
                                                              maxIterations: isSmoke ? 20 : 1_000_000, thresholds: [:])) { benchmark in
        let live = LiveFixture.rolling
        let rolling = RollingDays(live: live)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try! live.search(query)) }
        benchmark.stopMeasurement()
        rolling.stop()
    }
    Benchmark("Live.LoadWithJournal100k", configuration: configuration(seconds: 5)) { benchmark in
        let path = LiveFixture.indexWithJournal
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let loaded = try! LiveIndexFile.load(from: path)
            precondition(loaded.skipped == 0 && loaded.contents.changes.count == 100_000)
            blackHole(loaded.live)
        }
    }
    // The same index file loaded without its journal: the load the bound compares with, on one file (the
    // same bytes as `LoadIndex`'s, saved the same way; a control for that file's page cache).
    Benchmark("Live.LoadWithoutJournal", configuration: configuration(seconds: 5)) { benchmark in
        let path = LiveFixture.indexWithJournal
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try! IndexFileReader.load(from: path)) }
    }
}
