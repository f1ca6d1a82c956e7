/// Collects listings and calendar nights, then freezes them into a ``ListingIndex``.
///
/// Add every listing first, then their nights (in any order). ``build()`` sorts rows by region
/// path, turns calendars into bit sets and runs, and reports calendar rows that repeat a date.
public struct IndexBuilder {
    /// Names a listing added to the builder.
    public struct ListingHandle: Hashable, Sendable {
        let position: Int32
    }

    private var listings: [ListingRecord] = []
    private var handlesByID: [Int64: Int32] = [:]
    private var roomTypeCodes: [String: UInt8] = [:]

    private var nightListing: [Int32] = []
    private var nightDay: [Int32] = []
    private var nightAvailable: [Bool] = []
    private var nightPrice: [Int64] = []
    private var nightMinimum: [Int32] = []
    private var nightMaximum: [Int32] = []
    private var nightOrigin: [UInt64] = []

    /// Creates an empty builder.
    public init() {}

    /// The number of listings added.
    public var listingCount: Int { listings.count }

    /// The number of calendar nights added.
    public var nightCount: Int { nightDay.count }

    /// Adds a listing.
    /// - Returns: the handle to add its nights with.
    /// - Throws: ``IndexBuilderError`` when the id is already there or there are too many room types.
    public mutating func addListing(_ listing: ListingRecord) throws(IndexBuilderError) -> ListingHandle {
        guard handlesByID[listing.id] == nil else { throw .duplicateListingID(listing.id) }
        if roomTypeCodes[listing.roomType] == nil {
            guard roomTypeCodes.count < 255 else { throw .tooManyRoomTypes(listing.roomType) }
            roomTypeCodes[listing.roomType] = UInt8(roomTypeCodes.count)
        }
        let position = Int32(listings.count)
        handlesByID[listing.id] = position
        listings.append(listing)
        return ListingHandle(position: position)
    }

    /// The handle of a listing added earlier.
    public func handle(forListingID id: Int64) -> ListingHandle? {
        handlesByID[id].map(ListingHandle.init(position:))
    }

    /// Adds one calendar night of a listing.
    /// - Parameters:
    ///   - night: the night.
    ///   - listing: the listing it belongs to.
    ///   - origin: any value that says where the night came from (a file and line); reported back
    ///     by ``build()`` when this night repeats an earlier night's date.
    public mutating func addNight(_ night: CalendarNight, to listing: ListingHandle, origin: UInt64 = 0) {
        nightListing.append(listing.position)
        nightDay.append(night.day.daysSinceEpoch)
        nightAvailable.append(night.isAvailable)
        nightPrice.append(night.price?.minorUnits ?? -1)
        nightMinimum.append(night.minimumNights ?? -1)
        nightMaximum.append(night.maximumNights ?? -1)
        nightOrigin.append(origin)
    }

