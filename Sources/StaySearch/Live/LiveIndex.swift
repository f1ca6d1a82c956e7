/// An index whose listings and calendars change while it serves searches: bookings, cancellations,
/// availability, prices, stay rules, listings added, changed and removed, each applied in microseconds to
/// milliseconds, without a rebuild of the whole.
///
/// The frozen ``ListingIndex`` stays the engine. Availability changes flip bits in the live index's own
/// copy of its availability bit sets. A listing whose fields, prices or rules change, or that is added,
/// moves to a small overlay index (``ChangedListings``) rebuilt after each group of such changes; its
/// frozen row, like a removed listing's, is masked out of every search by a bit set of visible rows.
/// A search scans the frozen rows and the overlay's as one (``ListingIndex/scan(_:threads:minimumRowsPerPart:collectsRows:live:)``).
///
/// A reader-writer lock makes every change whole to searches: a search holds a read lock for its scan; a
/// group of changes holds the write lock. A `book` is a check-and-set under that lock, so of two bookings
/// racing for the same night exactly one wins. Safe to call from any number of threads.
///
/// What changes is not saved here (the engine does no I/O): `StayData`'s change journal records each
/// accepted change durably and replays it on load, and `compact` saves ``withIndex(_:)``'s index.
public final class LiveIndex: @unchecked Sendable {
    let lock = ReadWriteLock()
    package let index: ListingIndex
    /// The index's availability bit sets, owned here and written only under the write lock.
    private let bookable: UnsafeMutablePointer<UInt64>
    /// Listing id → frozen row, built on first use: a load that only replays its journal and searches never
    /// needs it (a replay looks up the ids it names in one pass, ``SelectedIDRows``).
    private var idTable: ListingIDTable?
    private let idTableLock = ReadWriteLock()
    /// During a replay, the rows of the ids its changes name.
    private var replayRows: SelectedIDRows?
    /// `wordsPerDay` words, bit *r* set while frozen row *r* is visible (not removed, not moved to the
    /// overlay); nil while every row is.
    private var visibleRows: UnsafeMutablePointer<UInt64>?
    /// The room types, property types and amenities of the hidden frozen rows; nil while every row is visible.
    private var frozenNames: FrozenNameCounts?
    /// The changed and added listings, and their overlay index.
    private(set) var changed = ChangedListings()
    /// The whole index built again with every change in it (for ``withIndex(_:)``), until the next change.
    private var rebuilt: ListingIndex?
    private let rebuildLock = ReadWriteLock()
    /// The days the live calendars cover from the frozen index's first: its own, and the days a window
    /// that rolls added after them, which have no calendar row in the frozen rows.
    private(set) var dayCount: Int

