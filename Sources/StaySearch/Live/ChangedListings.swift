/// The listings of a live index that changed beyond their availability (fields, prices, stay rules) or
/// were added: each held whole (``EditableListing``), and all of them indexed into one small overlay
/// index over the frozen index's calendar span, rebuilt after each group of changes that touches them.
struct ChangedListings {
    /// The listings by id.
    private(set) var listings: [Int64: EditableListing] = [:]
    /// The overlay: these listings indexed; nil when there are none.
    private(set) var overlay: ListingIndex?
    /// Each listing's row in ``overlay``.
    private var overlayRows: [Int64: Int] = [:]
    /// Whether ``overlay`` lags behind ``listings``.
    private(set) var isStale = false
    /// The frozen index's region aliases, which the overlay keeps too (for the regions it has).
    var aliases: [RegionAlias] = []

    var isEmpty: Bool { listings.isEmpty }

    /// The days a rolling window added, up to which a listing is extended when it is next read whole or
    /// changed (a roll itself touches no listing).
    private var dayCount = 0

    /// The listings, by id ascending, with every day.
    var listingsByID: [EditableListing] { listings.values.map(extended).sorted { $0.record.id < $1.record.id } }

    /// Listing `id` as held (its days may end before a roll's: ``listing(id:)`` has them all).
    subscript(id: Int64) -> EditableListing? { listings[id] }

    /// Listing `id` with every day.
    func listing(id: Int64) -> EditableListing? { listings[id].map(extended) }

    private func extended(_ listing: EditableListing) -> EditableListing {
        guard listing.prices.count < dayCount else { return listing }
        var listing = listing
        listing.extend(toDayCount: dayCount)
        return listing
    }

    /// Listing `id`'s row in the overlay, when the overlay is current and has it.
    func row(of id: Int64) -> Int? { isStale ? nil : overlayRows[id] }

    /// Sets listing `id` (added, or changed in any way but availability); the overlay is stale until rebuilt.
    mutating func set(_ listing: EditableListing, id: Int64) {
        listings[id] = listing
        isStale = true
    }

    /// Changes listing `id` in place; the overlay is stale until rebuilt.
    mutating func modify(id: Int64, _ body: (inout EditableListing) -> Void) {
        listings[id]!.extend(toDayCount: dayCount)
        body(&listings[id]!)
        isStale = true
    }

    /// Drops listing `id`.
    mutating func remove(id: Int64) {
        listings[id] = nil
        isStale = true
    }

    /// Adds days without a calendar row to every listing up to `dayCount` days (a window that rolled on).
    /// The overlay stays current: its rows have no calendar row past its own calendar either, which is what
    /// the days added are (a roll indexes nothing again); each listing gains the days when next read whole
    /// or changed.
    mutating func extend(toDayCount dayCount: Int) {
        self.dayCount = max(self.dayCount, dayCount)
    }

    /// Sets the availability of listing `id`'s nights on the day offsets `days`: in the listing, and in the
    /// overlay's bit sets when the overlay is current (otherwise its rebuild takes them).
    mutating func setBookable(_ value: Bool, id: Int64, days: Range<Int>) {
        listings[id]!.extend(toDayCount: dayCount)
        for day in days { listings[id]!.bookable[day] = value }
        guard !isStale, let overlay, let row = overlayRows[id] else { return }
        // The overlay's columns are memory this live index built and alone holds.
        let bookable = UnsafeMutablePointer(mutating: overlay.storage.bookable.base)
        if value, !days.isEmpty { overlay.spanPriceCache.availabilityOpened(row: row) }
        let bit = UInt64(1) << UInt64(row & 63)
        // (Days past the overlay's calendar, which a roll added, have no calendar row there: never bookable.)
        for day in days where day < overlay.dayCount {
            let word = day * overlay.wordsPerDay + row >> 6
            if value { bookable[word] |= bit } else { bookable[word] &= ~bit }
        }
    }

    /// Indexes the listings again when they changed since the last build.
    /// - Complexity: O(*n* × *days*) for *n* changed listings.
    mutating func rebuild(firstDay: Day, dayCount: Int) {
        guard isStale else { return }
        isStale = false
        guard !listings.isEmpty else {
            overlay = nil
            overlayRows = [:]
            return
        }
        let entries = listingsByID
        let records = entries.map(\.record)
        let index = IndexBuilder.build(listings: records, firstDay: firstDay, dayCount: dayCount, listingAt: { entries[$0] },
                                       aliases: aliases)
        overlay = index
        overlayRows = [:]
        for row in 0..<index.count { overlayRows[index.listingID(ofRow: row)] = row }
    }
}