    /// Freezes everything added into an index.
    /// - Returns: the index, and the nights left out because an earlier night of the same listing
    ///   had the same date (the first one added wins).
    /// - Complexity: O(*n* log *n*) for *n* listings, plus O(*m*) for *m* nights when each listing's
    ///   nights were added in date order.
    public func build() -> (index: ListingIndex, duplicateNights: [DuplicateNight]) {
        let layout = RegionLayout(listings: listings)
        let rowCount = listings.count
        let roomTypeNames = roomTypeCodes.sorted { $0.value < $1.value }.map(\.key)

        // Common calendar span.
        var firstDay = Int32.max
        var lastDay = Int32.min
        for day in nightDay {
            firstDay = min(firstDay, day)
            lastDay = max(lastDay, day)
        }
        let dayCount = nightDay.isEmpty ? 0 : Int(lastDay - firstDay) + 1
        if nightDay.isEmpty { firstDay = 0 }
        let wordsPerDay = (rowCount + 63) / 64

        // Nights grouped by row, in insertion order within a row.
        var nightStart = [Int](repeating: 0, count: rowCount + 1)
        for listing in nightListing { nightStart[Int(layout.rowOfListing[Int(listing)]) + 1] += 1 }
        for row in 0..<rowCount { nightStart[row + 1] += nightStart[row] }
        var fill = nightStart
        var nightsByRow = [Int32](repeating: 0, count: nightDay.count)
        for night in nightDay.indices {
            let row = Int(layout.rowOfListing[Int(nightListing[night])])
            nightsByRow[fill[row]] = Int32(night)
            fill[row] += 1
        }

        var bookable = [UInt64](repeating: 0, count: dayCount * wordsPerDay)
        var pricedWithoutDates = [UInt64](repeating: 0, count: wordsPerDay)
        var basePrices = [Int32](repeating: -1, count: rowCount)
        var prices = RunsWriter<Int32>(rowCount: rowCount)
        var rules = RunsWriter<UInt32>(rowCount: rowCount)
        var duplicates: [DuplicateNight] = []

        for row in 0..<rowCount {
            let listing = listings[Int(layout.listingOfRow[row])]
            let listingPrice = IndexBuilder.storedPrice(listing.price)
            let listingRule = StayRule(minimumNights: listing.minimumNights, maximumNights: listing.maximumNights).packed
            var slice = Array(nightsByRow[nightStart[row]..<nightStart[row + 1]])
            if !slice.isSortedByDay(nightDay) {
                slice.sort { (nightDay[Int($0)], $0) < (nightDay[Int($1)], $1) }
            }
            var cursor = 0
            var firstPriced: Int32 = -1
            var previousDay = Int32.min
            for night in slice.map(Int.init) {
                let day = nightDay[night]
                if day == previousDay {
                    duplicates.append(DuplicateNight(
                        listingID: listing.id, day: Day(daysSinceEpoch: day), origin: nightOrigin[night]))
                    continue
                }
                previousDay = day
                let offset = Int(day - firstDay)
                if offset > cursor {
                    prices.append(start: cursor, value: -2)
                    rules.append(start: cursor, value: listingRule)
                }
                let price = nightPrice[night] >= 0 ? IndexBuilder.storedPrice(minorUnits: nightPrice[night]) : listingPrice
                prices.append(start: offset, value: price)
                let minimum = nightMinimum[night] >= 0 ? nightMinimum[night] : listing.minimumNights
                let maximum = nightMaximum[night] >= 0 ? nightMaximum[night] : listing.maximumNights
                rules.append(start: offset, value: StayRule(minimumNights: minimum, maximumNights: maximum).packed)
                if price >= 0 {
                    if firstPriced < 0 { firstPriced = price }
                    if nightAvailable[night] {
                        bookable[offset * wordsPerDay + row >> 6] |= 1 << UInt64(row & 63)
                    }
                }
                cursor = offset + 1
            }
            if cursor < dayCount || cursor == 0 {
                prices.append(start: cursor, value: -2)
                rules.append(start: cursor, value: listingRule)
            }
            prices.endRow()
            rules.endRow()
            basePrices[row] = listingPrice >= 0 ? listingPrice : firstPriced
            if basePrices[row] >= 0 { pricedWithoutDates[row >> 6] |= 1 << UInt64(row & 63) }
        }

        func column<T: BitwiseCopyable>(_ value: (ListingRecord) -> T) -> Column<T> {
            Column(layout.listingOfRow.map { value(listings[Int($0)]) })
        }
        let index = ListingIndex(
            ids: column(\.id),
            names: StringColumn(layout.listingOfRow.map { listings[Int($0)].name }),
            regionNodes: Column(layout.listingOfRow.map { layout.nodeOfListing[Int($0)] }),
            roomTypes: column { roomTypeCodes[$0.roomType]! },
            accommodates: column { UInt8(clamping: $0.accommodates) },
            basePrices: Column(basePrices),
            listingPrices: column { IndexBuilder.storedPrice($0.price) },
            listingMinimumNights: column(\.minimumNights),
            listingMaximumNights: column(\.maximumNights),
            ratings: column { Int16(clamping: $0.ratingHundredths ?? -1) },
            reviewCounts: column(\.reviewCount),
            latitudes: column { IndexBuilder.storedCoordinate($0.latitude) },
            longitudes: column { IndexBuilder.storedCoordinate($0.longitude) },
            firstDay: Day(daysSinceEpoch: firstDay),
            dayCount: dayCount,
            bookable: Column(bookable),
            pricedWithoutDates: Column(pricedWithoutDates),
            nightPrices: prices.finish(),
            stayRules: rules.finish(),
            roomTypeNames: roomTypeNames,
            regions: layout.tree
        )
        return (index, duplicates)
    }
}

/// A calendar row left out because its listing already had a row for that date.
public struct DuplicateNight: Sendable, Equatable {
    /// The listing's id.
    public var listingID: Int64
    /// The repeated date.
    public var day: Day
    /// The origin given to ``IndexBuilder/addNight(_:to:origin:)`` for the row left out.
    public var origin: UInt64
}

/// Why a listing cannot be added to an index.
public enum IndexBuilderError: Error, Equatable, CustomStringConvertible {
    /// Another listing already has this id.
    case duplicateListingID(Int64)
    /// An index holds at most 255 room types.
    case tooManyRoomTypes(String)

    public var description: String {
        switch self {
        case .duplicateListingID(let id): return "duplicate listing id \(id)"
        case .tooManyRoomTypes(let name): return "too many room types (255 at most), \(name) is one too many"
        }
    }
}

extension IndexBuilder {
    /// The highest price an index holds: $21,474,836.47 a night. Loaders reject higher prices.
    public static let largestPrice = Money(minorUnits: Int64(Int32.max))

    static func storedPrice(_ money: Money?) -> Int32 {
        guard let money else { return -1 }
        return storedPrice(minorUnits: money.minorUnits)
    }

    static func storedPrice(minorUnits: Int64) -> Int32 {
        Int32(clamping: max(0, minorUnits))
    }

    static func storedCoordinate(_ degrees: Double) -> Int32 {
        guard degrees.isFinite else { return 0 }
        return Int32(clamping: Int64((degrees * 1e7).rounded()))
    }
}

/// Builds the runs of one ``DayRuns``, row by row.
private struct RunsWriter<Value: BitwiseCopyable & Equatable> {
    var offsets: [UInt32]
    var starts: [Int32] = []
    var values: [Value] = []
    var rowStart = 0

    init(rowCount: Int) {
        offsets = [0]
        offsets.reserveCapacity(rowCount + 1)
    }

    mutating func append(start: Int, value: Value) {
        if values.count > rowStart, values[values.count - 1] == value { return }
        starts.append(Int32(start))
        values.append(value)
    }

    mutating func endRow() {
        offsets.append(UInt32(values.count))
        rowStart = values.count
    }

    func finish() -> DayRuns<Value> {
        DayRuns(offsets: Column(offsets), starts: Column(starts), values: Column(values))
    }
}

extension Array where Element == Int32 {
    fileprivate func isSortedByDay(_ days: [Int32]) -> Bool {
        var previous = Int32.min
        for night in self {
            let day = days[Int(night)]
            if day < previous { return false }
            previous = day
        }
        return true
    }
}
