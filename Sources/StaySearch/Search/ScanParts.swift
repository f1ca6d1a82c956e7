import Dispatch

/// A query's candidate rows cut into parts of about equal size, each scanned on a thread of its own
/// into its own stretch of one value buffer: the parts' results merged are those of one scan.
package struct ScanParts {
    /// Each part's row ranges, in row order.
    package let ranges: [[Range<Int>]]
    /// Where each part's values start in the shared buffer: the rows of the parts before it.
    package let valueStarts: [Int]

    /// The number of parts.
    package var count: Int { ranges.count }

    /// Cuts `ranges` (`rowCount` rows in all) into `count` parts, splitting a range where a part fills.
    package init(ranges: [Range<Int>], rowCount: Int, count: Int) {
        guard count > 1, rowCount > 0 else {
            self.ranges = [ranges]
            valueStarts = [0]
            return
        }
        let perPart = (rowCount + count - 1) / count
        var parts: [[Range<Int>]] = [[]]
        var starts = [0]
        var filled = 0
        for range in ranges {
            var rest = range
            while !rest.isEmpty {
                let take = min(rest.count, perPart - filled)
                parts[parts.count - 1].append(rest.lowerBound..<(rest.lowerBound + take))
                rest = (rest.lowerBound + take)..<rest.upperBound
                filled += take
                if filled == perPart, parts.count < count {
                    starts.append(starts[starts.count - 1] + filled)
                    parts.append([])
                    filled = 0
                }
            }
        }
        if parts.count > 1, parts[parts.count - 1].isEmpty {
            parts.removeLast()
            starts.removeLast()
        }
        self.ranges = parts
        valueStarts = starts
    }

    /// Scans every part at once, each on its own thread.
    /// - Returns: the scans, in part order.
    func scanInParallel(index: ListingIndex, query: SearchQuery, roomCode: Int, filter: ListingFilter, values: UnsafeMutableBufferPointer<Int64>,
                        rowSlots: UnsafeMutableBufferPointer<Int32>?, valueRows: ValueRowSlots? = nil,
                        slotTables: PriceSlotTables? = nil, kept: KeptMatches? = nil, keptStarts: [Int] = []) -> [Scan] {
        let results = ScanResults(count: count)
        let shared = SharedValues(buffer: values)
        let sharedRows = SharedRows(buffer: rowSlots)
        let ranges = self.ranges, starts = valueStarts
        DispatchQueue.concurrentPerform(iterations: ranges.count) { part in
            let rows = ranges[part].reduce(0) { $0 + $1.count }
            // (No values are kept when they are counted into price slots, unless the recommended order ranks them.)
            let stretch = slotTables != nil && valueRows == nil ? shared.buffer
                : UnsafeMutableBufferPointer(rebasing: shared.buffer[starts[part]..<(starts[part] + rows)])
            var scan = Scan(index: index, query: query, roomCode: roomCode, filter: filter, values: stretch,
                            rowSlots: sharedRows.buffer.map { $0.baseAddress! + starts[part] },
                            valueRows: valueRows?.advanced(by: starts[part]), slotTables: slotTables,
                            kept: kept?.advanced(by: keptStarts[part], part: part), part: part)
            scan.visit(ranges[part])
            results.store(scan, at: part)
        }
        return results.scans.map { $0! }
    }
}

/// The value buffer, shared by the parts' threads: each writes only its own stretch.
private struct SharedValues: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Int64>
}

/// The matched-row buffer, shared by the parts' threads the same way.
private struct SharedRows: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Int32>?
}

/// The parts' finished scans; each slot is written by one thread, and read after all have finished.
private final class ScanResults: @unchecked Sendable {
    private(set) var scans: [Scan?]

    init(count: Int) { scans = Array(repeating: nil, count: count) }

    func store(_ scan: Scan, at part: Int) {
        scans.withUnsafeMutableBufferPointer { $0[part] = scan }
    }
}
