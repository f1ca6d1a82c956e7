/// The frozen, read-only search index: one column per listing field, rows sorted by region path,
/// availability as one bit set per calendar day, and nightly prices and stay rules as runs.
///
/// Make one with ``IndexBuilder``, or load a saved one (`StayData`'s `IndexFileReader`). Its storage
/// stays inside the engine: callers ask for decoded values (``listing(atRow:)``,
/// ``nights(ofRow:from:to:)``, ``search(_:)``). An index never changes, so one instance can serve any
/// number of threads at once.
public struct ListingIndex: Sendable {
    /// Every column (see ``IndexStorage``).
    package let storage: IndexStorage
    /// Rows and calendar span.
    package let shape: IndexShape
    /// Words in each day's bit set: ⌈rows / 64⌉.
    package let wordsPerDay: Int
    /// Listing titles, a view over the name columns.
    package let names: StringColumn
    /// Nightly prices by day, a view over the price run and dense price columns.
    package let nightPrices: NightPrices
    /// Stay rules by check-in day, a view over the rule run columns.
    package let stayRules: DayRuns<UInt32>
    /// The listings' fees, a view over the fee columns.
    let feeTable: FeeTable
    /// Each row's stay rule as a class when one rule holds all year (derived from the rule runs).
    package let ruleClasses: RuleClasses
    /// Each row's price runs as a shape when its shape is common (derived from the price runs).
    package let priceShapes: PriceShapes
    /// Each block of rows' best keys of the rating and reviews orders.
    package let sortKeyBlocks: SortKeyBlocks
    /// The 95th percentile of the prices without dates of up to 4,096 rows evenly spaced (minor units;
    /// 0 without prices): how high this index's prices run, before a query counts them.
    package let sampledHighPrice: Int64
    /// The prices without dates last worked out for a day after the first (``undatedPrices(from:)``).
    let undatedPriceCache = UndatedPriceCache()
    /// The order of the prices without dates and its populations last asked for (``undatedPopulation(guests:roomCode:prices:ahead:)``).
    package let undatedOrderCache = UndatedOrderCache()
    /// The span prices the price calendar last used (``spanPrices(from:to:nights:rows:scale:)``).
    let spanPriceCache = SpanPriceCache()
    /// Each row's quality part of the `recommended` score (``qualities(changedMeans:)``).
    let qualityCache = QualityCache()
    /// Whether every price the index holds is in whole currency units (``pricesAreWholeUnits``).
    let wholeUnitPrices = LazyValue<Bool>()
    /// The unit the price calendar counts totals in and a typical row's dearest night (``calendarScale``,
    /// ``calendarDearNight``).
    let calendarSampleValue = LazyValue<(scale: UInt8, dearNight: Int64)>()
    /// Room type names, by code.
    package let roomTypeNames: [String]
    /// The room type codes in the order facet ties go (``NameTable/tieOrder``).
    package let roomTypeTieOrder: [Int]
    /// Cities, neighbourhood groups and neighbourhoods with their row ranges.
    public let regions: RegionTree
    /// Property type and amenity names by code, with their codes by folded name.
    package let propertyTypes: NameTable
    package let amenities: NameTable
    /// How many amenities (codes 0 up) have a row bit set in ``IndexStorage/amenityBitSets``.
    package let amenityBitSetCount: Int
    /// For each region node, the node of its city.
    package let cityNodeOfNode: [Int32]
    /// Each city's rated listings, by city name: the prior of the `recommended` order's rating.
    package let cityRatings: [String: RatingTally]

    // MARK: Sentinels of the stored columns

    /// A listing price or price without dates that is not there.
    package static let noPrice: Int32 = -1
    /// A night in the calendar without a price (nor a listing price).
    package static let unpricedNight: Int32 = -1
    /// A day the listing's calendar has no row for.
    package static let noCalendarRow: Int32 = -2
    /// A listing without a rating.
    package static let noRating: Int16 = -1
    /// Bedrooms, beds or bathrooms not known.
    package static let unknownCount: UInt8 = 255
    /// A listing without a property type.
    package static let noPropertyType: UInt16 = .max

    /// Wraps storage the engine has just built; its invariants are checked in debug builds.
    init(storage: IndexStorage, shape: IndexShape) {
        #if DEBUG
        do throws(IndexCorruption) { try storage.checkInvariants(shape: shape) } catch {
            preconditionFailure("the index builder made an unsound index: \(error.reason)")
        }
        #endif
        self.init(checkedStorage: storage, shape: shape)
    }

