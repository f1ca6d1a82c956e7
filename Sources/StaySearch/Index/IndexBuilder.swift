/// Collects listings and calendar nights, then freezes them into a ``ListingIndex``.
///
/// Add every listing first, then their nights (in any order). ``build()`` sorts rows by region
/// path, turns calendars into bit sets and runs, and reports calendar rows that repeat a date.
public struct IndexBuilder {
    /// Names a listing added to the builder.
    public struct ListingHandle: Hashable, Sendable {
        package let position: Int32
    }

    /// The listings added, but their amenities (kept in ``amenities``).
    private var listings = ListingStore()
    private var amenities = NameStore()
    /// Neighbourhood boundaries, for maps.
    private var shapes: [NeighbourhoodShape] = []
    private var aliases: [RegionAlias] = []
    private var handlesByID: [Int64: Int32] = [:]
    private var roomTypeCodes: [String: UInt8] = [:]

    /// The nights of listings added before the current one, sealed.
    private var fragments = CalendarFragments()
    /// The current listing's nights (32 bytes a run), consecutive nights with the same stay rules as one
    /// run, until another listing's night comes and they are sealed into ``fragments``.
    private var pendingRuns: [NightRun] = []
    /// The prices and availability of pending runs whose nights differ in them.
    private var pendingValues = NightValues()
    /// The listing of the pending runs, or -1.
    private var pendingListing: Int32 = -1
    /// Nights added, counting each night of a run.
    private var addedNights = 0
    /// The first and last day of every night sealed.
    private var firstDay = Int32.max
    private var lastDay = Int32.min

    /// Where sealed nights and the dense price table go until the index is built, or nil for memory.
    private let store: (any SpillStore)?

    /// Creates an empty builder.
    /// - Parameter store: where to keep the nights added, and the table of day-by-day prices while it is
    ///   laid out, instead of memory (build it with ``buildUsingStore()``); nil keeps them in memory.
    public init(spillingTo store: (any SpillStore)? = nil) {
        self.init(spillingTo: store, fragmentChunkSize: 1 << 22, denseRowsPerChunk: 4_096)
    }

    /// Creates an empty builder that spills in pieces of the sizes given (tests use small ones, to spill
    /// many): chunks of sealed nights of `fragmentChunkSize` bytes, dense rows `denseRowsPerChunk` at a time.
    /// - Parameter widePrices: the wide prices its nights refer to, shared with the builders whose nights it takes
    ///   (``appendNights(of:shiftingLinesBy:)``).
    package init(spillingTo store: (any SpillStore)?, fragmentChunkSize: Int, denseRowsPerChunk: Int,
                 widePrices: WidePriceRegistry = WidePriceRegistry()) {
        self.store = store
        self.widePrices = widePrices
        self.denseRowsPerChunk = denseRowsPerChunk
        fragments = CalendarFragments(chunkSize: fragmentChunkSize, store: store)
    }

    /// How many dense rows go to the store at a time.
    private let denseRowsPerChunk: Int

    /// The prices from ``WidePrices/firstReference`` up that the nights added refer to.
    private let widePrices: WidePriceRegistry

