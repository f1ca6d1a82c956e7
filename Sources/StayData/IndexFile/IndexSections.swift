import StaySearch

/// The columns of an index, named by section, in file order.
struct IndexSections {
    /// A column's bytes and element count, whatever its element type.
    struct Bytes {
        let count: Int
        private let provider: ((UnsafeRawBufferPointer) -> Void) -> Void

        init<Element: BitwiseCopyable>(_ column: Column<Element>) {
            count = column.count
            provider = { body in column.withUnsafeBytes { body($0) } }
        }

        /// Calls `body` with the column's bytes and returns what it returns.
        func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
            var result: Result?
            withoutActuallyEscaping(body) { body in provider { result = body($0) } }
            return result!
        }
    }

    let entries: [(section: IndexFileFormat.Section, bytes: Bytes)]

    init(index: ListingIndex) {
        let roomTypeNames = StringColumn(index.roomTypeNames)
        let nodes = index.regions.nodes
        let nodeNames = StringColumn(nodes.map(\.name))
        entries = [
            (.ids, Bytes(index.ids)),
            (.nameBytes, Bytes(index.names.bytes)),
            (.nameOffsets, Bytes(index.names.offsets)),
            (.regionNodes, Bytes(index.regionNodes)),
            (.roomTypes, Bytes(index.roomTypes)),
            (.accommodates, Bytes(index.accommodates)),
            (.basePrices, Bytes(index.basePrices)),
            (.listingPrices, Bytes(index.listingPrices)),
            (.listingMinimumNights, Bytes(index.listingMinimumNights)),
            (.listingMaximumNights, Bytes(index.listingMaximumNights)),
            (.ratings, Bytes(index.ratings)),
            (.reviewCounts, Bytes(index.reviewCounts)),
            (.latitudes, Bytes(index.latitudes)),
            (.longitudes, Bytes(index.longitudes)),
            (.bookable, Bytes(index.bookable)),
            (.pricedWithoutDates, Bytes(index.pricedWithoutDates)),
            (.priceRunOffsets, Bytes(index.nightPrices.offsets)),
            (.priceRunStarts, Bytes(index.nightPrices.starts)),
            (.priceRunValues, Bytes(index.nightPrices.values)),
            (.ruleRunOffsets, Bytes(index.stayRules.offsets)),
            (.ruleRunStarts, Bytes(index.stayRules.starts)),
            (.ruleRunValues, Bytes(index.stayRules.values)),
            (.pricePatterns, Bytes(index.nightPrices.patterns)),
            (.rulePatterns, Bytes(index.stayRules.patterns)),
            (.roomTypeNameBytes, Bytes(roomTypeNames.bytes)),
            (.roomTypeNameOffsets, Bytes(roomTypeNames.offsets)),
            (.nodeNameBytes, Bytes(nodeNames.bytes)),
            (.nodeNameOffsets, Bytes(nodeNames.offsets)),
            (.nodeLevels, Bytes(Column(nodes.map(\.level.rawValue)))),
            (.nodeParents, Bytes(Column(nodes.map(\.parent)))),
            (.nodeRowStarts, Bytes(Column(nodes.map { Int64($0.rows.lowerBound) }))),
            (.nodeRowEnds, Bytes(Column(nodes.map { Int64($0.rows.upperBound) }))),
        ]
    }
}
