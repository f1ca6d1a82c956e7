/// The running counts of a scan, kept apart so that the loop over a word's candidates can hold them
/// in a local (registers) and store them once per word.
struct ScanTally {
    /// Values written so far: rows that pass every filter but price.
    var valueCount = 0
    /// The sum of the current block's values (a block's at most 4,096 values cannot overflow it).
    var blockSum: Int64 = 0
    /// Rows that also pass the price range.
    var total = 0
    /// The smallest and largest value written (`Int64.max` and `Int64.min` before the first).
    var smallest = Int64.max
    var largest = Int64.min
}
