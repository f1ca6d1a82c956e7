/// The listings' fees as the index keeps them: a bit set of the rows that have fees, the count of such
/// rows before each word of it, and ``entryWords`` words for each of them in row order, so that a row
/// with fees costs 16 bytes and a row without none beyond its bit. Empty when no listing has fees.
///
/// An entry's words: the cleaning fee in minor units; the extra-guest fee in minor units shifted left 8
/// bits, or'ed with the guests included; the weekly discount's basis points, or'ed with the monthly one's
/// shifted left 16 bits; the security deposit in minor units (0: none).
struct FeeTable: @unchecked Sendable {
    /// Words an entry takes.
    static let entryWords = 4

    let rows: UnsafePointer<UInt64>?
    let ranks: UnsafePointer<UInt32>?
    let entries: UnsafePointer<UInt32>?

    init(_ storage: IndexStorage) {
        rows = storage.feeRows.count == 0 ? nil : storage.feeRows.withUnsafeBufferPointer { $0.baseAddress }
        ranks = storage.feeRanks.count == 0 ? nil : storage.feeRanks.withUnsafeBufferPointer { $0.baseAddress }
        entries = storage.feeEntries.count == 0 ? nil : storage.feeEntries.withUnsafeBufferPointer { $0.baseAddress }
    }

    /// Whether no listing has fees.
    var isEmpty: Bool { rows == nil }

    /// Where row `row`'s entry starts, or nil when it has no fees.
    @inline(__always)
    func entry(ofRow row: Int) -> UnsafePointer<UInt32>? {
        guard let rows, let ranks, let entries else { return nil }
        let word = rows[row &>> 6], bit = UInt64(row & 63)
        guard word >> bit & 1 == 1 else { return nil }
        let rank = Int(ranks[row &>> 6]) &+ (word & ((1 &<< bit) &- 1)).nonzeroBitCount
        return entries + rank &* FeeTable.entryWords
    }

    /// The fees of row `row`, if it has any.
    func fees(ofRow row: Int) -> ListingFees? {
        guard let entry = entry(ofRow: row) else { return nil }
        func money(_ value: UInt32) -> Money? { value == 0 ? nil : Money(minorUnits: Int64(value)) }
        return ListingFees(cleaningFee: money(entry[0]), guestsIncluded: Int(entry[1] & 0xFF), extraGuestFee: money(entry[1] >> 8),
                           weeklyDiscountBasisPoints: Int(entry[2] & 0xFFFF), monthlyDiscountBasisPoints: Int(entry[2] >> 16),
                           securityDeposit: money(entry[3]))
    }

    /// The entry of `fees`, clamped to what an entry holds (the loader rejects fees beyond it).
    static func entry(of fees: ListingFees) -> [UInt32] {
        func stored(_ money: Money?, _ largest: Money) -> UInt32 { UInt32(max(0, min(money?.minorUnits ?? 0, largest.minorUnits))) }
        let included = UInt32(max(1, min(fees.guestsIncluded, ListingFees.largestGuestsIncluded)))
        func discount(_ basisPoints: Int) -> UInt32 { UInt32(max(0, min(basisPoints, ListingFees.largestDiscount))) }
        return [stored(fees.cleaningFee, ListingFees.largestAmount),
                stored(fees.extraGuestFee, ListingFees.largestExtraGuestFee) << 8 | included,
                discount(fees.weeklyDiscountBasisPoints) | discount(fees.monthlyDiscountBasisPoints) << 16,
                stored(fees.securityDeposit, ListingFees.largestAmount)]
    }