    /// The wide prices this builder's nights refer to: a builder collecting nights for this one on another thread
    /// shares them.
    package var widePriceRegistry: WidePriceRegistry { widePrices }

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
        amenities.append(listing.amenities)
        listings.append(listing)
        return ListingHandle(position: position)
    }

    /// Adds neighbourhood boundaries (kept in the index for drawing maps).
    public mutating func addNeighbourhoods(_ shapes: [NeighbourhoodShape]) {
        self.shapes += shapes
    }

    /// Adds other names of regions (an alias whose region no listing has is left out of the index).
    public mutating func addAliases(_ aliases: [RegionAlias]) {
        self.aliases += aliases
    }

    /// The handle of a listing added earlier.
    public func handle(forListingID id: Int64) -> ListingHandle? {
        handlesByID[id].map(ListingHandle.init(position:))
    }

    /// Moves the nights of `other` into this builder, after its own; `other`'s handles must be this
    /// builder's (a builder that only collected nights, say on another thread, for this one), and its wide prices
    /// too when it has any (``widePriceRegistry``).
    /// - Parameter lineShift: added to the line of each night's origin (a part of a file read apart
    ///   learns its first line only when the parts before it are read).
    public mutating func appendNights(of other: IndexBuilder, shiftingLinesBy lineShift: Int = 0) {
        precondition(other.widePrices === widePrices || other.widePrices.snapshot.amounts.isEmpty,
                     "the builders' nights refer to wide prices of different registries")
        sealPendingNights()
        var other = other
        other.sealPendingNights()
        fragments.append(other.fragments, shiftingLinesBy: UInt64(lineShift))
        addedNights += other.addedNights
        firstDay = min(firstDay, other.firstDay)
        lastDay = max(lastDay, other.lastDay)
    }

    /// Seals the current listing's nights into ``fragments``.
    private mutating func sealPendingNights() {
        guard !pendingRuns.isEmpty else { return }
        for run in pendingRuns {
            firstDay = min(firstDay, run.day)
            lastDay = max(lastDay, run.day + Int32(run.count) - 1)
        }
        fragments.append(listing: pendingListing, runs: pendingRuns, values: pendingValues)
        pendingRuns.removeAll(keepingCapacity: true)
        pendingValues.removeAll()
    }

    /// Adds one calendar night of a listing.
    /// - Parameters:
    ///   - night: the night.
    ///   - listing: the listing it belongs to.
    ///   - origin: where the night came from; reported back by ``build()`` when this night repeats an
    ///     earlier night's date.
    public mutating func addNight(_ night: CalendarNight, to listing: ListingHandle, origin: RecordOrigin = RecordOrigin(file: 0, line: 0)) {
        addNight(to: listing, day: night.day, isAvailable: night.isAvailable, priceMinorUnits: night.price?.minorUnits ?? -1,
                 minimumNights: night.minimumNights ?? -1, maximumNights: night.maximumNights ?? -1, origin: origin)
    }

    /// Adds one calendar night from raw values, for importers that add millions: -1 stands for a
    /// missing price, minimum or maximum (the listing's own then applies).
    public mutating func addNight(
        to listing: ListingHandle, day: Day, isAvailable: Bool, priceMinorUnits: Int64, minimumNights: Int32,
        maximumNights: Int32, origin: RecordOrigin
    ) {
        addedNights += 1
        if listing.position != pendingListing {
            sealPendingNights()
            pendingListing = listing.position
        }
        let price = priceMinorUnits < 0 ? -1 : widePrices.stored(minorUnits: priceMinorUnits)
        let packedOrigin = origin.packed
        // The next night of the run just added (next date, next line, same stay rules) extends it; a
        // price or availability of its own moves the run's values to the night values.
        let last = pendingRuns.count - 1
        if last >= 0 {
            let run = pendingRuns[last]
            if run.day &+ Int32(run.count) == day.daysSinceEpoch,
               run.origin &+ UInt64(run.count) == packedOrigin, run.minimum == minimumNights,
               run.maximum == maximumNights, run.count < UInt16.max {
                if !run.hasNightValues {
                    if run.price == price, run.isAvailable == isAvailable {
                        pendingRuns[last].count += 1
                        return
                    }
                    pendingRuns[last].price = Int32(bitPattern: UInt32(pendingValues.count))
                    pendingRuns[last].hasNightValues = true
                    pendingValues.append(price: run.price, isAvailable: run.isAvailable, count: Int(run.count))
                }
                pendingValues.append(price: price, isAvailable: isAvailable)
                pendingRuns[last].count += 1
                return
            }
        }
        pendingRuns.append(NightRun(
            origin: packedOrigin, listing: listing.position, day: day.daysSinceEpoch, price: price,
            minimum: minimumNights, maximum: maximumNights, isAvailable: isAvailable, hasNightValues: false, count: 1))
    }

    /// Freezes everything added into an index.
    /// - Returns: the index, and the nights left out because an earlier night of the same listing
    ///   had the same date (the first one added wins).
    /// - Complexity: O(*n* log *n*) for *n* listings, plus O(*m*) for *m* nights when each listing's
    ///   nights were added in date order.
    public consuming func build() -> (index: ListingIndex, duplicateNights: [DuplicateNight]) {
        precondition(store == nil, "a builder with a spill store builds with buildUsingStore()")
        do {
            return try (consume self).assemble()
        } catch {
            preconditionFailure("building in memory reads no store: \(error)")
        }
    }

    /// Freezes everything added into an index, as ``build()`` does, reading the nights back from the
    /// builder's store and writing the table of day-by-day prices there (the index maps it from the
    /// store, which must outlive it).
    /// - Throws: ``IndexBuilderError/storeFailed(_:)`` when the store could not write or read.
    public consuming func buildUsingStore() throws(IndexBuilderError) -> (index: ListingIndex, duplicateNights: [DuplicateNight]) {
        if let failure = fragments.spillFailure { throw .storeFailed(String(describing: failure)) }
        do {
            return try (consume self).assemble()
        } catch {
            throw .storeFailed(String(describing: error))
        }
    }

    /// What ``build()`` and ``buildUsingStore()`` do.
    private consuming func assemble() throws -> (index: ListingIndex, duplicateNights: [DuplicateNight]) {
        sealPendingNights()
        handlesByID = [:]                 // not needed to build
        let layout = RegionLayout(listings: listings)
        let rowCount = listings.count
        let roomTypeNames = roomTypeCodes.sorted { $0.value < $1.value }.map(\.key)

        // Common calendar span.
        let hasNights = firstDay <= lastDay
        let dayCount = hasNights ? Int(lastDay - firstDay) + 1 : 0
        let spanStart = hasNights ? firstDay : 0

        // Fragments grouped by row, in insertion order within a row; how many each chunk holds.
        let fragmentCount = fragments.count
        var fragmentStart = [Int](repeating: 0, count: rowCount + 1)
        var fragmentsLeft = [Int32](repeating: 0, count: fragments.chunkCount)
        for fragment in 0..<fragmentCount {
            fragmentStart[Int(layout.rowOfListing[Int(fragments.listings[fragment])]) + 1] += 1
            fragmentsLeft[fragments.chunk(ofFragment: fragment)] += 1
        }
        for row in 0..<rowCount { fragmentStart[row + 1] += fragmentStart[row] }
        var fill = fragmentStart
        var fragmentsByRow = [Int32](repeating: 0, count: fragmentCount)
        for fragment in 0..<fragmentCount {
            let row = Int(layout.rowOfListing[Int(fragments.listings[fragment])])
            fragmentsByRow[fill[row]] = Int32(fragment)
            fill[row] += 1
        }
        fill = []

        var assembler = RowAssembler(firstDay: spanStart, dayCount: dayCount, rowCount: rowCount, store: store,
                                     denseRowsPerChunk: denseRowsPerChunk, widePrices: widePrices.snapshot)
        var fragmentBytes: [UInt8] = []    // a fragment read back from the store
        var duplicates: [DuplicateNight] = []
        var added: [NightRun] = []          // a row's runs as added
        var values = NightValues()          // their night values
        var rowRuns: [NightRun] = []        // the runs given to the assembler
        for row in 0..<rowCount {
            let listing = listings[Int(layout.listingOfRow[row])]
            added.removeAll(keepingCapacity: true)
            values.removeAll()
            for position in fragmentStart[row]..<fragmentStart[row + 1] {
                let fragment = Int(fragmentsByRow[position])
                try fragments.decode(fragment, into: &added, values: &values, buffer: &fragmentBytes)
                let chunk = fragments.chunk(ofFragment: fragment)
                fragmentsLeft[chunk] -= 1
                if fragmentsLeft[chunk] == 0 { fragments.release(chunk) }
            }
            var order = Array(0..<Int32(added.count))
            if !added.isSortedByDay {
                order.sort { (added[Int($0)].day, $0) < (added[Int($1)].day, $1) }
            }
            var runsOverlap = false
            var end = Int32.min
            for position in order {
                let run = added[Int(position)]
                if run.day < end { runsOverlap = true }
                end = max(end, run.day + Int32(run.count))
            }
            rowRuns.removeAll(keepingCapacity: true)
            if !runsOverlap {
                // The common case: every date once. The runs go to the assembler as they are.
                for position in order { rowRuns.append(added[Int(position)]) }
            } else {
                // Each night once, in date order, the first added first among equal dates; the rest
                // are reported.
                var ordered: [(run: Int32, offset: Int32)] = []
                for position in order {
                    for offset in 0..<Int32(added[Int(position)].count) { ordered.append((position, offset)) }
                }
                ordered.sort { (added[Int($0.run)].day + $0.offset, $0.run) < (added[Int($1.run)].day + $1.offset, $1.run) }
                var previousDay = Int32.min
                for (position, offset) in ordered {
                    let night = added[Int(position)].night(at: Int(offset), in: values)
                    guard night.day != previousDay else {
                        duplicates.append(DuplicateNight(listingID: listing.id, day: Day(daysSinceEpoch: night.day),
                                                         origin: RecordOrigin(packed: night.origin)))
                        continue
                    }
                    previousDay = night.day
                    rowRuns.append(night)
                }
            }
            assembler.appendRow(listing, runs: rowRuns, values: values)
        }
        fragments = CalendarFragments()
        let dense = store == nil ? nil : try assembler.densePrices.finishInStore()
        let carries = store == nil ? nil : try assembler.denseCarries.finishInStore()
        return (assembler.finish(listings: listings, amenities: &amenities, shapes: shapes, aliases: aliases, layout: layout,
                                 roomTypeNames: roomTypeNames, densePrices: dense, denseCarries: carries),
                duplicates)
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
        build(listings: listings, firstDay: firstDay, dayCount: dayCount, calendarOfListing: calendarOfListing,
              amenitiesOfListing: { listings[$0].amenities })
    }

    /// Builds an index as ``build(listings:firstDay:dayCount:calendarOfListing:)`` does, with each
    /// listing's amenities made on demand too (the listings' own are not read), so that a generator
    /// need not keep them.
    public static func build(
        listings: [ListingRecord], firstDay: Day, dayCount: Int, calendarOfListing: (Int) -> [CalendarNight],
        amenitiesOfListing: (Int) -> [String], neighbourhoods: [NeighbourhoodShape] = [], aliases: [RegionAlias] = []
    ) -> ListingIndex {
        var amenities = NameStore()
        for position in listings.indices { amenities.append(amenitiesOfListing(position)) }
        let layout = RegionLayout(listings: listings)
        let roomTypeNames = Array(Set(listings.map(\.roomType))).sorted()
        var assembler = RowAssembler(firstDay: firstDay.daysSinceEpoch, dayCount: dayCount, rowCount: listings.count)
        let end = firstDay.advanced(by: dayCount)
        var runs: [NightRun] = []
        for row in 0..<listings.count {
            let position = Int(layout.listingOfRow[row])
            var previous = firstDay.advanced(by: -1)
            runs.removeAll(keepingCapacity: true)
            for night in calendarOfListing(position) {
                defer { previous = max(previous, night.day) }
                guard night.day >= firstDay, night.day < end, night.day > previous else { continue }
                runs.append(NightRun(origin: 0, listing: Int32(position), day: night.day.daysSinceEpoch,
                                     price: night.price.map { assembler.widePrices.stored(minorUnits: $0.minorUnits) } ?? -1,
                                     minimum: night.minimumNights ?? -1, maximum: night.maximumNights ?? -1,
                                     isAvailable: night.isAvailable, hasNightValues: false, count: 1))
            }
            assembler.appendRow(listings[position], runs: runs, values: NightValues())
        }
        return assembler.finish(listings: listings, amenities: &amenities, shapes: neighbourhoods, aliases: aliases, layout: layout,
                                roomTypeNames: roomTypeNames)
    }
}

