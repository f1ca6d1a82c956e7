extension ListingIndex {
    /// Where a listing's price without dates comes from.
    public enum PriceSource: Sendable, Equatable {
        /// The listing's own `price`.
        case listing
        /// Its first priced calendar night (the listing has no price of its own).
        case firstPricedNight
    }

    /// The listing at row `row`, decoded: the record it was built from, with coordinates to 10⁻⁷
    /// degree, accommodates capped at 255 and a rating without one as `nil`.
    /// - Precondition: `row` is in `0 ..< count`.
    public func listing(atRow row: Int) -> ListingRecord {
        let listingPrice = storage.listingPrices[row]
        let rating = storage.ratings[row]
        return ListingRecord(
            id: storage.ids[row], name: names[row], region: regionPath(ofRow: row),
            roomType: roomTypeNames[Int(storage.roomTypes[row])], accommodates: Int(storage.accommodates[row]),
            price: listingPrice == ListingIndex.noPrice ? nil : Money(minorUnits: nightPrices.amount(ofStored: listingPrice)),
            minimumNights: storage.listingMinimumNights[row], maximumNights: storage.listingMaximumNights[row],
            ratingHundredths: rating == ListingIndex.noRating ? nil : Int32(rating), reviewCount: storage.reviewCounts[row],
            latitude: latitude(ofRow: row), longitude: longitude(ofRow: row), fees: fees(ofRow: row))
    }

    /// The fees of the listing at row `row`, if it has any.
    public func fees(ofRow row: Int) -> ListingFees? {
        feeTable.fees(ofRow: row)
    }

    /// The names of the index's cities, in the order of the region tree.
    public var cityNames: [String] {
        regions.nodes.filter { $0.parent < 0 }.map(\.name)
    }

    /// Whether any listing of the index has fees.
    public var hasFees: Bool { !feeTable.isEmpty }

    /// Whether the prices a search of `query` gives are trip prices with fees: with dates, when a listing has
    /// fees or the query a service fee.
    public func pricesIncludeFees(_ query: SearchQuery) -> Bool {
        query.nights != nil && (hasFees || query.serviceFeeBasisPoints > 0)
    }

    /// The price a search without dates uses for row `row` on `today` (the first day when nil or before
    /// it), and where it comes from; `nil` when the listing has neither a price nor a priced night from
    /// that day (it never appears in results then).
    public func priceWithoutDates(ofRow row: Int, today: Day? = nil) -> (price: Money, source: PriceSource)? {
        let ownPrice = storage.listingPrices[row]
        let offset = today.map { firstDay.distance(to: $0) } ?? 0
        let base = ownPrice != ListingIndex.noPrice || offset <= 0 ? storage.basePrices[row] : firstPricedNight(ofRow: row, from: offset)
        guard base != ListingIndex.noPrice else { return nil }
        return (Money(minorUnits: nightPrices.amount(ofStored: base)), ownPrice == ListingIndex.noPrice ? .firstPricedNight : .listing)
    }

    /// The prices a search without dates uses as of day offset `dayOffset` (see ``UndatedPrices``): the
    /// stored ones up to the first day, else worked out once for that day and kept.
    package func undatedPrices(from dayOffset: Int) -> UndatedPrices {
        guard dayOffset > 0 else { return UndatedPrices(storedIn: self) }
        return undatedPriceCache.prices(from: dayOffset) { UndatedPrices(of: self, from: dayOffset) }
    }

    /// How the rows of `rows` (at least) are priced over the day offsets `start ..< end` for stays of
    /// `nights` nights in units of 10^`scale` minor units (see ``SpanPrices``; this index's
    /// ``calendarScale`` unless given), worked out once for that span — for every row, or for those rows when
    /// they are few — and kept.
    package func spanPrices(from start: Int, to end: Int, nights: Int, rows: [Range<Int>], scale: UInt8? = nil) -> SpanPrices {
        let scale = scale ?? calendarScale
        return spanPriceCache.prices(from: start, to: end, nights: nights, scale: scale, rows: rows, rowCount: count) { wanted in
            SpanPrices(of: self, from: start, to: end, nights: nights, rows: wanted, scale: scale)
        }
    }

    /// The stored price of row `row`'s first priced night on or after day offset `dayOffset` (a wide price as
    /// its reference, ``WidePrices``), or ``noPrice`` when none is.
    package func firstPricedNight(ofRow row: Int, from dayOffset: Int) -> Int32 {
        var day = max(0, dayOffset)
        while day < dayCount {
            let price = nightPrices.value(row: row, dayOffset: day)
            if price >= 0 { return price }
            day += 1
        }
        return ListingIndex.noPrice
    }

    /// The nights of row `row` from `start` up to (not including) `end`, each with its status and
    /// price: the nights of a stay, or the days of a month. A day the data covers without a calendar row is
    /// ``NightStatus/noCalendarRow`` — the data covering the calendars' days and, with `coveredUntil`, the
    /// days up to it (a window that rolled past them); any other day is ``NightStatus/outsideCalendar``; with
    /// `today`, a day before it is ``NightStatus/past`` (with its price, if it has one).
    /// - Complexity: O(*n* log *r*) for *n* nights and *r* price runs of the row.
    public func nights(ofRow row: Int, from start: Day, to end: Day, today: Day? = nil, coveredUntil: Day? = nil) -> [ListingNight] {
        var nights: [ListingNight] = []
        nights.reserveCapacity(max(0, start.distance(to: end)))
        let coveredEnd = max(firstDay.advanced(by: dayCount), coveredUntil ?? firstDay)
        var day = start
        while day < end {
            let price = nightPrice(row: row, day: day)
            let status: NightStatus
            switch price {
            case _ where today.map({ day < $0 }) ?? false: status = .past
            case Int64(ListingIndex.noCalendarRow): status = day >= firstDay && day < coveredEnd ? .noCalendarRow : .outsideCalendar
            case Int64(ListingIndex.unpricedNight): status = .unpriced
            default: status = isBookable(row: row, day: day) ? .available : .booked
            }
            nights.append(ListingNight(day: day, status: status, price: price >= 0 ? Money(minorUnits: price) : nil))
            day = day.advanced(by: 1)
        }
        return nights
    }

    /// How many of the `days` nights of row `row` from `start` on can book.
    public func bookableNights(ofRow row: Int, from start: Day, count days: Int) -> Int {
        (0..<max(0, days)).reduce(0) { $0 + (isBookable(row: row, day: start.advanced(by: $1)) ? 1 : 0) }
    }
}
