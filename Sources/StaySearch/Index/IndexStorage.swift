/// Every flat column of a ``ListingIndex``: what the index keeps in memory and what an index file
/// holds, section by section. The structures the search reads (name strings, day runs, the region
/// tree) are views over these columns.
///
/// Storage belongs to the engine: other modules of the package walk ``table`` to save and load it and
/// never read a column by name. To add a column, add a property here and one entry to ``table``, and
/// fill it in ``RowAssembler``.
package struct IndexStorage: Sendable {
    // MARK: Listings, one element per row

    /// Listing ids.
    package var ids = Column<Int64>.empty
    /// Listing titles: UTF-8 bytes, and `rows + 1` offsets into them.
    package var nameBytes = Column<UInt8>.empty
    package var nameOffsets = Column<UInt32>.empty
    /// The region node each listing sits in directly (its deepest node).
    package var regionNodes = Column<Int32>.empty
    /// Room type codes: positions in the room type table.
    package var roomTypes = Column<UInt8>.empty
    /// Guests taken, capped at 255.
    package var accommodates = Column<UInt8>.empty
    /// The price without dates in minor units (listing price, else its first priced night), or
    /// ``ListingIndex/noPrice``.
    package var basePrices = Column<Int32>.empty
    /// The listing's own `price` in minor units, or ``ListingIndex/noPrice``.
    package var listingPrices = Column<Int32>.empty
    /// The listing's own `minimum_nights` and `maximum_nights`.
    package var listingMinimumNights = Column<Int32>.empty
    package var listingMaximumNights = Column<Int32>.empty
    /// `review_scores_rating` in hundredths, or ``ListingIndex/noRating``.
    package var ratings = Column<Int16>.empty
    /// `number_of_reviews`.
    package var reviewCounts = Column<Int32>.empty
    /// `number_of_reviews_ltm` (reviews in the last twelve months), saturated at 65,535.
    package var recentReviewCounts = Column<UInt16>.empty
    /// Latitudes and longitudes in units of 10⁻⁷ degree (about a centimetre).
    package var latitudes = Column<Int32>.empty
    package var longitudes = Column<Int32>.empty
    /// Bedrooms, beds and bathrooms (in halves), capped at 254; ``ListingIndex/unknownCount`` when unknown.
    package var bedrooms = Column<UInt8>.empty
    package var beds = Column<UInt8>.empty
    package var bathroomHalves = Column<UInt8>.empty
    /// Property type codes: positions in the property type table, or ``ListingIndex/noPropertyType``.
    package var propertyTypes = Column<UInt16>.empty
    /// Each row's amenity codes, ascending and without repeats: `rows + 1` offsets into the codes.
    package var amenityOffsets = Column<UInt32>.empty
    package var amenityCodes = Column<UInt16>.empty
    /// `wordsPerDay` words each: bit *r* is set when row *r* is instant bookable, or its host a superhost.
    package var instantBookable = Column<UInt64>.empty
    package var superhosts = Column<UInt64>.empty
    /// Row bit sets of the most frequent amenities, codes 0, 1, … in turn, `wordsPerDay` words each (see
    /// ``ListingIndex/amenityBitSetCount``).
    package var amenityBitSets = Column<UInt64>.empty

    // MARK: Fees, empty when no listing has any (see ``FeeTable``)

    /// `wordsPerDay` words: bit *r* is set when row *r* has fees.
    package var feeRows = Column<UInt64>.empty
    /// `wordsPerDay` counts: the rows with fees before each word's first row.
    package var feeRanks = Column<UInt32>.empty
    /// ``FeeTable/entryWords`` words for each row with fees, in row order.
    package var feeEntries = Column<UInt32>.empty

    // MARK: Calendar

    /// `days × wordsPerDay` words: bit *r* of day *d* is set when row *r* can be booked for the night
    /// *d*: in its calendar, available and priced.
    package var bookable = Column<UInt64>.empty
    /// `wordsPerDay` words: bit *r* is set when row *r* has a price without dates.
    package var pricedWithoutDates = Column<UInt64>.empty
    /// Nightly price runs (see ``DayRuns``): values are minor units (from ``WidePrices/firstReference`` on, a
    /// reference to ``widePrices``), ``ListingIndex/unpricedNight`` or ``ListingIndex/noCalendarRow``.
    package var priceRunOffsets = Column<UInt32>.empty
    package var priceRunStarts = Column<Int32>.empty
    package var priceRunValues = Column<Int32>.empty
    package var pricePatterns = Column<Int32>.empty
    /// Day-by-day prices of the rows stored densely as running sums, day-major: `(days + 1) × dense rows`
    /// (see ``NightPrices``).
    package var densePrices = Column<UInt16>.empty
    /// Per dense row, its days with a calendar row (see ``NightPrices/denseWindows``).
    package var denseWindows = Column<UInt32>.empty
    /// Per dense row, its dearest night in its unit (see ``NightPrices/denseMaxima``).
    package var denseMaxima = Column<UInt16>.empty
    /// Per dense row, its cheapest night in its unit (see ``NightPrices/denseMinima``); empty in an index
    /// file from before minima.
    package var denseMinima = Column<UInt16>.empty
    /// Per dense row, the power of ten of minor units its codes count (see ``NightPrices/denseScales``);
    /// empty in a file from before scales (every row in whole units).
    package var denseScales = Column<UInt8>.empty
    /// Per dense row, what its codes count from in its unit (see ``NightPrices/denseBases``); empty when every
    /// row's is 0, and in a file from before bases.
    package var denseBases = Column<UInt32>.empty
    /// The carries of the dense rows that have them, day-major (see ``NightPrices/denseCarries``); empty in a
    /// file from before carries.
    package var denseCarries = Column<UInt8>.empty
    /// A bit per dense row (rank 64g + i: bit i of word g), set when it is carried; empty in a file from before
    /// carries.
    package var denseCarriedRows = Column<UInt64>.empty
    /// The prices of ``WidePrices/firstReference`` minor units and more, in minor units, that the price columns
    /// (runs, base and listing prices) refer to; empty in a file from before wide prices.
    package var widePrices = Column<Int64>.empty
    /// Stay rule runs: packed ``StayRule``s for a stay checking in on each day.
    package var ruleRunOffsets = Column<UInt32>.empty
    package var ruleRunStarts = Column<Int32>.empty
    package var ruleRunValues = Column<UInt32>.empty
    package var rulePatterns = Column<UInt32>.empty

    // MARK: Dictionaries

    /// Room type names by code.
    package var roomTypeNameBytes = Column<UInt8>.empty
    package var roomTypeNameOffsets = Column<UInt32>.empty
    /// Property type names by code, most listings first, each the first spelling seen of its folded name.
    package var propertyTypeNameBytes = Column<UInt8>.empty
    package var propertyTypeNameOffsets = Column<UInt32>.empty
    /// Amenity names by code, most listings first (ties: folded name), each the first spelling seen of its
    /// folded name.
    package var amenityNameBytes = Column<UInt8>.empty
    package var amenityNameOffsets = Column<UInt32>.empty
    /// Region nodes in depth-first order: names, levels, parents (-1 for a city) and row ranges.
    package var nodeNameBytes = Column<UInt8>.empty
    package var nodeNameOffsets = Column<UInt32>.empty
    package var nodeLevels = Column<UInt8>.empty
    package var nodeParents = Column<Int32>.empty
    package var nodeRowStarts = Column<Int64>.empty
    package var nodeRowEnds = Column<Int64>.empty

    // MARK: Neighbourhood boundaries, for maps

    /// Each shape's city and name.
    package var shapeCityBytes = Column<UInt8>.empty
    package var shapeCityOffsets = Column<UInt32>.empty
    package var shapeNameBytes = Column<UInt8>.empty
    package var shapeNameOffsets = Column<UInt32>.empty
    /// `shapes + 1` offsets into the rings, and `rings + 1` offsets into the points.
    package var shapeRingStarts = Column<UInt32>.empty
    package var ringPointStarts = Column<UInt32>.empty
    /// The points, in units of 10⁻⁷ degree.
    package var shapeLatitudes = Column<Int32>.empty
    package var shapeLongitudes = Column<Int32>.empty

    // MARK: Region aliases

    /// Other names of regions (``RegionAlias``): each alias as written, and the region node it names.
    package var aliasNameBytes = Column<UInt8>.empty
    package var aliasNameOffsets = Column<UInt32>.empty
    package var aliasNodes = Column<Int32>.empty

    /// Storage whose every column is empty, for filling column by column.
    package init() {}
}

/// The sizes every column of an index is checked against: rows and calendar days.
package struct IndexShape: Sendable, Equatable {
    /// The number of listings.
    package var rows: Int
    /// The first day of the common calendar.
    package var firstDay: Day
    /// How many days the calendar spans.
    package var dayCount: Int

    /// Words in one day's bit set: ⌈rows / 64⌉.
    package var wordsPerDay: Int { (rows + 63) / 64 }

    package init(rows: Int, firstDay: Day, dayCount: Int) {
        self.rows = rows
        self.firstDay = firstDay
        self.dayCount = dayCount
    }
}
