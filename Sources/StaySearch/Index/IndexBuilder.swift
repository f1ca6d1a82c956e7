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

        var assembler = RowAssembler(firstDay: firstDay, dayCount: dayCount, rowCount: rowCount)
        var duplicates: [DuplicateNight] = []
        var rowNights: [CalendarNight] = []
        for row in 0..<rowCount {
            let listing = listings[Int(layout.listingOfRow[row])]
            var slice = Array(nightsByRow[nightStart[row]..<nightStart[row + 1]])
            if !slice.isSortedByDay(nightDay) {
                slice.sort { (nightDay[Int($0)], $0) < (nightDay[Int($1)], $1) }
            }
            rowNights.removeAll(keepingCapacity: true)
            var previousDay = Int32.min
            for night in slice.map(Int.init) {
                let day = nightDay[night]
                guard day != previousDay else {
                    duplicates.append(DuplicateNight(
                        listingID: listing.id, day: Day(daysSinceEpoch: day), origin: nightOrigin[night]))
                    continue
                }
                previousDay = day
                rowNights.append(CalendarNight(
                    day: Day(daysSinceEpoch: day), isAvailable: nightAvailable[night],
                    price: nightPrice[night] >= 0 ? Money(minorUnits: nightPrice[night]) : nil,
                    minimumNights: nightMinimum[night] >= 0 ? nightMinimum[night] : nil,
                    maximumNights: nightMaximum[night] >= 0 ? nightMaximum[night] : nil))
            }
            assembler.appendRow(listing, nights: rowNights)
        }
        return (assembler.finish(listings: listings, layout: layout, roomTypeNames: roomTypeNames), duplicates)
    }

    /// Builds an index from listings whose calendars are made on demand, one listing at a time in
    /// row order, so that no night is stored: the way to index millions of generated listings.
    /// - Parameters:
    ///   - listings: the listings, with unique ids and at most 255 room types.
    ///   - firstDay: the first day of the common calendar.
    ///   - dayCount: its length in days.
    ///   - calendarOfListing: the calendar of the listing at a position of `listings`: nights in date
    ///     order, one per date, inside the span. Nights outside the span are left out.
    /// - Complexity: O(*n* log *n* + *m*) for *n* listings and *m* nights.
    public static func build(
        listings: [ListingRecord], firstDay: Day, dayCount: Int, calendarOfListing: (Int) -> [CalendarNight]
    ) -> ListingIndex {
        let layout = RegionLayout(listings: listings)
        let roomTypeNames = Array(Set(listings.map(\.roomType))).sorted()
        var assembler = RowAssembler(firstDay: firstDay.daysSinceEpoch, dayCount: dayCount, rowCount: listings.count)
        let end = firstDay.advanced(by: dayCount)
        for row in 0..<listings.count {
            let position = Int(layout.listingOfRow[row])
            var previous = firstDay.advanced(by: -1)
            let nights = calendarOfListing(position).filter { night in
                defer { previous = max(previous, night.day) }
                return night.day >= firstDay && night.day < end && night.day > previous
            }
            assembler.appendRow(listings[position], nights: nights)
        }
        return assembler.finish(listings: listings, layout: layout, roomTypeNames: roomTypeNames)
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
