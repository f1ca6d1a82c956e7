/// How a query's rows may be split into parts scanned at once: at most `threads` parts of at least
/// `minimumRowsPerPart` rows each; and from how many rows the scan counts price slots for the histogram
/// (``PriceSlotTables``).
struct PartSplit {
    var threads: Int
    var minimumRowsPerPart: Int
    var minimumRowsForPriceSlots = PriceSlotTables.minimumRows

    /// How many parts `rowCount` rows are scanned in (1: on the caller's thread).
    func parts(of rowCount: Int) -> Int {
        max(1, min(threads, rowCount / max(1, minimumRowsPerPart)))
    }
}