    /// The three columns of `feesOfRow` (rows in order, each with its fees) for `rowCount` rows: all
    /// empty when no row has fees.
    static func columns(rowCount: Int, feesOfRow: [(row: Int, fees: ListingFees)])
        -> (rows: Column<UInt64>, ranks: Column<UInt32>, entries: Column<UInt32>) {
        guard !feesOfRow.isEmpty else { return (.empty, .empty, .empty) }
        let words = (rowCount + 63) / 64
        var bits = [UInt64](repeating: 0, count: words)
        var entries: [UInt32] = []
        entries.reserveCapacity(feesOfRow.count * entryWords)
        for (row, fees) in feesOfRow {
            bits[row >> 6] |= 1 << UInt64(row & 63)
            entries.append(contentsOf: entry(of: fees))
        }
        var ranks = [UInt32](repeating: 0, count: words)
        var before: UInt32 = 0
        for word in 0..<words {
            ranks[word] = before
            before += UInt32(bits[word].nonzeroBitCount)
        }
        return (Column(bits), Column(ranks), Column(entries))
    }

    /// Replaces each of `count` nights' sums in `values` (of rows `rows`) by its trip price for a stay of
    /// `nights` nights and `guests` guests with a service fee of `serviceFee` basis points (``TripPrice``).
    @inline(never)
    func tripPrices(_ values: UnsafeMutablePointer<Int64>, rows: UnsafePointer<Int32>, count: Int, nights: Int64, guests: Int,
                    serviceFee: Int) {
        let fee = Int64(serviceFee)
        for i in 0..<count {
            values[i] = tripPrice(values[i], row: Int(rows[i]), nights: nights, guests: guests, serviceFee: fee)
        }
    }

    /// The trip price of a stay at row `row` whose nights sum to `sum` (``TripPrice``).
    @inline(__always)
    func tripPrice(_ sum: Int64, row: Int, nights: Int64, guests: Int, serviceFee: Int64) -> Int64 {
        var base = sum
        if let entry = entry(ofRow: row) {
            let weekly = Int64(entry[2] & 0xFFFF), monthly = Int64(entry[2] >> 16)
            let discount = nights >= 28 && monthly > 0 ? monthly : nights >= 7 ? weekly : 0
            let above = Int64(max(0, guests &- Int(entry[1] & 0xFF)))
            base = sum &- (sum &* discount &+ 5_000) / 10_000 &+ above &* Int64(entry[1] >> 8) &* nights &+ Int64(entry[0])
        }
        return base &+ (base &* serviceFee &+ 5_000) / 10_000
    }
}

extension IndexStorage {
    /// Checks the fee columns: all empty, or a bit set and ranks of a day's words, ranks that count the
    /// bits before them, entries for every bit, and entries within their bounds.
    func checkFees(shape: IndexShape) throws(IndexCorruption) {
        if feeRows.count == 0, feeRanks.count == 0, feeEntries.count == 0 { return }
        guard feeRows.count == shape.wordsPerDay, feeRanks.count == shape.wordsPerDay else {
            throw IndexCorruption("the fee sections do not match the listings")
        }
        var before = 0
        for word in 0..<shape.wordsPerDay {
            guard Int(feeRanks[word]) == before else { throw IndexCorruption("the fee ranks are damaged") }
            before += feeRows[word].nonzeroBitCount
        }
        if shape.rows & 63 != 0, shape.wordsPerDay > 0, feeRows[shape.wordsPerDay - 1] >> UInt64(shape.rows & 63) != 0 {
            throw IndexCorruption("the fee rows name a listing past the last")
        }
        guard feeEntries.count == before * FeeTable.entryWords else { throw IndexCorruption("the fee entries do not match their rows") }
        for entry in 0..<before {
            let base = entry * FeeTable.entryWords
            guard feeEntries[base] <= UInt32(Int32.max), feeEntries[base + 1] & 0xFF >= 1,
                  feeEntries[base + 2] & 0xFFFF <= UInt32(ListingFees.largestDiscount),
                  feeEntries[base + 2] >> 16 <= UInt32(ListingFees.largestDiscount), feeEntries[base + 3] <= UInt32(Int32.max) else {
                throw IndexCorruption("a listing's fees are out of bounds")
            }
        }
    }
}
