/// What the parts of one query's scan collected, merged: the values side by side at the front of the
/// shared buffer, the collectors summed, the pages merged in order, and the matched rows when kept.
struct ScanOutcome {
    /// One part: its scan, where its values (and matched rows) start in the shared buffers, and what its
    /// rows add to become rows of the answer (a live overlay's rows come after the frozen index's).
    struct Part {
        var scan: Scan
        var start: Int
        var rowShift: Int32 = 0
    }

    var valueCount = 0
    var valueSum: Int128 = 0
    var total = 0
    var bounds: ClosedRange<Int64>?
    /// The best rows of every part, best first.
    var page: [RankedRow] = []
    /// The rows that pass every filter, when the scan kept them.
    var matchedRows: [Int32] = []
    /// The parts scanned at once.
    var threads = 1

    /// What one scan over the whole of `values` (and `rowSlots`) collected.
    init(_ scan: Scan, rowSlots: UnsafeMutableBufferPointer<Int32>?) {
        valueCount = scan.valueCount
        valueSum = scan.valueSum
        total = scan.total
        bounds = scan.bounds
        page = scan.page.sorted()
        if let rowSlots { matchedRows = Array(rowSlots.prefix(scan.total)) }
    }

    /// Merges `parts`, moving their values together at the front of `values`.
    init(merging parts: [Part], values: UnsafeMutableBufferPointer<Int64>, rowSlots: UnsafeMutableBufferPointer<Int32>?,
         valueRows: ValueRowSlots? = nil, threads: Int) {
        self.threads = threads
        for part in parts {
            let scan = part.scan
            valueRows?.move(from: part.start, to: valueCount, count: scan.valueCount, rowShift: part.rowShift)
            if part.start != valueCount, scan.valueCount > 0 {
                (values.baseAddress! + valueCount).update(from: values.baseAddress! + part.start, count: scan.valueCount)
            }
            valueCount += scan.valueCount
            valueSum += scan.valueSum
            total += scan.total
            if let partBounds = scan.bounds {
                bounds = bounds.map { min($0.lowerBound, partBounds.lowerBound)...max($0.upperBound, partBounds.upperBound) } ?? partBounds
            }
            if part.rowShift == 0 {
                if page.isEmpty { page = scan.page.sorted() } else { page += scan.page.sorted() }
            } else {
                page += scan.page.sorted().map { ranked in
                    var ranked = ranked
                    ranked.row += part.rowShift
                    return ranked
                }
            }
            if let rowSlots {
                let rows = rowSlots[part.start..<(part.start + scan.total)]
                matchedRows += part.rowShift == 0 ? Array(rows) : rows.map { $0 + part.rowShift }
            }
        }
        if parts.count > 1 { page.sort() }
    }
}
