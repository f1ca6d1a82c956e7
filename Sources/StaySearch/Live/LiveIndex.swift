/// An index whose calendars change while it serves searches: bookings, cancellations and availability
/// changes apply in place, in microseconds, without a rebuild.
///
/// The frozen ``ListingIndex`` stays the engine: the live index gives it its own copy of the availability
/// bit sets (the only column these changes touch) and flips bits in it. A reader-writer lock makes every
/// change whole to searches: a search holds a read lock for its scan; a group of changes holds the write
/// lock. A `book` is a check-and-set under that lock, so of two bookings racing for the same night exactly
/// one wins. Safe to call from any number of threads.
///
/// What changes is not saved here (the engine does no I/O): `StayData`'s change journal records each
/// accepted change durably and replays it on load, and `compact` saves ``withIndex(_:)``'s index.
public final class LiveIndex: @unchecked Sendable {
    private let lock = ReadWriteLock()
    private let index: ListingIndex
    /// The index's availability bit sets, owned here and written only under the write lock.
    private let bookable: UnsafeMutablePointer<UInt64>
    private let rows: ListingIDTable

    /// Takes `frozen` live: copies its availability bit sets (O(*days* × *rows* / 64) words).
    public init(_ frozen: ListingIndex) {
        let count = frozen.storage.bookable.count
        let buffer = ColumnBuffer(byteCount: max(1, count) * 8, alignment: 64)
        frozen.storage.bookable.withUnsafeBytes { buffer.pointer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        let copy = Column<UInt64>(owning: buffer, count: count)
        bookable = buffer.pointer.assumingMemoryBound(to: UInt64.self)
        index = frozen.replacingBookable(with: copy)
        rows = ListingIDTable(ids: frozen.storage.ids)
    }

    /// Takes `frozen` live without copying its availability bit sets: changes write into them in place.
    ///
    /// For an index loaded with `StayData`'s `IndexFileReader.loadForChanges(from:)`, whose availability
    /// pages are a private, writable copy-on-write mapping of the file. The caller must not use `frozen`
    /// itself as a frozen index afterwards (it would see the changes) and must not pass memory that is
    /// not writable.
    public init(adoptingWritableAvailabilityOf frozen: ListingIndex) {
        bookable = UnsafeMutablePointer(mutating: frozen.storage.bookable.base)
        index = frozen
        rows = ListingIDTable(ids: frozen.storage.ids)
    }

    /// Runs a query on the calendars as they are now (see ``ListingIndex/search(_:threads:)``).
    public func search(_ query: SearchQuery, threads: Int = 1) throws(QueryError) -> SearchResult {
        try lock.reading { () throws(QueryError) in try index.search(query, threads: threads) }
    }

    /// Runs `body` with the index as it is now; changes wait until it returns. For quotes, listings and
    /// saving a compacted copy. The index must not be kept beyond `body`.
    public func withIndex<Result, Failure: Error>(_ body: (ListingIndex) throws(Failure) -> Result) throws(Failure) -> Result {
        try lock.reading { () throws(Failure) in try body(index) }
    }

    /// Applies one change, whole or not at all.
    /// - Throws: ``ChangeError`` when it is rejected; then nothing changed.
    public func apply(_ change: CalendarChange) throws(ChangeError) {
        try lock.writing { () throws(ChangeError) in try applyLocked(change) }
    }

    /// Applies changes in order as one group (one lock, for throughput); each is accepted or rejected on
    /// its own, as if applied one by one.
    /// - Returns: for each change, nil when accepted, else why it was rejected.
    public func apply(_ changes: [CalendarChange]) -> [ChangeError?] {
        lock.writing {
            changes.map { change in
                do throws(ChangeError) { try applyLocked(change); return nil } catch { return error }
            }
        }
    }

    private func applyLocked(_ change: CalendarChange) throws(ChangeError) {
        guard let row = rows.row(of: change.id, in: index.storage.ids) else { throw .unknownListing(change.id) }
        let (from, to) = change.nights
        guard to > from else { throw .noNights(from: from, to: to) }
        let end = index.firstDay.advanced(by: index.dayCount)
        guard from >= index.firstDay, to <= end else {
            throw .outsideIndexCalendar(from: from, to: to, first: index.firstDay, end: end)
        }
        switch change {
        case let .book(id, checkIn, checkOut, guests):
            // The common case in a few loads (every night's bit, the check-in's rule, the capacity); the
            // full quote only to say why a stay cannot be booked.
            let quick = allBookable(row: row, from: checkIn, to: checkOut)
                && index.stayRule(row: row, day: checkIn).allows(nights: checkIn.distance(to: checkOut))
                && (guests ?? 0) <= Int(index.storage.accommodates[row])
            if !quick {
                let quote = index.quote(row: row, checkIn: checkIn, checkOut: checkOut, guests: guests ?? 0)
                guard quote.isBookable else { throw .notBookable(id: id, reasons: quote.problems.map(\.description)) }
            }
            setBookable(false, row: row, from: checkIn, to: checkOut)
        case let .cancel(_, from, to), let .availability(_, from, to, true):
            // Only priced nights of the listing's calendar can open.
            for night in index.nights(ofRow: row, from: from, to: to) where night.status != .available && night.status != .booked {
                throw .nightCannotOpen(day: night.day, status: night.status)
            }
            setBookable(true, row: row, from: from, to: to)
        case let .availability(_, from, to, false):
            setBookable(false, row: row, from: from, to: to)
        }
    }

    /// Replays changes that were accepted before, in order, onto the index they were accepted on (a
    /// journal of this index): their effects only, without the checks, which gave their verdicts when the
    /// changes were first applied. Changes naming an unknown listing or nights outside the calendar are
    /// skipped (a sound journal has none).
    /// - Returns: how many were skipped.
    @discardableResult
    public func replay(_ changes: [CalendarChange]) -> Int {
        lock.writing {
            var skipped = 0
            let end = index.firstDay.advanced(by: index.dayCount)
            for change in changes {
                let (from, to) = change.nights
                guard let row = rows.row(of: change.id, in: index.storage.ids), to > from, from >= index.firstDay, to <= end else {
                    skipped += 1
                    continue
                }
                switch change {
                case .book, .availability(_, _, _, false): setBookable(false, row: row, from: from, to: to)
                case .cancel, .availability(_, _, _, true): setBookable(true, row: row, from: from, to: to)
                }
            }
            return skipped
        }
    }

    private func allBookable(row: Int, from: Day, to: Day) -> Bool {
        let bit = UInt64(1) << UInt64(row & 63)
        var word = index.firstDay.distance(to: from) * index.wordsPerDay + row >> 6
        for _ in 0..<from.distance(to: to) {
            if bookable[word] & bit == 0 { return false }
            word += index.wordsPerDay
        }
        return true
    }

    private func setBookable(_ value: Bool, row: Int, from: Day, to: Day) {
        let bit = UInt64(1) << UInt64(row & 63)
        var word = index.firstDay.distance(to: from) * index.wordsPerDay + row >> 6
        for _ in 0..<from.distance(to: to) {
            if value { bookable[word] |= bit } else { bookable[word] &= ~bit }
            word += index.wordsPerDay
        }
    }
}
