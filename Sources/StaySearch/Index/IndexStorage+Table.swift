/// One column of ``IndexStorage`` as the index file sees it: a stable number, a name for messages, its
/// element size, how many elements it must have, and how to read or set its bytes.
package struct StoredColumn: Sendable {
    /// How many elements a column must have, given the index's shape.
    package enum Length: Sendable {
        /// One per listing.
        case rows
        /// One per listing, and one more (offsets).
        case rowsPlusOne
        /// One bit set of rows per calendar day.
        case dayBitSets
        /// One bit set of rows.
        case rowBitSet
        /// Any number; checked against other columns by the invariants.
        case free

        func expected(for shape: IndexShape) -> Int? {
            switch self {
            case .rows: return shape.rows
            case .rowsPlusOne: return shape.rows + 1
            case .dayBitSets: return shape.dayCount * shape.wordsPerDay
            case .rowBitSet: return shape.wordsPerDay
            case .free: return nil
            }
        }
    }

    /// The section number in index files. Part of the file format: never reuse one.
    package let id: UInt32
    /// The first file format that has the section: a file of an earlier format loads without it (empty).
    package let since: UInt32
    /// The column's name, for messages.
    package let name: String
    /// Bytes per element.
    package let elementSize: Int
    /// How many elements it must have.
    package let length: Length
    /// The column's element count in `storage`.
    package let count: @Sendable (IndexStorage) -> Int
    /// The column's bytes in `storage`.
    package let bytes: @Sendable (IndexStorage) -> ColumnBytes
    /// Sets the column in `storage` to elements at `base`, kept alive by `owner`.
    package let assign: @Sendable (inout IndexStorage, _ base: UnsafeRawPointer, _ count: Int, _ owner: AnyObject) -> Void

    init<Element: BitwiseCopyable>(_ id: UInt32, _ name: String, _ column: WritableKeyPath<IndexStorage, Column<Element>> & Sendable,
                                   _ length: Length, since: UInt32 = 5) {
        self.id = id
        self.since = since
        self.name = name
        self.elementSize = MemoryLayout<Element>.stride
        self.length = length
        self.count = { storage in storage[keyPath: column].count }
        self.bytes = { storage in ColumnBytes(storage[keyPath: column]) }
        self.assign = { storage, base, count, owner in
            storage[keyPath: column] = Column(borrowing: base, count: count, owner: owner)
        }
    }
}

