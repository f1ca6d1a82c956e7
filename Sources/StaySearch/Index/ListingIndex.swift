/// The frozen, read-only search index: one column per listing field, rows sorted by region path,
/// availability as one bit set per calendar day, and nightly prices and stay rules as runs.
///
/// Make one with ``IndexBuilder``. An index never changes, so one instance can serve any number of
/// threads at once.
public struct ListingIndex: Sendable {
    // MARK: Listings (one element per row)

    /// Listing ids.
    public let ids: Column<Int64>
    /// Listing titles.
    public let names: StringColumn
    /// The region node each listing sits in directly (its deepest node).
    public let regionNodes: Column<Int32>
    /// Room type codes: positions in ``roomTypeNames``.
    public let roomTypes: Column<UInt8>
    /// Guests taken, capped at 255.
    public let accommodates: Column<UInt8>
    /// The price without dates in minor units (listing price, else its first priced night), or -1.
    public let basePrices: Column<Int32>
    /// The listing's own `price` in minor units, or -1.
    public let listingPrices: Column<Int32>
    /// The listing's own `minimum_nights`.
    public let listingMinimumNights: Column<Int32>
    /// The listing's own `maximum_nights`.
    public let listingMaximumNights: Column<Int32>
    /// `review_scores_rating` in hundredths, or -1.
    public let ratings: Column<Int16>
    /// `number_of_reviews`.
    public let reviewCounts: Column<Int32>
    /// Latitudes in units of 10⁻⁷ degree (about a centimetre).
    public let latitudes: Column<Int32>
    /// Longitudes in units of 10⁻⁷ degree.
    public let longitudes: Column<Int32>

    // MARK: Calendar

    /// The first day of the common calendar; day offsets count from it.
    public let firstDay: Day
    /// How many days the common calendar spans.
    public let dayCount: Int
    /// Words in each day's bit set: ⌈rows / 64⌉.
    public let wordsPerDay: Int
    /// `dayCount × wordsPerDay` words: bit *r* of day *d* is set when row *r* can be booked for the
    /// night *d*: in its calendar, available and priced.
    public let bookable: Column<UInt64>
    /// `wordsPerDay` words: bit *r* is set when row *r* has a price without dates.
    public let pricedWithoutDates: Column<UInt64>
    /// Nightly price runs, see ``DayRuns``. Values: price in minor units, -1 unpriced, -2 no row.
    public let nightPrices: DayRuns<Int32>
    /// The stay rule (`minimum_nights`, `maximum_nights`) for a stay checking in on each day, as
    /// runs of packed ``StayRule``s.
    public let stayRules: DayRuns<UInt32>

    // MARK: Dictionaries

    /// Room type names, by code.
    public let roomTypeNames: [String]
    /// Cities, neighbourhood groups and neighbourhoods with their row ranges.
    public let regions: RegionTree

    /// Assembles an index from its parts. ``IndexBuilder`` and index file loaders call this; the
    /// caller guarantees the parts are consistent (see ``checkConsistency()``).
    public init(
        ids: Column<Int64>, names: StringColumn, regionNodes: Column<Int32>, roomTypes: Column<UInt8>,
        accommodates: Column<UInt8>, basePrices: Column<Int32>, listingPrices: Column<Int32>,
        listingMinimumNights: Column<Int32>, listingMaximumNights: Column<Int32>, ratings: Column<Int16>,
        reviewCounts: Column<Int32>, latitudes: Column<Int32>, longitudes: Column<Int32>,
        firstDay: Day, dayCount: Int, bookable: Column<UInt64>, pricedWithoutDates: Column<UInt64>,
        nightPrices: DayRuns<Int32>, stayRules: DayRuns<UInt32>, roomTypeNames: [String], regions: RegionTree
    ) {
        self.ids = ids
        self.names = names
        self.regionNodes = regionNodes
        self.roomTypes = roomTypes
        self.accommodates = accommodates
        self.basePrices = basePrices
        self.listingPrices = listingPrices
        self.listingMinimumNights = listingMinimumNights
        self.listingMaximumNights = listingMaximumNights
        self.ratings = ratings
        self.reviewCounts = reviewCounts
        self.latitudes = latitudes
        self.longitudes = longitudes
        self.firstDay = firstDay
        self.dayCount = dayCount
        self.wordsPerDay = (ids.count + 63) / 64
        self.bookable = bookable
        self.pricedWithoutDates = pricedWithoutDates
        self.nightPrices = nightPrices
        self.stayRules = stayRules
        self.roomTypeNames = roomTypeNames
        self.regions = regions
    }

    /// The number of listings.
    public var count: Int { ids.count }

    /// The row of a listing id, if the index has it.
    /// - Complexity: O(*n*).
    public func row(ofListingID id: Int64) -> Int? {
        ids.withUnsafeBufferPointer { $0.firstIndex(of: id) }
    }

    /// Whether row `row` can be booked for the night `day`.
    public func isBookable(row: Int, day: Day) -> Bool {
        let offset = firstDay.distance(to: day)
        guard offset >= 0, offset < dayCount else { return false }
        return bookable[offset * wordsPerDay + row >> 6] >> UInt64(row & 63) & 1 == 1
    }

    /// The price of row `row` on the night `day` in minor units; -1 when the calendar row has no
    /// price (nor the listing), -2 when the calendar has no row for that day.
    public func nightPrice(row: Int, day: Day) -> Int64 {
        let offset = firstDay.distance(to: day)
        guard offset >= 0, offset < dayCount else { return -2 }
        return Int64(nightPrices.value(row: row, dayOffset: offset))
    }

    /// The stay rule of row `row` for a stay checking in on `day` (the listing's own when the day is
    /// outside the calendar).
    public func stayRule(row: Int, day: Day) -> StayRule {
        let offset = firstDay.distance(to: day)
        guard offset >= 0, offset < dayCount else {
            return StayRule(minimumNights: listingMinimumNights[row], maximumNights: listingMaximumNights[row])
        }
        return StayRule(packed: stayRules.value(row: row, dayOffset: offset))
    }

    /// The latitude of row `row` in degrees.
    public func latitude(ofRow row: Int) -> Double { Double(latitudes[row]) / 1e7 }

    /// The longitude of row `row` in degrees.
    public func longitude(ofRow row: Int) -> Double { Double(longitudes[row]) / 1e7 }

    /// The sum of row `row`'s nightly prices over `stay` (day offsets), valid when every night in
    /// it is priced.
    /// - Complexity: O(log *r* + *k*) for *r* price runs of the row, *k* of them in the stay.
    @inlinable
    public func stayTotal(row: Int, from start: Int, to end: Int) -> Int64 {
        nightPrices.sum(row: row, from: start, to: end)
    }

    /// The names of the region path of row `row`: city, group (or empty), neighbourhood (or empty).
    public func regionPath(ofRow row: Int) -> RegionPath {
        var path = RegionPath(city: "", neighbourhood: "")
        var node = Int(regionNodes[row])
        while node >= 0 {
            let current = regions.nodes[node]
            switch current.level {
            case .city: path.city = current.name
            case .neighbourhoodGroup: path.neighbourhoodGroup = current.name
            case .neighbourhood: path.neighbourhood = current.name
            }
            node = Int(current.parent)
        }
        return path
    }
}