    /// Takes `frozen` live: copies its availability bit sets (O(*days* × *rows* / 64) words).
    public init(_ frozen: ListingIndex) {
        let count = frozen.storage.bookable.count
        let buffer = ColumnBuffer(byteCount: max(1, count) * 8, alignment: 64)
        frozen.storage.bookable.withUnsafeBytes { buffer.pointer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        let copy = Column<UInt64>(owning: buffer, count: count)
        bookable = buffer.pointer.assumingMemoryBound(to: UInt64.self)
        index = frozen.replacingBookable(with: copy)
        dayCount = frozen.dayCount
        changed.aliases = frozen.regionAliases()
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
        dayCount = frozen.dayCount
        changed.aliases = frozen.regionAliases()
    }

    /// Adds days without a calendar row so that the calendars run until `until` (exclusive); see
    /// ``extendCalendar(toDayCount:)``.
    public func extendCalendar(until: Day) {
        extendCalendar(toDayCount: index.firstDay.distance(to: until))
    }

    /// The day after the frozen index's own calendar (before any day a rolling window added).
    public var frozenCalendarEnd: Day { index.firstDay.advanced(by: index.dayCount) }

    /// Adds days without a calendar row after the calendars' last, up to `dayCount` days from the first: a
    /// window that rolls on (docs/query-semantics.md, "A window that rolls"). Nothing is indexed again: the
    /// frozen rows and the overlay's have no calendar row past their own calendars, which is what the days
    /// added are, until a change gives a listing one (and indexes it into the overlay with the days). The
    /// changed listings' held days grow: O(changed listings × days added). Fewer days change nothing.
    public func extendCalendar(toDayCount dayCount: Int) {
        lock.writing {
            guard dayCount > self.dayCount else { return }
            self.dayCount = dayCount
            changed.extend(toDayCount: dayCount)
            rebuilt = nil
        }
    }

    deinit { visibleRows?.deallocate() }

    /// Runs a query on the listings and calendars as they are now (see ``ListingIndex/search(_:threads:)``).
    public func search(_ query: SearchQuery, threads: Int = 1) throws(QueryError) -> SearchResult {
        try search(query, threads: threads, minimumRowsPerPart: ListingIndex.rowsPerParallelPart,
                   minimumRowsForPriceSlots: PriceSlotTables.minimumRows)
    }

    /// ``search(_:threads:)`` in at most `threads` parts of at least `minimumRowsPerPart` rows each, counting price
    /// slots for the histogram from `minimumRowsForPriceSlots` rows (tests cut small data into parts and count its
    /// slots with these).
    package func search(_ query: SearchQuery, threads: Int, minimumRowsPerPart: Int, minimumRowsForPriceSlots: Int) throws(QueryError) -> SearchResult {
        try lock.reading { () throws(QueryError) in
            try index.search(query, threads: threads, minimumRowsPerPart: minimumRowsPerPart, minimumRowsForPriceSlots: minimumRowsForPriceSlots,
                             live: liveParts)
        }
    }

    /// Works out ahead what the `recommended` order reads of every frozen row (each row's quality part of
    /// the score, 4 bytes a row, about 20 ms a million rows; the upper tier of qualities; whether every price
    /// is in whole units), so that the first such search does not pay for it: a server calls it once its
    /// index is loaded.
    public func prepareRecommendedOrder() {
        lock.reading { index.prepareRecommendedOrder() }
    }

    /// Works out ahead the order of the prices without dates for `queries` (see
    /// ``ListingIndex/prepareUndatedOrder(for:)``), which answers searches without a region, dates or filters
    /// beyond guests and room type: a server calls it once its index is loaded.
    public func prepareUndatedOrder(for queries: [SearchQuery]) {
        lock.reading { index.prepareUndatedOrder(for: queries) }
    }

    /// The price calendar of `query` on the listings and calendars as they are now (see
    /// ``ListingIndex/priceCalendar(_:threads:)``); the days a rolling window added count as covered.
    public func priceCalendar(_ query: SearchQuery, threads: Int = 1) throws(QueryError) -> PriceCalendar {
        try lock.reading { () throws(QueryError) in
            try index.priceCalendar(query, threads: threads, coveredDays: dayCount, live: liveParts)
        }
    }

    /// Runs `body` with the index as it is now; changes wait until it returns. For quotes, listings and
    /// saving a compacted copy. The index must not be kept beyond `body`.
    ///
    /// While only availability changed, that is the frozen index with the live availability (no copy);
    /// once listings changed, were added or removed, the whole index built again with them (O(*rows* ×
    /// *days*) the first time after a change).
    public func withIndex<Result, Failure: Error>(_ body: (ListingIndex) throws(Failure) -> Result) throws(Failure) -> Result {
        try lock.reading { () throws(Failure) in
            guard visibleRows != nil || !changed.isEmpty || dayCount > index.dayCount else { return try body(index) }
            let whole = rebuildLock.writing {
                if let rebuilt { return rebuilt }
                let whole = rebuildWhole()
                rebuilt = whole
                return whole
            }
            return try body(whole)
        }
    }

    /// Runs `body` with the index as it is now from `day` on (the days before it left out, as a saved index
    /// whose window has rolled past them keeps them: `compact`); built whole unless `day` is the first.
    public func withIndex<Result, Failure: Error>(from day: Day, _ body: (ListingIndex) throws(Failure) -> Result) throws(Failure) -> Result {
        let offset = index.firstDay.distance(to: day)
        guard offset > 0 else { return try withIndex(body) }
        return try lock.reading { () throws(Failure) in
            try body(rebuildWhole(dropping: min(offset, dayCount)))
        }
    }

    /// Whether listings were changed, added or removed (not only availability), or days added: then
    /// ``withIndex(_:)`` builds the index again.
    public var hasListingChanges: Bool {
        lock.reading { visibleRows != nil || !changed.isEmpty || dayCount > index.dayCount }
    }

    /// Applies one change, whole or not at all.
    /// - Throws: ``ChangeError`` when it is rejected; then nothing changed.
    public func apply(_ change: CalendarChange) throws(ChangeError) {
        try lock.writing { () throws(ChangeError) in
            defer { finishGroup() }
            try applyLocked(change)
        }
    }

    /// Applies changes in order as one group (one lock, for throughput; the overlay is rebuilt once, at the
    /// end); each is accepted or rejected on its own, as if applied one by one.
    /// - Returns: for each change, nil when accepted, else why it was rejected.
    public func apply(_ changes: [CalendarChange]) -> [ChangeError?] {
        lock.writing {
            defer { finishGroup() }
            return changes.map { change in
                do throws(ChangeError) { try applyLocked(change); return nil } catch { return error }
            }
        }
    }

    /// Where a listing is now.
    private enum Place {
        case frozen(row: Int)
        case changed
        case nowhere
    }

    /// The first frozen row with listing id `id`, visible or not.
    func frozenRow(of id: Int64) -> Int? {
        if let replayRows { return replayRows.row(of: id) }
        let table = idTableLock.writing {
            if let idTable { return idTable }
            let table = ListingIDTable(ids: index.storage.ids)
            idTable = table
            return table
        }
        return table.row(of: id, in: index.storage.ids)
    }

    private func place(of id: Int64) -> Place {
        if !changed.isEmpty, changed[id] != nil { return .changed }
        guard let row = frozenRow(of: id) else { return .nowhere }
        if let visibleRows, visibleRows[row >> 6] >> UInt64(row & 63) & 1 == 0 { return .nowhere }
        return .frozen(row: row)
    }

    /// The day offsets of a change's nights, checked against the calendar.
    private func days(of change: CalendarChange) throws(ChangeError) -> Range<Int> {
        try LiveIndex.days(of: change, firstDay: index.firstDay, dayCount: dayCount)
    }

    /// The day offsets of a change's nights in the calendar span `firstDay ..< firstDay + dayCount`.
    static func days(of change: CalendarChange, firstDay: Day, dayCount: Int) throws(ChangeError) -> Range<Int> {
        guard let (from, to) = change.nights else { return 0..<0 }
        guard to > from else { throw .noNights(from: from, to: to) }
        let end = firstDay.advanced(by: dayCount)
        guard from >= firstDay, to <= end else {
            throw .outsideIndexCalendar(from: from, to: to, first: firstDay, end: end)
        }
        return firstDay.distance(to: from)..<firstDay.distance(to: to)
    }

    /// Checks a price or stay-rule change's values (any other change has none to check).
    static func checkValues(of change: CalendarChange) throws(ChangeError) {
        switch change {
        case let .price(_, _, _, price?) where price.minorUnits < 0 || price > IndexBuilder.largestPrice:
            throw .invalidField("price must be from 0 to \(IndexBuilder.largestPrice.decimalText)")
        case let .rules(_, _, _, minimum, maximum)
            where (minimum ?? 1) < 1 || (maximum ?? 1) < 1 || (minimum ?? 1) > (maximum ?? Int32.max):
            throw .invalidStayRule(minimum: minimum ?? 1, maximum: maximum ?? Int32.max)
        default:
            break
        }
    }

    private func applyLocked(_ change: CalendarChange) throws(ChangeError) {
        let place = place(of: change.id)
        if case .listing(let fields) = change {
            try setFields(fields, id: change.id, at: place)
            rebuilt = nil
            return
        }
        if case .nowhere = place { throw .unknownListing(change.id) }
        let days = try days(of: change)
        switch change {
        case let .book(id, checkIn, checkOut, guests):
            try book(id: id, checkIn: checkIn, checkOut: checkOut, guests: guests ?? 0, days: days, at: place)
        case .cancel, .availability(_, _, _, true):
            try open(change, days: days, at: place)
        case .availability(_, _, _, false):
            switch place {
            case .frozen(let row): setBookable(false, row: row, days: frozenDays(days))
            default: changed.setBookable(false, id: change.id, days: days)
            }
        case let .price(id, _, _, price):
            try LiveIndex.checkValues(of: change)
            modifyListing(id: id, at: place) { $0.setPrice(price, days: days) }
        case let .rules(id, _, _, minimum, maximum):
            try LiveIndex.checkValues(of: change)
            modifyListing(id: id, at: place) { $0.setRules(minimumNights: minimum, maximumNights: maximum, days: days) }
        case let .remove(id):
            switch place {
            case .frozen(let row): hide(row: row)
            default: changed.remove(id: id)
            }
        case let .days(set):
            let price: Money?
            switch place {
            case .frozen(let row): price = index.listing(atRow: row).price
            default: price = changed[set.id]!.record.price
            }
            if let problem = set.problem(listingPrice: price) { throw problem }
            modifyListing(id: set.id, at: place) { $0.setDays(set, first: days.lowerBound) }
        case .listing:
            break
        }
        rebuilt = nil
    }

    /// A `listing` change: a new listing into the overlay, or new fields for one, checked first.
    private func setFields(_ fields: ListingChange, id: Int64, at place: Place) throws(ChangeError) {
        switch place {
        case .nowhere:
            let record = try fields.newListing()
            if let problem = fields.problem(with: nil) { throw problem }
            changed.set(EditableListing(newListing: record, dayCount: dayCount), id: id)
        case .frozen(let row):
            if let problem = fields.problem(with: index.listing(atRow: row)) { throw problem }
            var listing = move(row: row)
            listing.setFields(fields)
            changed.set(listing, id: id)
        case .changed:
            if let problem = fields.problem(with: changed[id]!.record) { throw problem }
            changed.modify(id: id) { $0.setFields(fields) }
        }
    }

    /// A booking of `days`: refused with every reason unless the stay can be booked.
    private func book(id: Int64, checkIn: Day, checkOut: Day, guests: Int, days: Range<Int>, at place: Place) throws(ChangeError) {
        switch place {
        case .frozen(let row):
            // The common case in a few loads (every night's bit, the check-in's rule, the capacity); the
            // full quote only to say why a stay cannot be booked.
            let quick = days.upperBound <= index.dayCount && allBookable(row: row, days: days)
                && index.stayRule(row: row, day: checkIn).allows(nights: days.count)
                && guests <= Int(index.storage.accommodates[row])
            if !quick {
                let quote = index.quote(row: row, checkIn: checkIn, checkOut: checkOut, guests: guests)
                guard quote.isBookable else { throw .notBookable(id: id, reasons: quote.problems.map(\.description)) }
            }
            setBookable(false, row: row, days: days)
        default:
            let listing = changed.listing(id: id)!
            if !listing.canBook(days: days, guests: guests) {
                throw .notBookable(id: id, reasons: listing.problems(days: days, checkIn: checkIn, guests: guests).map(\.description))
            }
            changed.setBookable(false, id: id, days: days)
        }
    }

    /// A cancellation or an opening: only priced nights of the listing's calendar can open.
    private func open(_ change: CalendarChange, days: Range<Int>, at place: Place) throws(ChangeError) {
        switch place {
        case .frozen(let row):
            for night in index.nights(ofRow: row, from: change.nights!.from, to: change.nights!.to)
            where night.status != .available && night.status != .booked {
                throw .nightCannotOpen(day: night.day, status: night.status)
            }
            setBookable(true, row: row, days: days)
        default:
            let listing = changed.listing(id: change.id)!
            for day in days where listing.status(ofDay: day) != .available && listing.status(ofDay: day) != .booked {
                throw .nightCannotOpen(day: index.firstDay.advanced(by: day), status: listing.status(ofDay: day))
            }
            changed.setBookable(true, id: change.id, days: days)
        }
    }

    /// Changes listing `id` in the overlay, moving it there from its frozen row first.
    private func modifyListing(id: Int64, at place: Place, _ body: (inout EditableListing) -> Void) {
        if case .frozen(let row) = place {
            var listing = move(row: row)
            body(&listing)
            changed.set(listing, id: id)
        } else {
            changed.modify(id: id, body)
        }
    }

    /// Frozen row `row` as it is now, hidden from searches from now on (its listing moves to the overlay).
    private func move(row: Int) -> EditableListing {
        let listing = EditableListing(row: row, of: index, dayCount: dayCount)
        hide(row: row)
        return listing
    }

    /// What searches add to the frozen index (under a lock); nil while nothing but availability changed.
    var liveParts: LiveParts? {
        guard visibleRows != nil || changed.overlay != nil else { return nil }
        return LiveParts(visibleRows: visibleRows.map { UnsafePointer($0) }, overlay: changed.overlay, frozenNames: frozenNames)
    }

    /// Whether frozen row `row` is visible (not removed, not moved to the overlay).
    func isVisible(row: Int) -> Bool {
        guard let visibleRows else { return true }
        return visibleRows[row >> 6] >> UInt64(row & 63) & 1 == 1
    }

    /// How many of the frozen `rows` are hidden.
    func hiddenRows(in rows: Range<Int>) -> Int {
        guard let visibleRows else { return 0 }
        return rows.count - ListingIndex.visibleRowCount(in: rows, visibleRows: visibleRows)
    }

    private func hide(row: Int) {
        if visibleRows == nil {
            let words = max(1, index.wordsPerDay)
            visibleRows = UnsafeMutablePointer<UInt64>.allocate(capacity: words)
            visibleRows!.initialize(repeating: ~0, count: words)
            frozenNames = FrozenNameCounts(index)
        }
        guard visibleRows![row >> 6] >> UInt64(row & 63) & 1 == 1 else { return }
        visibleRows![row >> 6] &= ~(UInt64(1) << UInt64(row & 63))
        frozenNames!.hide(row: row)
    }

    /// After a group of changes: the overlay indexed again if its listings changed, the whole rebuilt
    /// index dropped.
    private func finishGroup() {
        changed.rebuild(firstDay: index.firstDay, dayCount: dayCount)
    }

    /// The day offsets of `days` within the frozen index's own calendar (its rows have no calendar row,
    /// hence nothing to set, on the days a rolling window added).
    private func frozenDays(_ days: Range<Int>) -> Range<Int> {
        days.clamped(to: 0..<index.dayCount)
    }

    /// Replays changes that were accepted before, in order, onto the index they were accepted on (a
    /// journal of this index): availability changes by their effects only, without the checks, which gave
    /// their verdicts when the changes were first applied; the other changes as they apply. Changes naming
    /// an unknown listing or nights outside the calendar are skipped (a sound journal has none).
    /// - Returns: how many were skipped.
    @discardableResult
    public func replay(_ changes: [CalendarChange]) -> Int {
        lock.writing {
            defer { finishGroup() }
            replayRows = SelectedIDRows(changes.map(\.id), in: index.storage.ids)
            defer { replayRows = nil }
            var skipped = 0
            let end = index.firstDay.advanced(by: dayCount)
            for change in changes {
                guard change.changesOnlyAvailability else {
                    do throws(ChangeError) { try applyLocked(change) } catch { skipped += 1 }
                    continue
                }
                let (from, to) = change.nights!
                guard to > from, from >= index.firstDay, to <= end else {
                    skipped += 1
                    continue
                }
                let days = index.firstDay.distance(to: from)..<index.firstDay.distance(to: to)
                let value: Bool
                switch change {
                case .cancel, .availability(_, _, _, true): value = true
                default: value = false
                }
                switch place(of: change.id) {
                case .frozen(let row): setBookable(value, row: row, days: frozenDays(days))
                case .changed: changed.setBookable(value, id: change.id, days: days)
                case .nowhere: skipped += 1
                }
            }
            rebuilt = nil
            return skipped
        }
    }

    /// The whole index built again: the visible frozen rows and the changed listings, with the live
    /// calendar span (less its first `dropped` days) and the frozen index's neighbourhoods.
    private func rebuildWhole(dropping dropped: Int = 0) -> ListingIndex {
        var frozenRows: [Int] = []
        frozenRows.reserveCapacity(index.count)
        for row in 0..<index.count {
            if let visibleRows, visibleRows[row >> 6] >> UInt64(row & 63) & 1 == 0 { continue }
            frozenRows.append(row)
        }
        let changedListings = changed.listingsByID
        var records = frozenRows.map { index.fullListing(atRow: $0) }
        records += changedListings.map(\.record)
        return IndexBuilder.build(
            listings: records, firstDay: index.firstDay.advanced(by: dropped), dayCount: dayCount - dropped,
            listingAt: { position in
                (position < frozenRows.count ? EditableListing(row: frozenRows[position], of: self.index, record: records[position], dayCount: self.dayCount)
                    : changedListings[position - frozenRows.count]).droppingDays(dropped)
            },
            neighbourhoods: index.neighbourhoodShapes(), aliases: index.regionAliases())
    }

    private func allBookable(row: Int, days: Range<Int>) -> Bool {
        let bit = UInt64(1) << UInt64(row & 63)
        var word = days.lowerBound * index.wordsPerDay + row >> 6
        for _ in days {
            if bookable[word] & bit == 0 { return false }
            word += index.wordsPerDay
        }
        return true
    }

    private func setBookable(_ value: Bool, row: Int, days: Range<Int>) {
        // The calendar's kept bounds of the row's stays counted only the stays that could be booked.
        if value, !days.isEmpty { index.spanPriceCache.availabilityOpened(row: row) }
        let bit = UInt64(1) << UInt64(row & 63)
        var word = days.lowerBound * index.wordsPerDay + row >> 6
        for _ in days {
            if value { bookable[word] |= bit } else { bookable[word] &= ~bit }
            word += index.wordsPerDay
        }
    }
}
