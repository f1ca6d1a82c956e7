/// The columns one query's scan reads, as plain pointers taken once per query, so that the loop over
/// candidates does bare loads: no reference counting and no copies of the index's column structs.
///
/// Valid only while the index that lent them is alive; a scan runs inside ``ListingIndex/search(_:threads:)``,
/// which holds it. The index invariants guarantee every load the scan makes stays inside its column.
struct ScanColumns {
    let accommodates: UnsafePointer<UInt8>
    let roomTypes: UnsafePointer<UInt8>
    let ids: UnsafePointer<Int64>
    let ratings: UnsafePointer<Int16>
    let reviewCounts: UnsafePointer<Int32>
    let basePrices: UnsafePointer<Int32>
    let ruleOffsets: UnsafePointer<UInt32>
    let ruleValues: UnsafePointer<UInt32>
    let rulePatterns: UnsafePointer<UInt32>
    let priceOffsets: UnsafePointer<UInt32>
    let priceValues: UnsafePointer<Int32>
    /// Day-major dense price codes, and the number of dense rows (their stride).
    let dense: UnsafePointer<UInt16>
    let denseRows: Int

    init(_ index: ListingIndex) {
        let storage = index.storage
        accommodates = storage.accommodates.base
        roomTypes = storage.roomTypes.base
        ids = storage.ids.base
        ratings = storage.ratings.base
        reviewCounts = storage.reviewCounts.base
        basePrices = storage.basePrices.base
        ruleOffsets = storage.ruleRunOffsets.base
        ruleValues = storage.ruleRunValues.base
        rulePatterns = storage.rulePatterns.base
        priceOffsets = storage.priceRunOffsets.base
        priceValues = storage.priceRunValues.base
        dense = storage.densePrices.base
        denseRows = index.nightPrices.denseRows
    }
}
