import StaySearch
import StaySearchTestSupport
import Testing

/// Day-by-day prices kept as running sums modulo 2^16: a night is the difference of two sums and a stay
/// the difference of the sums at its ends, exact while it costs less than 65,536 units. Listings dear enough
/// that long stays pass that (from the row's cheapest night when its prices lie close, else from 24-bit sums
/// with the row's carries), calendars that start late or end early (a dense row's window), and rows with a gap or an unpriced
/// night (stored as runs) beside them: every night, search, flexible search and price calendar against the
/// data and the brute-force reference. The same in won: every price × 1,000, the cheap rows' to ₩100, so that
/// rows count units of ₩100 and ₩1,000 (their scales) and are dense as the dollar rows are.
@Suite struct DenseRunningSumsTests {
    /// 300 listings over 70 days: dear and cheap day-by-day prices in runs of ranks, some calendars shorter
    /// than the index's, a few with gaps or unpriced nights; `inWon`: every price × 1,000, and half the cheap
    /// rows' nights to ₩100.
    /// `everyRowDense`: no listing has a gap or an unpriced night, so that whole words of 64 rows are dense;
    /// `oneInFifty`: only every fiftieth listing has them, so that words of 64 rows hold one row that is not dense;
    /// `oneInFour`: a quarter of the listings have them, so that words hold many such rows, at their ends too.
    /// `villas`: one listing in eight is a villa at 70,000–120,000 units a night, past what a code holds alone, so
    /// that its row counts from a base (``NightPrices/denseBases``).
    static func dataset(seed: UInt64, inWon: Bool = false, everyRowDense: Bool = false, oneInFifty: Bool = false,
                        oneInFour: Bool = false, villas: Bool = false) -> TestDataset {
        var random = SeededGenerator(seed: seed &* 7_919 &+ 3)
        let start = TestDataset.calendarStart
        var listings: [ListingRecord] = []
        var nights: [(listingID: Int64, night: CalendarNight)] = []
        for id in Int64(1)...300 {
            // A listing with gaps or nights without a price has no price of its own either (else its nights
            // without one would take it).
            let villa = villas && id % 8 == 5
            let broken = (oneInFifty ? id % 50 == 7 : random.chance(oneInFour ? 0.25 : 0.1) && !everyRowDense) && !villa
            listings.append(ListingRecord(id: id, name: "L\(id)", region: RegionPath(city: random.pick(["Antwerp", "Reykjavík"]), neighbourhood: "Centrum"),
                                          roomType: "Entire home/apt", accommodates: Int.random(in: 1...4, using: &random),
                                          price: broken ? nil : Money(major: 90),
                                          ratingHundredths: random.chance(0.8) ? Int32.random(in: 300...500, using: &random) : nil,
                                          reviewCount: Int32.random(in: 0...200, using: &random)))
            // Dear rows come in stretches of ranks.
            let dear = (id / 128) % 2 == 1 && random.chance(0.7)
            // Half the dear rows keep their prices within 600 units: long stays past 65,536 units stay exact
            // from the row's cheapest night.
            let narrow = dear && random.chance(0.5)
            let first = random.chance(0.2) ? Int.random(in: 1...20, using: &random) : 0
            let end = random.chance(0.2) ? Int.random(in: 45...69, using: &random) : 70
            for offset in first..<end {
                if broken, random.chance(0.05) { continue }                                     // a gap: runs
                let units = villa ? Int64.random(in: 70_000...120_000, using: &random) : narrow ? Int64.random(in: 5_000...5_600, using: &random)
                    : dear ? Int64.random(in: 1_500...6_500, using: &random) : Int64.random(in: 20...400, using: &random)
                var minorUnits = units * 100
                if inWon { minorUnits = minorUnits * 1_000 + (dear || villa ? 0 : Int64.random(in: 0...9, using: &random) * 10_000) }
                let price = broken && random.chance(0.05) ? nil : Money(minorUnits: minorUnits)    // unpriced: runs
                nights.append((id, CalendarNight(day: start.advanced(by: offset), isAvailable: random.chance(0.85), price: price,
                                                 minimumNights: random.pick([nil, 1, 2]), maximumNights: random.pick([nil, nil, 45]))))
            }
        }
        return TestDataset(listings: listings, nights: nights)
    }

