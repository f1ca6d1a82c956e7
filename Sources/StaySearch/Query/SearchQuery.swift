/// A search: which listings, in what order, which page, and the shape of the price histogram.
///
/// A plain value; ``ListingIndex/search(_:)`` executes it. ``validate()`` checks everything that
/// does not need an index; region and room type names are checked against the index.
public struct SearchQuery: Sendable, Equatable {
    /// A city, neighbourhood group or neighbourhood name, or `A/B` paths; `nil` for everywhere.
    public var region: String?
    /// The check-in date; give both dates or neither.
    public var checkIn: Day?
    /// The check-out date (the morning after the last night).
    public var checkOut: Day?
    /// With `checkIn` and `checkOut`: how many days (0–7) the stay may start earlier or later, same
    /// number of nights. Each listing's stay is then its cheapest bookable one (ties: the earliest).
    public var flexibleDays: Int?
    /// A window of check-in days, `checkInFrom` to `checkInTo` inclusive (at most 62 days), for stays of
    /// `windowNights` nights: the flexible form without `checkIn`/`checkOut`.
    public var checkInFrom: Day?
    public var checkInTo: Day?
    public var windowNights: Int?
    /// Today, the first day a stay may start, from the service's clock (not a key a person gives: the
    /// command line's `--today` and the data's own date set it). An exact check-in before it is refused;
    /// check-ins of a window or of flexible dates that fall before it are left out. Nil: no day is past.
    public var today: Day?
    /// The weekdays a window's check-in may fall on; empty for any.
    public var checkInWeekdays: Set<Weekday> = []
    /// Adults, at least 1.
    public var adults: Int = 1
    /// Children, 0 or more; they count towards capacity.
    public var children: Int = 0
    /// Infants, 0 to 5; they do not count towards capacity.
    public var infants: Int = 0
    /// The lowest nightly price, inclusive.
    public var minimumPrice: Money?
    /// The highest nightly price, inclusive.
    public var maximumPrice: Money?
    /// An exact `room_type` value.
    public var roomType: String?
    /// The order of results.
    public var sort: SortOrder = .price
    /// How many results to return (0 to 1,000).
    public var limit: Int = 20
    /// How many results to skip first (0 to 1,000,000).
    public var offset: Int = 0
    /// How many histogram bins (1 to 1,000).
    public var bins: Int = 30
    /// The histogram's low end; by default the lowest price, rounded down to a whole unit.
    public var histogramMinimum: Money?
    /// The histogram's high end; by default the 95th percentile price, rounded up to a whole unit.
    public var histogramMaximum: Money?
    /// At least this many bedrooms, beds, or bathrooms (in halves: 3 is 1.5); a listing whose count is
    /// unknown never matches a set filter.
    public var bedrooms: Int?
    public var beds: Int?
    public var bathroomHalves: Int?
    /// Property types, any of them (compared folded); empty for any.
    public var propertyTypes: [String] = []
    /// Amenities the listing must all have (each compared folded and whole); empty for any.
    public var amenities: [String] = []
    /// Only instant-bookable listings.
    public var instantBookableOnly = false
    /// Only listings of superhosts.
    public var superhostsOnly = false
    /// Only listings inside this map area.
    public var boundingBox: MapBox?
    /// The point distances are measured from (results then carry their distance).
    public var near: GeoPoint?
    /// Only listings at most this many kilometres from `near`.
    public var radiusKilometres: Double?
    /// The facets to count, in the order they are shown.
    public var facets: [Facet] = []
    /// Values shown per facet (1 to 100).
    public var facetLimit: Int = 10
    /// The platform's service fee in basis points (14.2 % is 1,420), added to every dated stay's trip
    /// price (``TripPrice``): a setting of the service, not of the guest.
    public var serviceFeeBasisPoints: Int = 0

    /// The allowed service fees and taxes, in basis points: 0 to 100 %.
    public static let feeRateRange = 0...10_000

    /// The allowed values of `flexibleDays`.
    public static let flexibleDayRange = 0...7
    /// The most check-in days a window may have.
    public static let largestWindow = 62
    /// The allowed stay lengths of a window.
    public static let windowNightRange = 1...365

    /// The allowed values per facet.
    public static let facetLimitRange = 1...100

    /// The largest page that can be asked for.
    public static let limitRange = 0...1_000
    /// The largest offset that can be asked for.
    public static let offsetRange = 0...1_000_000
    /// The allowed number of histogram bins.
    public static let binRange = 1...1_000
    /// The allowed number of infants.
    public static let infantRange = 0...5

