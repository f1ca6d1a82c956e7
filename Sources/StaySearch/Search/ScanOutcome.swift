/// What the parts of one query's scan collected, merged: the collectors summed, the pages merged in
/// order, the matched rows when kept, the price slot counts summed when counted, and the values side by
/// side at the front of the shared buffer once ``gatherValues(in:)`` has moved them there (only a
/// histogram the slots cannot tell, or the recommended order, needs them).
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
    /// The price slots the values were counted into, with every part's counts summed (the first part's
    /// table), or nil.
    var priceSlots: PriceSlots?
    var slotCounts: UnsafePointer<Int32>?
    /// By granule, the values between granules the parts kept aside, in order (``PriceSlots/tell(_:between:)``).
    var betweenValues: [Int64] = []
    /// The histogram, when counted from the price slots (``countHistogram(of:)``).
    var histogram: PriceHistogram?
    /// The histogram's default high end in whole units of the stay's nights
    /// (``PriceHistogram/defaultHighUnits(_:bounds:unit:threads:)`` of the kept values), when worked out
    /// with the recommended order's median.
    var defaultHighUnits: Int64?
    /// The moves of parts' values still to make, in order, to put them side by side.
    private var pendingMoves: [(from: Int, to: Int, count: Int)] = []

    /// What one scan over the whole of `values` (and `rowSlots`) collected.
    init(_ scan: Scan, rowSlots: UnsafeMutableBufferPointer<Int32>?) {
        valueCount = scan.valueCount
        valueSum = scan.valueSum
        total = scan.total
        bounds = scan.bounds
        page = scan.page.sorted()
        if let rowSlots { matchedRows = Array(rowSlots.prefix(scan.total)) }
        priceSlots = scan.priceSlots
        slotCounts = scan.slotCounts.map { UnsafePointer($0) }
        betweenValues = ScanOutcome.betweenValues(of: CollectionOfOne(scan))
    }

    /// The values between granules `scans` kept aside, in order: as many of each as its room held. No
    /// allocation when none was kept (the common case: every price on the granule, or slots by whole units).
    private static func betweenValues<Scans: Sequence<Scan>>(of scans: Scans) -> [Int64] {
        var kept: [Int64] = []
        for scan in scans {
            guard let between = scan.priceSlots?.betweenSlot, let counts = scan.slotCounts, let room = scan.slotBetween else { continue }
            let count = min(Int(counts[between]), room.count)
            if count > 0 { kept += room.prefix(count) }
        }
        if kept.count > 1 { kept.sort() }
        return kept
    }

    /// Merges `parts`; their values are moved together by ``gatherValues(in:)``.
    init(merging parts: [Part], values: UnsafeMutableBufferPointer<Int64>, rowSlots: UnsafeMutableBufferPointer<Int32>?,
         valueRows: ValueRowSlots? = nil, threads: Int) {
        self.threads = threads
        for part in parts {
            let scan = part.scan
            valueRows?.move(from: part.start, to: valueCount, count: scan.valueCount, rowShift: part.rowShift)
            if part.start != valueCount, scan.valueCount > 0 {
                pendingMoves.append((from: part.start, to: valueCount, count: scan.valueCount))
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
        sumSlotCounts(of: parts)
    }

    /// Sums the parts' price slot counts into the first part's table, over the slots of the values
    /// seen (and the slot of those between granules); none when any part did not count them. Many slots (a
    /// fortnight in dong's ₫1,000 slots reaches a third of a million, 1.4 MB a table) are summed in
    /// stretches on the parts' threads: one thread took 240 µs of a 2.7 ms search at twice the slots.
    private mutating func sumSlotCounts(of parts: [Part]) {
        guard let first = parts.first, let slots = first.scan.priceSlots, let counts = first.scan.slotCounts,
              parts.allSatisfy({ $0.scan.slotCounts != nil }) else { return }
        priceSlots = slots
        slotCounts = UnsafePointer(counts)
        betweenValues = ScanOutcome.betweenValues(of: parts.lazy.map(\.scan))
        guard let bounds, parts.count > 1 else { return }
        let seen = slots.slot(of: bounds.lowerBound)..<(slots.slot(of: bounds.upperBound) + 1)
        let tables = SlotTables(sum: counts, others: parts.dropFirst().map { UnsafePointer($0.scan.slotCounts!) })
        if let between = slots.betweenSlot {
            for own in tables.others { counts[between] &+= own[between] }
        }
        let stretches = seen.count >= ScanOutcome.slotsWorthAThread ? parts.count : 1
        ParallelPasses.run(parts: stretches) { stretch in
            let range = ParallelPasses.stretch(stretch, of: stretches, count: seen.count)
            for own in tables.others {
                for slot in (seen.lowerBound + range.lowerBound)..<(seen.lowerBound + range.upperBound) { tables.sum[slot] &+= own[slot] }
            }
        }
    }

    /// The fewest seen slots summed on several threads.
    static let slotsWorthAThread = 4_096

    /// The slot tables of a scan's parts: the first's, which takes the others' counts, and the others'.
    private struct SlotTables: @unchecked Sendable {
        let sum: UnsafeMutablePointer<Int32>
        let others: [UnsafePointer<Int32>]
    }

    /// The price slots every value was counted into, their summed counts and the values' bounds, when
    /// the scan counted them.
    var countedSlots: (slots: PriceSlots, counts: UnsafePointer<Int32>, between: [Int64], bounds: ClosedRange<Int64>)? {
        guard let priceSlots, let slotCounts, let bounds else { return nil }
        return (priceSlots, slotCounts, betweenValues, bounds)
    }

    /// Counts the histogram of `query` from the price slots into ``histogram``; false when there are
    /// no slots or they cannot tell it.
    mutating func countHistogram(of query: SearchQuery) -> Bool {
        guard let priceSlots, let slotCounts else { return false }
        histogram = PriceHistogram.make(slots: priceSlots, counts: slotCounts, between: betweenValues, valueCount: valueCount,
                                        sum: valueSum, bounds: bounds,
                                        nights: Int64(query.nights ?? 1), bins: query.bins, lo: query.histogramMinimum,
                                        hi: query.histogramMaximum)
        return histogram != nil
    }

    /// Moves the parts' values side by side at the front of `values` (once; later calls do nothing).
    mutating func gatherValues(in values: UnsafeMutableBufferPointer<Int64>) {
        for move in pendingMoves {
            (values.baseAddress! + move.to).update(from: values.baseAddress! + move.from, count: move.count)
        }
        pendingMoves = []
    }
}