extension IndexBuilder {
    /// Builds an index of listings held day by day, as a live index holds its changed listings, over the
    /// calendar span `firstDay ..< firstDay + dayCount` that every one of them covers.
    /// - Parameter listingAt: the listing at a position of `listings` (made on demand, so that a rebuild of
    ///   a whole index never holds every listing's days at once).
    package static func build(listings: [ListingRecord], firstDay: Day, dayCount: Int, listingAt: (Int) -> EditableListing,
                      neighbourhoods: [NeighbourhoodShape] = [], aliases: [RegionAlias] = []) -> ListingIndex {
        var amenities = NameStore()
        for listing in listings { amenities.append(listing.amenities) }
        let layout = RegionLayout(listings: listings)
        let roomTypeNames = Array(Set(listings.map(\.roomType))).sorted()
        var assembler = RowAssembler(firstDay: firstDay.daysSinceEpoch, dayCount: dayCount, rowCount: listings.count)
        for row in 0..<listings.count {
            let position = Int(layout.listingOfRow[row])
            assembler.appendRow(listings[position], days: listingAt(position))
        }
        return assembler.finish(listings: listings, amenities: &amenities, shapes: neighbourhoods, aliases: aliases, layout: layout,
                                roomTypeNames: roomTypeNames)
    }
}