    /// Creates a query; every field has a default.
    public init(
        region: String? = nil, checkIn: Day? = nil, checkOut: Day? = nil, adults: Int = 1, children: Int = 0,
        infants: Int = 0, minimumPrice: Money? = nil, maximumPrice: Money? = nil, roomType: String? = nil,
        sort: SortOrder = .price, limit: Int = 20, offset: Int = 0, bins: Int = 30,
        histogramMinimum: Money? = nil, histogramMaximum: Money? = nil
    ) {
        self.region = region
        self.checkIn = checkIn
        self.checkOut = checkOut
        self.adults = adults
        self.children = children
        self.infants = infants
        self.minimumPrice = minimumPrice
        self.maximumPrice = maximumPrice
        self.roomType = roomType
        self.sort = sort
        self.limit = limit
        self.offset = offset
        self.bins = bins
        self.histogramMinimum = histogramMinimum
        self.histogramMaximum = histogramMaximum
    }

    /// The number of nights, when both dates (or a window) are given.
    public var nights: Int? {
        if checkInFrom != nil || checkInTo != nil { return windowNights }
        guard let checkIn, let checkOut else { return nil }
        return checkIn.distance(to: checkOut)
    }

    /// Whether each listing's stay is chosen among several check-ins (`flexibleDays` or a window), so
    /// that results carry their own dates.
    public var isFlexible: Bool {
        flexibleDays != nil || checkInFrom != nil || checkInTo != nil || windowNights != nil
    }

    /// The check-in days a stay may start on, earliest first: one for exact dates, none without dates.
    public var candidateCheckIns: [Day] {
        let earliest = today ?? Day(daysSinceEpoch: Int32.min)
        if let checkInFrom, let checkInTo {
            return (checkInFrom...checkInTo).filter { $0 >= earliest && (checkInWeekdays.isEmpty || checkInWeekdays.contains(Weekday(of: $0))) }
        }
        guard let checkIn, checkOut != nil else { return [] }
        let shift = flexibleDays ?? 0
        return (checkIn.advanced(by: -shift)...checkIn.advanced(by: shift)).filter { $0 >= earliest }
    }

    /// Whether the answer depends on nothing but the listings' prices without dates, the guests and the room
    /// type: no region, no dates, no other filter, no facets, in price order (either way) or `recommended`
    /// (whose nearness part then does not apply). An index answers such a search from the order of those
    /// prices, without a scan.
    public var dependsOnlyOnPricesWithoutDates: Bool {
        region == nil && checkIn == nil && checkOut == nil && !isFlexible && checkInWeekdays.isEmpty
            && (sort == .price || sort == .priceDescending || sort == .recommended)
            && bedrooms == nil && beds == nil && bathroomHalves == nil
            && propertyTypes.isEmpty && amenities.isEmpty && !instantBookableOnly && !superhostsOnly
            && boundingBox == nil && near == nil && radiusKilometres == nil && facets.isEmpty
    }

    /// Adults and children: the guests that count towards a listing's capacity.
    public var guests: Int { adults + children }

