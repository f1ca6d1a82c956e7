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

    /// Nights as added, packed (32 bytes each), consecutive equal nights of a listing as one run.
    private var nights: [PackedNight] = []
    /// Nights added, counting each night of a run.
    private var addedNights = 0

    /// Creates an empty builder.
    public init() {}

    /// The number of listings added.
    public var listingCount: Int { listings.count }

    /// The number of calendar nights added.
    public var nightCount: Int { addedNights }

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

    /// Makes room for `count` more nights, so that adding them does not copy what is there.
    /// (Runs of equal nights take one place, so this is an upper bound.)
    public mutating func reserveNights(_ count: Int) {
        nights.reserveCapacity(nights.count + count)
    }

    /// Moves the nights of `other` into this builder, after its own; `other`'s handles must be this
    /// builder's (a builder that only collected nights, say on another thread, for this one).
    /// - Parameter originShift: added to the origin of each night moved (a part of a file read apart
    ///   learns its first line only when the parts before it are read).
    public mutating func appendNights(of other: IndexBuilder, shiftingOriginsBy originShift: UInt64 = 0) {
        let start = nights.count
        nights.append(contentsOf: other.nights)
        addedNights += other.addedNights
        if originShift != 0 {
            nights.withUnsafeMutableBufferPointer { nights in
                for position in start..<nights.count { nights[position].origin &+= originShift }
            }
        }
    }

    /// The entries the builder keeps for the nights added (a run of equal nights is one), for
    /// reserving room before appending builders.
    public var storedNightEntries: Int { nights.count }

    /// Adds one calendar night of a listing.
    /// - Parameters:
    ///   - night: the night.
    ///   - listing: the listing it belongs to.
    ///   - origin: any value that says where the night came from (a file and line); reported back
    ///     by ``build()`` when this night repeats an earlier night's date.
    public mutating func addNight(_ night: CalendarNight, to listing: ListingHandle, origin: UInt64 = 0) {
        addNight(to: listing, day: night.day, isAvailable: night.isAvailable, priceMinorUnits: night.price?.minorUnits ?? -1,
                 minimumNights: night.minimumNights ?? -1, maximumNights: night.maximumNights ?? -1, origin: origin)
    }

    /// Adds one calendar night from raw values, for importers that add millions: -1 stands for a
    /// missing price, minimum or maximum (the listing's own then applies).
    public mutating func addNight(
        to listing: ListingHandle, day: Day, isAvailable: Bool, priceMinorUnits: Int64, minimumNights: Int32,
        maximumNights: Int32, origin: UInt64
    ) {
        addedNights += 1
        let price = priceMinorUnits < 0 ? -1 : IndexBuilder.storedPrice(minorUnits: priceMinorUnits)
        // The next night of the run just added (next date, next line, same values) extends it.
        let last = nights.count - 1
        if last >= 0 {
            let run = nights[last]
            if run.listing == listing.position, run.day &+ Int32(run.count) == day.daysSinceEpoch,
               run.origin &+ UInt64(run.count) == origin, run.price == price, run.minimum == minimumNights,
               run.maximum == maximumNights, run.isAvailable == isAvailable, run.count < UInt16.max {
                nights[last].count += 1
                return
            }
        }
        nights.append(PackedNight(
            origin: origin, listing: listing.position, day: day.daysSinceEpoch, price: price,
            minimum: minimumNights, maximum: maximumNights, isAvailable: isAvailable, count: 1))
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
        for night in nights {
            firstDay = min(firstDay, night.day)
            lastDay = max(lastDay, night.day + Int32(night.count) - 1)
        }
        let dayCount = nights.isEmpty ? 0 : Int(lastDay - firstDay) + 1
        if nights.isEmpty { firstDay = 0 }

        // Nights grouped by row, in insertion order within a row.
        var nightStart = [Int](repeating: 0, count: rowCount + 1)
        for night in nights { nightStart[Int(layout.rowOfListing[Int(night.listing)]) + 1] += 1 }
        for row in 0..<rowCount { nightStart[row + 1] += nightStart[row] }
        var fill = nightStart
        var nightsByRow = [Int32](repeating: 0, count: nights.count)   // runs, by row
        for night in nights.indices {
            let row = Int(layout.rowOfListing[Int(nights[night].listing)])
            nightsByRow[fill[row]] = Int32(night)
            fill[row] += 1
        }

        var assembler = RowAssembler(firstDay: firstDay, dayCount: dayCount, rowCount: rowCount)
        var duplicates: [DuplicateNight] = []
        var rowNights: [CalendarNight] = []
        for row in 0..<rowCount {
            let listing = listings[Int(layout.listingOfRow[row])]
            var slice = Array(nightsByRow[nightStart[row]..<nightStart[row + 1]])
            if !slice.isSortedByDay(nights) {
                slice.sort { (nights[Int($0)].day, $0) < (nights[Int($1)].day, $1) }
            }
            // Each night once: (run, offset in run) in date order, the first added first among equal dates.
            var ordered: [(run: Int32, offset: Int32)] = []
            var runsOverlap = false
            var end = Int32.min
            for position in slice {
                let run = nights[Int(position)]
                if run.day < end { runsOverlap = true }
                end = max(end, run.day + Int32(run.count))
            }
            if runsOverlap {
                ordered.reserveCapacity(slice.count)
                for position in slice {
                    for offset in 0..<Int32(nights[Int(position)].count) { ordered.append((position, offset)) }
                }
                ordered.sort { (nights[Int($0.run)].day + $0.offset, $0.run) < (nights[Int($1.run)].day + $1.offset, $1.run) }
            }
            rowNights.removeAll(keepingCapacity: true)
            var previousDay = Int32.min
            func take(_ night: PackedNight, offset: Int32) {
                let day = night.day + offset
                guard day != previousDay else {
                    duplicates.append(DuplicateNight(
                        listingID: listing.id, day: Day(daysSinceEpoch: day), origin: night.origin + UInt64(offset)))
                    return
                }
                previousDay = day
                rowNights.append(CalendarNight(
                    day: Day(daysSinceEpoch: day), isAvailable: night.isAvailable,
                    price: night.price >= 0 ? Money(minorUnits: Int64(night.price)) : nil,
                    minimumNights: night.minimum >= 0 ? night.minimum : nil,
                    maximumNights: night.maximum >= 0 ? night.maximum : nil))
            }
            if runsOverlap {
                for (position, offset) in ordered { take(nights[Int(position)], offset: offset) }
            } else {
                for position in slice {
                    let run = nights[Int(position)]
                    for offset in 0..<Int32(run.count) { take(run, offset: offset) }
                }
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
        // Clamp before converting: a Double beyond Int64 would trap.
        return Int32((max(-2e9, min(2e9, degrees * 1e7))).rounded())
    }
}

/// A night as the builder keeps it until ``IndexBuilder/build()``: 32 bytes.
private struct PackedNight {
    var origin: UInt64
    var listing: Int32
    var day: Int32
    /// Minor units, clamped as the index stores them, or -1.
    var price: Int32
    var minimum: Int32
    var maximum: Int32
    var isAvailable: Bool
    /// Nights in this run: the same values on consecutive dates from consecutive lines.
    var count: UInt16
}

extension Array where Element == Int32 {
    fileprivate func isSortedByDay(_ nights: [PackedNight]) -> Bool {
        var previous = Int32.min
        for night in self {
            let day = nights[Int(night)].day
            if day < previous { return false }
            previous = day
        }
        return true
    }
}
