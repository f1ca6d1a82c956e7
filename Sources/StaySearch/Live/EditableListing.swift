/// A listing of a live index whose fields, prices or stay rules changed since the index was built: held
/// whole, day by day over the index's calendar, so that any change is a few stores, and indexed again
/// (with the other changed listings) into the live index's overlay.
package struct EditableListing: Sendable, Equatable {
    /// The listing's fields, amenities included.
    package var record: ListingRecord
    /// Each day's price: minor units (up to ``Money/largest``), ``ListingIndex/unpricedNight`` or
    /// ``ListingIndex/noCalendarRow``. A night is unpriced only while the listing has no price of its own.
    package var prices: [Int64]
    /// Whether each night can be booked (never when it is unpriced or has no calendar row).
    package var bookable: [Bool]
    /// The packed ``StayRule`` for a stay checking in on each day; the listing's own on days without a row.
    package var rules: [UInt32]

    /// Row `row` of `index`, as it is now (`record`: its ``ListingIndex/fullListing(atRow:)`` when known),
    /// over `dayCount` days (at least the index's): the days past the index's calendar, which the window
    /// rolled in, without a calendar row.
    package init(row: Int, of index: ListingIndex, record: ListingRecord? = nil, dayCount: Int? = nil) {
        self.record = record ?? index.fullListing(atRow: row)
        let days = index.dayCount
        prices = index.nightPrices.amounts(row: row, dayCount: days)
        let wordsPerDay = index.wordsPerDay, bit = UInt64(row & 63)
        let bookableWords = index.storage.bookable.base
        bookable = (0..<days).map { bookableWords[$0 * wordsPerDay + row >> 6] >> bit & 1 == 1 }
        rules = index.stayRules.values(row: row, dayCount: days)
        if let dayCount, dayCount > days { extend(toDayCount: dayCount) }
    }

    /// The listing without its first `count` days (a calendar that starts later).
    package func droppingDays(_ count: Int) -> EditableListing {
        guard count > 0 else { return self }
        return EditableListing(record: record, prices: Array(prices.dropFirst(count)), bookable: Array(bookable.dropFirst(count)),
                               rules: Array(rules.dropFirst(count)))
    }

    /// Adds days without a calendar row up to `dayCount` days (a window that rolled on): not bookable, the
    /// listing's own stay rule (docs/query-semantics.md, "A window that rolls").
    package mutating func extend(toDayCount dayCount: Int) {
        let added = dayCount - prices.count
        guard added > 0 else { return }
        prices += repeatElement(Int64(ListingIndex.noCalendarRow), count: added)
        bookable += repeatElement(false, count: added)
        rules += repeatElement(EditableListing.listingRule(of: record), count: added)
    }

    /// A listing with these days (each array one value per day of the index's calendar).
    package init(record: ListingRecord, prices: [Int64], bookable: [Bool], rules: [UInt32]) {
        self.record = record
        self.prices = prices
        self.bookable = bookable
        self.rules = rules
    }

    /// A new listing, without a calendar yet.
    init(newListing record: ListingRecord, dayCount: Int) {
        self.record = record
        prices = Array(repeating: Int64(ListingIndex.noCalendarRow), count: dayCount)
        bookable = Array(repeating: false, count: dayCount)
        rules = Array(repeating: EditableListing.listingRule(of: record), count: dayCount)
    }

    /// The listing's own stay rule, packed.
    static func listingRule(of record: ListingRecord) -> UInt32 {
        StayRule(minimumNights: record.minimumNights, maximumNights: record.maximumNights).packed
    }

    /// The status of the night on day offset `day`.
    func status(ofDay day: Int) -> NightStatus {
        switch prices[day] {
        case Int64(ListingIndex.noCalendarRow): return .noCalendarRow
        case Int64(ListingIndex.unpricedNight): return .unpriced
        default: return bookable[day] ? .available : .booked
        }
    }

    /// Whether a stay over the day offsets `days` can be booked for `guests`: every night bookable, the
    /// check-in day's rule allowing its length, the guests taken (as the index caps them).
    func canBook(days: Range<Int>, guests: Int) -> Bool {
        days.allSatisfy { bookable[$0] } && StayRule(packed: rules[days.lowerBound]).allows(nights: days.count)
            && guests <= min(record.accommodates, 255)
    }

    /// Why a stay over the day offsets `days` (checking in on `checkIn`) cannot be booked for `guests`, as
    /// ``ListingIndex/quote(row:checkIn:checkOut:guests:)`` says it.
    func problems(days: Range<Int>, checkIn: Day, guests: Int) -> [StayQuote.Problem] {
        var problems: [StayQuote.Problem] = []
        for day in days where status(ofDay: day) != .available {
            problems.append(.nightNotAvailable(checkIn.advanced(by: day - days.lowerBound), status(ofDay: day)))
        }
        let rule = StayRule(packed: rules[days.lowerBound])
        if days.count < rule.minimumNights { problems.append(.tooFewNights(minimum: rule.minimumNights, nights: days.count)) }
        if days.count > rule.maximumNights { problems.append(.tooManyNights(maximum: rule.maximumNights, nights: days.count)) }
        let capacity = min(record.accommodates, 255)
        if guests > capacity { problems.append(.tooManyGuests(guests: guests, capacity: capacity)) }
        return problems
    }

    /// Sets the nights' price (`nil`: the listing's, or none); a night that had none stays closed, a day
    /// without a calendar row gets one, closed, with the listing's stay rules.
    mutating func setPrice(_ price: Money?, days: Range<Int>) {
        let value = (price ?? record.price).map { max(0, $0.minorUnits) } ?? Int64(ListingIndex.unpricedNight)
        let listingRule = EditableListing.listingRule(of: record)
        for day in days {
            if prices[day] == ListingIndex.noCalendarRow { rules[day] = listingRule }
            if prices[day] < 0 || value < 0 { bookable[day] = false }
            prices[day] = value
        }
    }

    /// Sets the days of `days` (from day offset `first`) whole; a day marked without a calendar row is left as it is.
    mutating func setDays(_ days: ListingDays, first: Int) {
        for (offset, price) in days.prices.enumerated() where price != ListingIndex.noCalendarRow {
            prices[first + offset] = price
            bookable[first + offset] = days.open[offset]
            rules[first + offset] = days.rules[offset]
        }
    }

    /// Sets the stay rules of the days with a calendar row; `nil` keeps that bound.
    mutating func setRules(minimumNights: Int32?, maximumNights: Int32?, days: Range<Int>) {
        for day in days where prices[day] != ListingIndex.noCalendarRow {
            let current = StayRule(packed: rules[day])
            rules[day] = StayRule(minimumNights: minimumNights ?? Int32(current.minimumNights),
                                  maximumNights: maximumNights ?? Int32(current.maximumNights)).packed
        }
    }

    /// Sets the listing's fields: a new price prices the nights that had none (closed); new stay rules
    /// become those of the days without a calendar row.
    mutating func setFields(_ change: ListingChange) {
        let old = record
        record = change.applied(to: record)
        if old.price == nil, let price = record.price {
            let value = max(0, price.minorUnits)
            for day in prices.indices where prices[day] == ListingIndex.unpricedNight {
                prices[day] = value
                bookable[day] = false
            }
        }
        let listingRule = EditableListing.listingRule(of: record)
        if listingRule != EditableListing.listingRule(of: old) {
            for day in prices.indices where prices[day] == ListingIndex.noCalendarRow { rules[day] = listingRule }
        }
    }
}