extension IndexStorage {
    /// Every column, in file order. The one list that saving and loading walk.
    package static let table: [StoredColumn] = [
        StoredColumn(1, "ids", \.ids, .rows),
        StoredColumn(2, "name bytes", \.nameBytes, .free),
        StoredColumn(3, "name offsets", \.nameOffsets, .rowsPlusOne),
        StoredColumn(4, "region nodes", \.regionNodes, .rows),
        StoredColumn(5, "room types", \.roomTypes, .rows),
        StoredColumn(6, "accommodates", \.accommodates, .rows),
        StoredColumn(7, "base prices", \.basePrices, .rows),
        StoredColumn(8, "listing prices", \.listingPrices, .rows),
        StoredColumn(9, "listing minimum nights", \.listingMinimumNights, .rows),
        StoredColumn(10, "listing maximum nights", \.listingMaximumNights, .rows),
        StoredColumn(11, "ratings", \.ratings, .rows),
        StoredColumn(12, "review counts", \.reviewCounts, .rows),
        StoredColumn(13, "latitudes", \.latitudes, .rows),
        StoredColumn(14, "longitudes", \.longitudes, .rows),
        StoredColumn(15, "bookable", \.bookable, .dayBitSets),
        StoredColumn(16, "priced without dates", \.pricedWithoutDates, .rowBitSet),
        StoredColumn(17, "price run offsets", \.priceRunOffsets, .rowsPlusOne),
        StoredColumn(18, "price run starts", \.priceRunStarts, .free),
        StoredColumn(19, "price run values", \.priceRunValues, .free),
        StoredColumn(20, "rule run offsets", \.ruleRunOffsets, .rowsPlusOne),
        StoredColumn(21, "rule run starts", \.ruleRunStarts, .free),
        StoredColumn(22, "rule run values", \.ruleRunValues, .free),
        StoredColumn(31, "price patterns", \.pricePatterns, .free),
        StoredColumn(32, "rule patterns", \.rulePatterns, .free),
        StoredColumn(59, "dense price sums", \.densePrices, .free),
        StoredColumn(60, "dense windows", \.denseWindows, .free),
        StoredColumn(61, "dense maxima", \.denseMaxima, .free),
        StoredColumn(23, "room type name bytes", \.roomTypeNameBytes, .free),
        StoredColumn(24, "room type name offsets", \.roomTypeNameOffsets, .free),
        StoredColumn(25, "region name bytes", \.nodeNameBytes, .free),
        StoredColumn(26, "region name offsets", \.nodeNameOffsets, .free),
        StoredColumn(27, "region levels", \.nodeLevels, .free),
        StoredColumn(28, "region parents", \.nodeParents, .free),
        StoredColumn(29, "region row starts", \.nodeRowStarts, .free),
        StoredColumn(30, "region row ends", \.nodeRowEnds, .free),
        StoredColumn(34, "bedrooms", \.bedrooms, .rows),
        StoredColumn(35, "beds", \.beds, .rows),
        StoredColumn(36, "bathroom halves", \.bathroomHalves, .rows),
        StoredColumn(37, "property types", \.propertyTypes, .rows),
        StoredColumn(38, "amenity offsets", \.amenityOffsets, .rowsPlusOne),
        StoredColumn(39, "amenity codes", \.amenityCodes, .free),
        StoredColumn(40, "instant bookable", \.instantBookable, .rowBitSet),
        StoredColumn(41, "superhosts", \.superhosts, .rowBitSet),
        StoredColumn(42, "amenity bit sets", \.amenityBitSets, .free),
        StoredColumn(43, "property type name bytes", \.propertyTypeNameBytes, .free),
        StoredColumn(44, "property type name offsets", \.propertyTypeNameOffsets, .free),
        StoredColumn(45, "amenity name bytes", \.amenityNameBytes, .free),
        StoredColumn(46, "amenity name offsets", \.amenityNameOffsets, .free),
        StoredColumn(47, "shape city bytes", \.shapeCityBytes, .free),
        StoredColumn(48, "shape city offsets", \.shapeCityOffsets, .free),
        StoredColumn(49, "shape name bytes", \.shapeNameBytes, .free),
        StoredColumn(50, "shape name offsets", \.shapeNameOffsets, .free),
        StoredColumn(51, "shape ring starts", \.shapeRingStarts, .free),
        StoredColumn(52, "ring point starts", \.ringPointStarts, .free),
        StoredColumn(53, "shape latitudes", \.shapeLatitudes, .free),
        StoredColumn(54, "shape longitudes", \.shapeLongitudes, .free),
        StoredColumn(55, "recent review counts", \.recentReviewCounts, .rows),
        StoredColumn(56, "region alias bytes", \.aliasNameBytes, .free),
        StoredColumn(57, "region alias offsets", \.aliasNameOffsets, .free),
        StoredColumn(58, "region alias nodes", \.aliasNodes, .free),
        StoredColumn(62, "fee rows", \.feeRows, .free, since: 6),
        StoredColumn(63, "fee ranks", \.feeRanks, .free, since: 6),
        StoredColumn(64, "fee entries", \.feeEntries, .free, since: 6),
        StoredColumn(65, "dense scales", \.denseScales, .free, since: 8),
        StoredColumn(66, "dense minima", \.denseMinima, .free, since: 9),
        StoredColumn(67, "dense carries", \.denseCarries, .free, since: 10),
        StoredColumn(68, "dense carried rows", \.denseCarriedRows, .free, since: 10),
        StoredColumn(69, "wide prices", \.widePrices, .free, since: 11),
        StoredColumn(70, "dense bases", \.denseBases, .free, since: 12),
    ]
}

/// A column's bytes and element count, whatever its element type.
package struct ColumnBytes {
    /// The number of elements.
    package let count: Int
    /// What keeps the bytes alive: a buffer, a mapped index file, a spill store's mapping.
    package let owner: AnyObject
    private let provider: ((UnsafeRawBufferPointer) -> Void) -> Void

    init<Element: BitwiseCopyable>(_ column: Column<Element>) {
        count = column.count
        owner = column.owner
        provider = { body in column.withUnsafeBytes { body($0) } }
    }

    /// Calls `body` with the column's bytes and returns what it returns.
    package func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        var result: Result?
        withoutActuallyEscaping(body) { body in provider { result = body($0) } }
        return result!
    }
}