/// A calendar row left out because its listing already had a row for that date.
public struct DuplicateNight: Sendable, Equatable {
    /// The listing's id.
    public var listingID: Int64
    /// The repeated date.
    public var day: Day
    /// The origin given to ``IndexBuilder/addNight(_:to:origin:)`` for the row left out.
    public var origin: RecordOrigin
}

/// Why a listing cannot be added to an index.
public enum IndexBuilderError: Error, Equatable, CustomStringConvertible {
    /// Another listing already has this id.
    case duplicateListingID(Int64)
    /// An index holds at most 255 room types.
    case tooManyRoomTypes(String)
    /// The builder's ``SpillStore`` could not write or read back what it was given (its words).
    case storeFailed(String)

    public var description: String {
        switch self {
        case .duplicateListingID(let id): return "duplicate listing id \(id)"
        case .tooManyRoomTypes(let name): return "too many room types (255 at most), \(name) is one too many"
        case .storeFailed(let reason): return reason
        }
    }
}

extension IndexBuilder {
    /// The highest price an index holds: 1,000,000,000.00 a night (``Money/largest``), in any currency. Loaders
    /// reject higher prices.
    public static let largestPrice = Money.largest

    static func storedCoordinate(_ degrees: Double) -> Int32 {
        guard degrees.isFinite else { return 0 }
        // Clamp before converting: a Double beyond Int64 would trap.
        return Int32((max(-2e9, min(2e9, degrees * 1e7))).rounded())
    }
}

extension Array where Element == NightRun {
    fileprivate var isSortedByDay: Bool {
        var previous = Int32.min
        for run in self {
            if run.day < previous { return false }
            previous = run.day
        }
        return true
    }
}
