import StaySearchKernels

/// The listings' fees as the index keeps them: a bit set of the rows that have fees, the count of such
/// rows before each word of it, and ``entryWords`` planes of one word for each of them in row order, so that
/// a row with fees costs 16 bytes and a row without none beyond its bit. Empty when no listing has fees.
///
/// An entry's words, plane by plane: the cleaning fee in minor units; the extra-guest fee in minor units
/// shifted left 8 bits, or'ed with the guests included; the weekly discount's basis points, or'ed with the
/// monthly one's shifted left 16 bits; the security deposit in minor units (0: none). In planes, a search
/// reads only the words its stays need: the cleaning fees, the guests' words when it has more than one
/// guest, the discounts from 7 nights (1M listings, 90 % with fees: entries of 16 bytes made a search over
/// every listing read half again as many bytes).
struct FeeTable: @unchecked Sendable {
    /// Words an entry takes.
    static let entryWords = 4

    let rows: UnsafePointer<UInt64>?
    let ranks: UnsafePointer<UInt32>?
    let entries: UnsafePointer<UInt32>?
    /// The rows with fees: the words of each plane.
    let count: Int

    init(_ storage: IndexStorage) {
        rows = storage.feeRows.count == 0 ? nil : storage.feeRows.withUnsafeBufferPointer { $0.baseAddress }
        ranks = storage.feeRanks.count == 0 ? nil : storage.feeRanks.withUnsafeBufferPointer { $0.baseAddress }
        entries = storage.feeEntries.count == 0 ? nil : storage.feeEntries.withUnsafeBufferPointer { $0.baseAddress }
        count = storage.feeEntries.count / FeeTable.entryWords
    }

    /// Whether no listing has fees.
    var isEmpty: Bool { rows == nil }

    /// The rank of row `row` among the rows with fees (its word in each plane), or nil when it has none.
    @inline(__always)
    func rank(ofRow row: Int) -> Int? {
        guard let rows, let ranks else { return nil }
        let word = rows[row &>> 6], bit = UInt64(row & 63)
        guard word >> bit & 1 == 1 else { return nil }
        return Int(ranks[row &>> 6]) &+ (word & ((1 &<< bit) &- 1)).nonzeroBitCount
    }

    /// Word `plane` of the entry of rank `rank`.
    @inline(__always)
    func word(_ plane: Int, ofRank rank: Int) -> UInt32 { entries![plane &* count &+ rank] }