    @Test(arguments: 0..<4, [false, true])
    func everyNightIsTheDatasOwn(seed: Int, inWon: Bool) {
        let data = Self.dataset(seed: UInt64(seed), inWon: inWon)
        let index = data.makeIndex().index
        #expect(index.nightPrices.denseRows > 200)
        // Dollars count whole units; won rows their own ₩100 or ₩1,000 (10^4 and 10^5 minor units).
        let scales = Set(index.nightPrices.denseScales.array)
        #expect(scales == (inWon ? [4, 5] : [NightPrices.wholeUnitScale]))
        // Dear rows and cheap ones (in won, cheap rows count ₩100: 10 codes a dollar row's unit).
        #expect(index.nightPrices.denseMaxima.array.contains { $0 >= 6_000 }
                && index.nightPrices.denseMaxima.array.contains { $0 <= (inWon ? 4_009 : 400) })
        Self.checkEveryNight(of: index, against: data)
    }

    /// Each listing's nights in `index` are as `data` gives them: a price, a night without one, or no calendar row.
    static func checkEveryNight(of index: ListingIndex, against data: TestDataset) {
        // Each listing's nights as given: a price in minor units, or -1 for a night without one.
        var stored: [Int64: [Day: Int64]] = [:]
        for (id, night) in data.nights { stored[id, default: [:]][night.day] = night.price?.minorUnits ?? -1 }
        let start = TestDataset.calendarStart
        for row in 0..<index.count {
            let id = index.listing(atRow: row).id
            for night in index.nights(ofRow: row, from: start.advanced(by: -2), to: start.advanced(by: 72)) {
                switch stored[id]?[night.day] {
                case nil:
                    let covered = night.day >= index.firstDay && night.day < index.firstDay.advanced(by: index.dayCount)
                    #expect(night.status == (covered ? .noCalendarRow : .outsideCalendar), "listing \(id) \(night.day)")
                case -1: #expect(night.status == .unpriced, "listing \(id) \(night.day)")
                case let price?: #expect(night.price?.minorUnits == price && night.status != .outsideCalendar && night.status != .noCalendarRow, "listing \(id) \(night.day)")
                }
            }
        }
    }

    @Test(arguments: 0..<4, [false, true])
    func staysOfAnyLengthAreTheReferences(seed: Int, inWon: Bool) throws {
        try Self.checkStaysOfAnyLength(in: Self.dataset(seed: UInt64(seed), inWon: inWon), seed: seed, inWon: inWon)
    }

    /// The same where whole words of rows are dense, so that a word's stays are worked out at once
    /// (``staysearch_dense_word_totals``), and dear rows' long stays in stretches of nights.
    @Test(arguments: 0..<2, [false, true])
    func wordsOfDenseRowsAreTheReferences(seed: Int, inWon: Bool) throws {
        let data = Self.dataset(seed: UInt64(seed), inWon: inWon, everyRowDense: true)
        #expect(data.makeIndex().index.nightPrices.denseRows == 300)
        try Self.checkStaysOfAnyLength(in: data, seed: seed, inWon: inWon)
    }

    /// The same where words of 64 rows hold one row that is not dense: the word's dense rows worked out at
    /// once, the rows after the one apart taking the ranks one less than their place, and that row priced alone.
    @Test(arguments: 0..<2, [false, true])
    func wordsOfDenseRowsButOneAreTheReferences(seed: Int, inWon: Bool) throws {
        let data = Self.dataset(seed: UInt64(seed), inWon: inWon, oneInFifty: true)
        let index = data.makeIndex().index
        let runs = index.nightPrices.runs
        let dense = (0..<index.count).map { runs.values[Int(runs.offsets[$0])] < -(Int32(1) << 30) }
        let wordsButOne = stride(from: 0, to: index.count - 63, by: 64).filter { word in dense[word..<word + 64].filter { !$0 }.count == 1 }
        #expect(!wordsButOne.isEmpty, "words of 64 rows with one row apart: \(wordsButOne.count)")
        try Self.checkStaysOfAnyLength(in: data, seed: seed, inWon: inWon)
    }

    /// The same where a quarter of the rows are not dense, so that words of 64 rows hold several of them, as their
    /// first or last row too: the word's dense rows worked out at once (the k-th taking the k-th rank from the
    /// word's first), each other row priced alone where it stands.
    @Test(arguments: 0..<2, [false, true])
    func wordsOfDenseRowsAmongOthersAreTheReferences(seed: Int, inWon: Bool) throws {
        let data = Self.dataset(seed: UInt64(seed), inWon: inWon, oneInFour: true)
        let index = data.makeIndex().index
        let runs = index.nightPrices.runs
        let dense = (0..<index.count).map { runs.values[Int(runs.offsets[$0])] < -(Int32(1) << 30) }
        let words = stride(from: 0, to: index.count - 63, by: 64).map { Array(dense[$0..<$0 + 64]) }
        #expect(words.contains { $0.filter { !$0 }.count >= 8 && $0.filter { $0 }.count >= 40 })
        #expect(words.contains { !$0[0] || !$0[63] }, "a word whose first or last row is not dense")
        #expect(index.nightPrices.denseWordMasks.array.prefix(words.count).map(\.nonzeroBitCount)
                == words.map { $0.filter { $0 }.count })
        try Self.checkStaysOfAnyLength(in: data, seed: seed, inWon: inWon)
    }

    /// Forty searches of 1 to 60 nights, with and without regions, price ranges and flexible dates, in four
    /// orders, on one and two threads: the same answers as the reference, stays of 65,536 units or more among them.
    static func checkStaysOfAnyLength(in data: TestDataset, seed: Int, inWon: Bool) throws {
        let index = data.makeIndex().index
        // The dear rows of a wide spread (1,500–6,500 units) keep carries; the narrow and cheap ones do not.
        #expect(index.nightPrices.carriedRows > 10 && index.nightPrices.carriedRows < index.nightPrices.denseRows / 2)
        var random = SeededGenerator(seed: UInt64(seed) &+ 41)
        var found = 0, dearStays = 0
        for queryNumber in 0..<40 {
            var query = SearchQuery(region: queryNumber % 3 == 1 ? "Antwerp" : nil, adults: random.pick([1, 2]))
            let length = [1, 3, 7, 10, 14, 16, 21, 30, 45, 60][queryNumber % 10]
            let checkIn = Int.random(in: -1...(70 - length), using: &random)
            query.checkIn = TestDataset.calendarStart.advanced(by: checkIn)
            query.checkOut = query.checkIn!.advanced(by: length)
            if queryNumber % 7 == 3 { query.maximumPrice = Money(major: random.pick([300, 5_000]) * (inWon ? 1_000 : 1)) }
            if queryNumber % 4 == 2 { query.flexibleDays = random.pick([1, 3]) }
            query.sort = [SortOrder.price, .priceDescending, .recommended, .rating][queryNumber % 4]
            query.limit = random.pick([10, 50])
            let want = try ReferenceSearch.search(query, in: data)
            found += want.total
            dearStays += want.totalPrices.compactMap { $0 }.filter { $0 >= 65_536 * 100 }.count
            for threads in [1, 2] {
                let got = ReferenceAnswer(try index.search(query, threads: threads, minimumRowsPerPart: 64))
                #expect(got == want, "query \(queryNumber), \(threads) threads: \(query)")
            }
        }
        #expect(found > 500)
        #expect(dearStays > 5, "stays costing 65,536 units or more are tested")
    }

    /// Villas dearer than 65,535 units a night (in won, ₩70–₩120 million to the ₩1,000) are dense all the same,
    /// their codes counted from a base: every night, stay, flexible search and price calendar as the data's and the
    /// reference's, in words of dense rows alone and among others.
    @Test(arguments: 0..<2, [false, true])
    func villasCountedFromABaseAreTheReferences(seed: Int, inWon: Bool) throws {
        for everyRowDense in [false, true] {
            let data = Self.dataset(seed: UInt64(seed), inWon: inWon, everyRowDense: everyRowDense, villas: true)
            let index = data.makeIndex().index
            let bases = index.nightPrices.denseBases.array
            #expect(bases.count == index.nightPrices.denseRows && bases.filter { $0 != 0 }.count >= 30)
            #expect(bases.filter { $0 != 0 }.allSatisfy { $0 >= 70_000 })
            #expect(everyRowDense == (index.nightPrices.denseRows == 300))
            Self.checkEveryNight(of: index, against: data)
            try Self.checkStaysOfAnyLength(in: data, seed: seed, inWon: inWon)
            try Self.checkPriceCalendars(of: index, against: data, seed: seed)
            // A calendar's span prices bound a villa by its nights (copied, or irregular when wide), not by its codes.
            let start = index.firstDay.distance(to: TestDataset.calendarStart)
            let span = SpanPrices(of: index, from: start + 10, to: start + 40, nights: 3, scale: index.calendarScale)
            let villaRows = (0..<index.count).filter { index.listing(atRow: $0).id % 8 == 5 }
            #expect(villaRows.count >= 30 && villaRows.allSatisfy { span.lows[$0] == -1 || span.lows[$0] >= 70_000 })
            // The villas' calendar alone: their stays' totals are each day's lowest and median.
            try Self.checkPriceCalendars(of: index, against: data, seed: seed, minimumPrice: Money(major: 60_000 * (inWon ? 1_000 : 1)))
        }
    }

    @Test(arguments: 0..<4, [false, true])
    func priceCalendarsAreTheReferences(seed: Int, inWon: Bool) throws {
        let data = Self.dataset(seed: UInt64(seed), inWon: inWon)
        try Self.checkPriceCalendars(of: data.makeIndex().index, against: data, seed: seed)
    }

    /// Price calendars of 3, 14 and 25 nights over `index` as the reference finds them in `data`, of the stays from
    /// `minimumPrice` a night when given.
    static func checkPriceCalendars(of index: ListingIndex, against data: TestDataset, seed: Int, minimumPrice: Money? = nil) throws {
        for nights in [3, 14, 25] {
            var query = SearchQuery(adults: 1)
            query.minimumPrice = minimumPrice
            query.checkInFrom = TestDataset.calendarStart.advanced(by: seed)
            query.checkInTo = query.checkInFrom!.advanced(by: min(61, 70 - nights - seed))
            query.windowNights = nights
            let calendar = try index.priceCalendar(query, threads: seed % 2 + 1)
            PriceCalendarTests.check(calendar, of: query, context: "seed \(seed), \(nights) nights") { q throws(QueryError) in
                try ReferenceSearch.search(q, in: data)
            }
        }
    }
}