    /// Wraps storage from outside the engine (a mapped index file), checking every invariant first:
    /// sizes, offsets, runs, region ranges and the codes that point into tables.
    /// - Throws: ``IndexCorruption`` naming the first check that fails.
    /// - Complexity: O(*n*) in the size of the storage.
    package init(validating storage: IndexStorage, shape: IndexShape) throws(IndexCorruption) {
        try storage.checkInvariants(shape: shape)
        self.init(checkedStorage: storage, shape: shape)
    }

    /// The same index with `bookable` (same size) as its availability bit sets: the live index's copy,
    /// which changes apply to.
    package func replacingBookable(with bookable: Column<UInt64>) -> ListingIndex {
        precondition(bookable.count == storage.bookable.count)
        var storage = self.storage
        storage.bookable = bookable
        return ListingIndex(checkedStorage: storage, shape: shape, ruleClasses: ruleClasses, priceShapes: priceShapes,
                            sortKeyBlocks: sortKeyBlocks, cityRatings: (cityNodeOfNode, cityRatings))
    }

    /// - Parameters:
    ///   - ruleClasses: the rule classes of `storage` when the caller has them.
    ///   - priceShapes: its price shapes when the caller has them.
    ///   - sortKeyBlocks: its sort key blocks when the caller has them.
    private init(checkedStorage storage: IndexStorage, shape: IndexShape, ruleClasses: RuleClasses? = nil,
                 priceShapes: PriceShapes? = nil, sortKeyBlocks: SortKeyBlocks? = nil,
                 cityRatings: (cityNodeOfNode: [Int32], tallies: [String: RatingTally])? = nil) {
        self.storage = storage
        self.shape = shape
        wordsPerDay = shape.wordsPerDay
        names = StringColumn(bytes: storage.nameBytes, offsets: storage.nameOffsets)
        let firstWeekday = shape.firstDay.weekdayFromMonday
        nightPrices = NightPrices(
            runs: DayRuns(offsets: storage.priceRunOffsets, starts: storage.priceRunStarts, values: storage.priceRunValues,
                          patterns: storage.pricePatterns, firstWeekday: firstWeekday),
            dense: storage.densePrices, windows: storage.denseWindows, maxima: storage.denseMaxima, minima: storage.denseMinima,
            scales: storage.denseScales, carries: storage.denseCarries, carried: storage.denseCarriedRows, wide: storage.widePrices,
            bases: storage.denseBases)
        feeTable = FeeTable(storage)
        stayRules = DayRuns(offsets: storage.ruleRunOffsets, starts: storage.ruleRunStarts, values: storage.ruleRunValues,
                            patterns: storage.rulePatterns, firstWeekday: firstWeekday)
        self.ruleClasses = ruleClasses ?? RuleClasses(offsets: storage.ruleRunOffsets, runValues: storage.ruleRunValues, rows: shape.rows)
        self.priceShapes = priceShapes ?? PriceShapes(offsets: storage.priceRunOffsets, starts: storage.priceRunStarts,
                                                      values: storage.priceRunValues, rows: shape.rows)
        self.sortKeyBlocks = sortKeyBlocks ?? SortKeyBlocks(ratings: storage.ratings, reviewCounts: storage.reviewCounts, rows: shape.rows)
        sampledHighPrice = ListingIndex.sampledHighPrice(of: storage.basePrices, wide: storage.widePrices, rows: shape.rows)
        let roomTypes = StringColumn(bytes: storage.roomTypeNameBytes, offsets: storage.roomTypeNameOffsets)
        roomTypeNames = (0..<roomTypes.count).map { roomTypes[$0] }
        roomTypeTieOrder = NameTable.tieOrder(of: roomTypeNames, folded: roomTypeNames.map(TextFolding.fold))
        propertyTypes = NameTable(StringColumn(bytes: storage.propertyTypeNameBytes, offsets: storage.propertyTypeNameOffsets))
        amenities = NameTable(StringColumn(bytes: storage.amenityNameBytes, offsets: storage.amenityNameOffsets))
        amenityBitSetCount = shape.wordsPerDay == 0 ? 0 : storage.amenityBitSets.count / shape.wordsPerDay
        let nodeNames = StringColumn(bytes: storage.nodeNameBytes, offsets: storage.nodeNameOffsets)
        let aliasNames = StringColumn(bytes: storage.aliasNameBytes, offsets: storage.aliasNameOffsets)
        let aliases = (0..<storage.aliasNodes.count).map { (name: aliasNames[$0], node: Int(storage.aliasNodes[$0])) }
        regions = RegionTree(nodes: (0..<nodeNames.count).map { node in
            let name = nodeNames[node]
            return RegionNode(name: name, foldedName: TextFolding.fold(name), level: RegionNode.Level(rawValue: storage.nodeLevels[node])!,
                              parent: storage.nodeParents[node],
                              rows: Int(storage.nodeRowStarts[node])..<Int(storage.nodeRowEnds[node]))
        }, aliases: aliases)
        let cities = cityRatings ?? ListingIndex.cityRatings(regions: regions, ratings: storage.ratings)
        cityNodeOfNode = cities.cityNodeOfNode
        self.cityRatings = cities.tallies
    }