    /// Checks every rule that does not need an index.
    /// - Throws: the first ``QueryError`` found.
    public func validate() throws(QueryError) {
        if let region, region.allSatisfy({ $0.isWhitespace || $0 == "/" }) { throw .emptyRegion }
        switch (checkIn, checkOut) {
        case (nil, nil): break
        case (.some, nil): throw .checkOutMissing
        case (nil, .some): throw .checkInMissing
        case (let checkIn?, let checkOut?):
            guard checkOut > checkIn else { throw .checkOutNotAfterCheckIn(checkIn: checkIn, checkOut: checkOut) }
        }
        try validateFlexibleDates()
        try validateDateBounds()
        guard adults >= 1 else { throw .tooFewAdults(adults) }
        guard children >= 0 else { throw .negative(field: "children", value: children) }
        guard adults <= 10_000, children <= 10_000 else { throw .tooManyGuests(adults + children) }
        guard SearchQuery.infantRange.contains(infants) else { throw .infantsOutOfRange(infants) }
        if let minimumPrice, let maximumPrice, minimumPrice > maximumPrice {
            throw .minimumPriceAboveMaximum(minimumPrice, maximumPrice)
        }
        guard SearchQuery.limitRange.contains(limit) else { throw .outOfRange(field: "limit", value: limit, range: SearchQuery.limitRange) }
        guard SearchQuery.offsetRange.contains(offset) else { throw .outOfRange(field: "offset", value: offset, range: SearchQuery.offsetRange) }
        guard SearchQuery.feeRateRange.contains(serviceFeeBasisPoints) else {
            throw .outOfRange(field: "service fee (basis points)", value: serviceFeeBasisPoints, range: SearchQuery.feeRateRange)
        }
        guard SearchQuery.binRange.contains(bins) else { throw .outOfRange(field: "bins", value: bins, range: SearchQuery.binRange) }
        if let histogramMaximum, histogramMaximum <= (histogramMinimum ?? Money(minorUnits: 0)) {
            throw .histogramBoundsInverted(histogramMinimum ?? Money(minorUnits: 0), histogramMaximum)
        }
        for (field, value) in [("bedrooms", bedrooms), ("beds", beds)] {
            if let value, value < 0 { throw .negative(field: field, value: value) }
        }
        if let bathroomHalves, bathroomHalves < 0 { throw .invalidBathrooms(Double(bathroomHalves) / 2) }
        if let box = boundingBox {
            for (field, value, limit) in [("bbox south", box.south, 90.0), ("bbox west", box.west, 180.0),
                                          ("bbox north", box.north, 90.0), ("bbox east", box.east, 180.0)]
            where !value.isFinite || abs(value) > limit {
                throw .invalidCoordinate(field: field, value: value)
            }
            guard box.south <= box.north else { throw .boxSouthAboveNorth(south: box.south, north: box.north) }
        }
        if let near {
            if !near.latitude.isFinite || abs(near.latitude) > 90 { throw .invalidCoordinate(field: "near latitude", value: near.latitude) }
            if !near.longitude.isFinite || abs(near.longitude) > 180 { throw .invalidCoordinate(field: "near longitude", value: near.longitude) }
        }
        if let radiusKilometres {
            guard near != nil else { throw .radiusWithoutCentre }
            guard radiusKilometres.isFinite, radiusKilometres > 0, radiusKilometres <= 20_038 else { throw .invalidRadius(radiusKilometres) }
        }
        if sort == .distance, near == nil { throw .distanceSortWithoutCentre }
        guard SearchQuery.facetLimitRange.contains(facetLimit) else {
            throw .outOfRange(field: "facet_limit", value: facetLimit, range: SearchQuery.facetLimitRange)
        }
    }

    /// Every stay the query may find lies from ``Day/earliest`` to ``Day/latest`` (its check-out included).
    private func validateDateBounds() throws(QueryError) {
        let first: Day, last: Day, nights: Int
        if let checkInFrom, let checkInTo, let windowNights {
            (first, last, nights) = (checkInFrom, checkInTo, windowNights)
        } else if let checkIn, let checkOut {
            let shift = flexibleDays ?? 0
            (first, last, nights) = (checkIn.advanced(by: -shift), checkIn.advanced(by: shift), checkIn.distance(to: checkOut))
        } else {
            return
        }
        guard first >= Day.earliest, last.distance(to: Day.latest) >= nights else { throw .beyondDateBounds(nights: nights) }
    }

    /// The rules of `flexibleDays` and the check-in window.
    private func validateFlexibleDates() throws(QueryError) {
        if let flexibleDays {
            guard checkIn != nil, checkOut != nil else { throw .flexibleDaysWithoutDates }
            guard SearchQuery.flexibleDayRange.contains(flexibleDays) else {
                throw .outOfRange(field: "flexible days", value: flexibleDays, range: SearchQuery.flexibleDayRange)
            }
        }
        let windowGiven = checkInFrom != nil || checkInTo != nil || windowNights != nil
        guard windowGiven else {
            if !checkInWeekdays.isEmpty { throw .weekdaysWithoutWindow }
            if let today, let checkIn, checkIn < today { throw .checkInBeforeToday(checkIn: checkIn, today: today) }
            return
        }
        if checkIn != nil || checkOut != nil || flexibleDays != nil { throw .windowWithExactDates }
        guard let checkInFrom else { throw .windowIncomplete(missing: "checkin from") }
        guard let checkInTo else { throw .windowIncomplete(missing: "checkin to") }
        guard let windowNights else { throw .windowIncomplete(missing: "nights") }
        guard checkInFrom <= checkInTo else { throw .windowInverted(from: checkInFrom, to: checkInTo) }
        let days = checkInFrom.distance(to: checkInTo) + 1
        guard days <= SearchQuery.largestWindow else { throw .windowTooLong(days: days) }
        guard SearchQuery.windowNightRange.contains(windowNights) else {
            throw .outOfRange(field: "nights", value: windowNights, range: SearchQuery.windowNightRange)
        }
        if let today, checkInTo < today { throw .checkInBeforeToday(checkIn: checkInTo, today: today) }
        if candidateCheckIns.isEmpty {
            throw .noCheckInOnWeekdays(from: checkInFrom, to: checkInTo, weekdays: checkInWeekdays.sorted().map(\.shortName))
        }
    }
}