    /// The fees of row `row`, if it has any.
    func fees(ofRow row: Int) -> ListingFees? {
        guard let rank = rank(ofRow: row) else { return nil }
        let entry = (0..<FeeTable.entryWords).map { word($0, ofRank: rank) }
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

    /// The three columns of `feesOfRow` (rows in order, each with its fees) for `rowCount` rows, the
    /// entries in planes: all empty when no row has fees.
    static func columns(rowCount: Int, feesOfRow: [(row: Int, fees: ListingFees)])
        -> (rows: Column<UInt64>, ranks: Column<UInt32>, entries: Column<UInt32>) {
        guard !feesOfRow.isEmpty else { return (.empty, .empty, .empty) }
        let words = (rowCount + 63) / 64
        var bits = [UInt64](repeating: 0, count: words)
        var entries = [UInt32](repeating: 0, count: feesOfRow.count * entryWords)
        for (rank, (row, fees)) in feesOfRow.enumerated() {
            bits[row >> 6] |= 1 << UInt64(row & 63)
            for (plane, word) in entry(of: fees).enumerated() { entries[plane * feesOfRow.count + rank] = word }
        }
        var ranks = [UInt32](repeating: 0, count: words)
        var before: UInt32 = 0
        for word in 0..<words {
            ranks[word] = before
            before += UInt32(bits[word].nonzeroBitCount)
        }
        return (Column(bits), Column(ranks), Column(entries))
    }

    /// What turns a stay of `nights` nights and `guests` guests into its trip price, with a service fee of
    /// `serviceFee` basis points, for ``tripPrices(_:written:word:terms:)``.
    static func terms(nights: Int64, guests: Int, serviceFee: Int64) -> staysearch_trip_terms {
        staysearch_trip_terms(nights: nights, guests: Int64(guests), service_fee: serviceFee,
                              discount: nights >= 28 ? 2 : nights >= 7 ? 1 : 0)
    }

    /// Replaces the nights' sums in `values` of word `word`'s rows `written` (one value a bit, in order) by
    /// their trip prices (``TripPrice``), the same as ``tripPrice(_:row:nights:guests:serviceFee:)`` row by row.
    @inline(__always)
    func tripPrices(_ values: UnsafeMutablePointer<Int64>, written: UInt64, word: Int, terms: UnsafePointer<staysearch_trip_terms>) {
        let feeWord = rows?[word] ?? 0
        guard feeWord & written != 0 || terms.pointee.service_fee != 0 else { return }
        staysearch_trip_prices(values, written, feeWord, entries.map { $0 + Int(ranks![word]) }, count, terms)
    }

    /// What turns the nights' sums of row `row`'s stays of `nights` nights for `guests` guests into their
    /// trip prices (``RowTripTerms``), its fees read once.
    @inline(__always)
    func terms(ofRow row: Int, nights: Int64, guests: Int, serviceFee: Int64) -> RowTripTerms {
        guard let rank = rank(ofRow: row) else { return RowTripTerms(discount: 0, added: 0, serviceFee: serviceFee) }
        return RowTripTerms(discount: discount(ofRank: rank, nights: nights), added: feesAdded(ofRank: rank, nights: nights, guests: guests),
                            serviceFee: serviceFee)
    }

    /// The discount in basis points the entry of rank `rank` gives a stay of `nights` nights (0 for none).
    @inline(__always)
    func discount(ofRank rank: Int, nights: Int64) -> Int64 {
        let discounts = word(2, ofRank: rank)
        let weekly = Int64(discounts & 0xFFFF), monthly = Int64(discounts >> 16)
        return nights >= 28 && monthly > 0 ? monthly : nights >= 7 ? weekly : 0
    }

    /// The fees the entry of rank `rank` adds to a stay of `nights` nights for `guests` guests, in minor units:
    /// the cleaning fee and the extra guests'.
    @inline(__always)
    func feesAdded(ofRank rank: Int, nights: Int64, guests: Int) -> Int64 {
        let guestWord = word(1, ofRank: rank)
        let above = Int64(max(0, guests &- Int(guestWord & 0xFF)))
        return above &* Int64(guestWord >> 8) &* nights &+ Int64(word(0, ofRank: rank))
    }

    /// For stays of `nights` nights and `guests` guests without a service fee: the rows of word `word` among `lanes`
    /// (bit *k*: row 64 × `word` + *k*) whose trip price is their nights' sum plus fees of a whole number of
    /// `unit` minor units — no discount applies to the stay — that keep their dearest stay (`highs[k]`, units)
    /// within `largest` units. Each such lane's fees, in units, go to `added[k]`, 0 to the other lanes of `lanes`
    /// with fees; the rest are left as they are.
    /// - Complexity: O(*r*) for the *r* rows of `lanes` with fees.
    func wholeUnitFees(word: Int, lanes: UInt64, nights: Int64, guests: Int, unit: Int64, highs: UnsafePointer<UInt16>,
                       largest: Int64, into added: UnsafeMutablePointer<UInt16>) -> UInt64 {
        guard let rows, let ranks, let entries, rows[word] & lanes != 0 else { return 0 }
        return staysearch_whole_unit_fees(rows[word], lanes, entries + Int(ranks[word]), count, nights, Int64(guests), unit, highs, largest, added)
    }

    /// The trip price of a stay at row `row` whose nights sum to `sum` (``TripPrice``).
    @inline(__always)
    func tripPrice(_ sum: Int64, row: Int, nights: Int64, guests: Int, serviceFee: Int64) -> Int64 {
        terms(ofRow: row, nights: nights, guests: guests, serviceFee: serviceFee).tripPrice(sum)
    }

}

/// One row's trip price terms for one stay length and party (``FeeTable/terms(ofRow:nights:guests:serviceFee:)``):
/// the discount in basis points, the fees added (cleaning, extra guests) and the service fee in basis points.
struct RowTripTerms {
    let discount: Int64
    let added: Int64
    let serviceFee: Int64

    /// The trip price of a stay whose nights sum to `sum` (``TripPrice``): it never falls as `sum` grows.
    @inline(__always)
    func tripPrice(_ sum: Int64) -> Int64 {
        var base = sum &+ added
        if discount != 0 { base &-= (sum &* discount &+ 5_000) / 10_000 }
        return serviceFee == 0 ? base : base &+ (base &* serviceFee &+ 5_000) / 10_000
    }
}

extension IndexStorage {
    /// Lays the fee entries out in planes (`inPlanes`, as the engine reads them) from one entry after another
    /// (as format 6 of the index file kept them), or back.
    package mutating func arrangeFeeEntries(inPlanes: Bool) {
        let words = FeeTable.entryWords, count = feeEntries.count / words
        guard count > 0 else { return }
        var arranged = [UInt32](repeating: 0, count: count * words)
        for rank in 0..<count {
            for plane in 0..<words {
                if inPlanes {
                    arranged[plane * count + rank] = feeEntries[rank * words + plane]
                } else {
                    arranged[rank * words + plane] = feeEntries[plane * count + rank]
                }
            }
        }
        feeEntries = Column(arranged)
    }

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
        for rank in 0..<before {
            guard feeEntries[rank] <= UInt32(Int32.max), feeEntries[before + rank] & 0xFF >= 1,
                  feeEntries[2 * before + rank] & 0xFFFF <= UInt32(ListingFees.largestDiscount),
                  feeEntries[2 * before + rank] >> 16 <= UInt32(ListingFees.largestDiscount),
                  feeEntries[3 * before + rank] <= UInt32(Int32.max) else {
                throw IndexCorruption("a listing's fees are out of bounds")
            }
        }
    }
}