    /// The 95th percentile of the prices (``noPrice`` left out) of up to 4,096 rows evenly spaced.
    private static func sampledHighPrice(of prices: Column<Int32>, wide: Column<Int64>, rows: Int) -> Int64 {
        let step = max(1, rows / 4_096)
        let sample = stride(from: 0, to: rows, by: step).map { WidePrices.amount(ofStored: prices[$0], in: wide.base) }
            .filter { $0 >= 0 }.sorted()
        return sample.isEmpty ? 0 : sample[PriceHistogram.rank(ofPercentile: 95, count: sample.count)]
    }

    /// The number of listings.
    public var count: Int { shape.rows }

    /// The first day of the common calendar.
    public var firstDay: Day { shape.firstDay }

    /// How many days the common calendar spans.
    public var dayCount: Int { shape.dayCount }

    /// The row of a listing id, if the index has it.
    /// - Complexity: O(*n*).
    public func row(ofListingID id: Int64) -> Int? {
        storage.ids.withUnsafeBufferPointer { $0.firstIndex(of: id) }
    }

    /// The listing id of row `row`.
    public func listingID(ofRow row: Int) -> Int64 { storage.ids[row] }

    /// Whether row `row` can be booked for the night `day`.
    public func isBookable(row: Int, day: Day) -> Bool {
        let offset = firstDay.distance(to: day)
        guard offset >= 0, offset < dayCount else { return false }
        return storage.bookable[offset * wordsPerDay + row >> 6] >> UInt64(row & 63) & 1 == 1
    }

    /// The stored price of row `row` on the night `day` in minor units, or ``unpricedNight`` or
    /// ``noCalendarRow``.
    package func nightPrice(row: Int, day: Day) -> Int64 {
        let offset = firstDay.distance(to: day)
        guard offset >= 0, offset < dayCount else { return Int64(ListingIndex.noCalendarRow) }
        return nightPrices.amount(ofStored: nightPrices.value(row: row, dayOffset: offset))
    }

    /// The stay rule of row `row` for a stay checking in on `day` (the listing's own when the day is
    /// outside the calendar).
    public func stayRule(row: Int, day: Day) -> StayRule {
        let offset = firstDay.distance(to: day)
        guard offset >= 0, offset < dayCount else {
            return StayRule(minimumNights: storage.listingMinimumNights[row], maximumNights: storage.listingMaximumNights[row])
        }
        return StayRule(packed: stayRules.value(row: row, dayOffset: offset))
    }

    /// The latitude of row `row` in degrees.
    public func latitude(ofRow row: Int) -> Double { Double(storage.latitudes[row]) / 1e7 }

    /// The longitude of row `row` in degrees.
    public func longitude(ofRow row: Int) -> Double { Double(storage.longitudes[row]) / 1e7 }

    /// The sum of row `row`'s nightly prices over `stay` (day offsets), valid when every night in
    /// it is priced.
    /// - Complexity: O(log *r* + *k*) for *r* price runs of the row, *k* of them in the stay.
    package func stayTotal(row: Int, from start: Int, to end: Int) -> Int64 {
        nightPrices.sum(row: row, from: start, to: end)
    }

    /// The names of the region path of row `row`: city, group (or empty), neighbourhood (or empty).
    public func regionPath(ofRow row: Int) -> RegionPath {
        var path = RegionPath(city: "", neighbourhood: "")
        var node = Int(storage.regionNodes[row])
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
