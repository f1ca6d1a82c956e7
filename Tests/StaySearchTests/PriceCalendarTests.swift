import StayData
import StaySearch
import StaySearchKernels
import StaySearchTestSupport
import Testing

/// The price calendar against one exact search per check-in day, and against the brute-force reference.
@Suite struct PriceCalendarTests {
    /// A random calendar query: the listing filters of a random search, a range of check-ins (sometimes
    /// partly outside the calendar, now and then too long) and a number of nights.
    static func randomCalendarQuery(_ data: TestDataset, using random: inout SeededGenerator) -> SearchQuery {
        var query = data.randomQuery(using: &random)
        query.checkIn = nil
        query.checkOut = nil
        query.flexibleDays = nil
        query.checkInWeekdays = []
        let from = TestDataset.calendarStart.advanced(by: Int.random(in: -6...80, using: &random))
        query.checkInFrom = from
        query.checkInTo = from.advanced(by: random.chance(0.03) ? 62 : Int.random(in: 0...61, using: &random))
        query.windowNights = random.pick([1, 1, 2, 3, 3, 4, 7, 14])
        query.today = random.chance(0.2) ? from.advanced(by: Int.random(in: -3...10, using: &random)) : nil
        return query
    }

    /// The exact search of one check-in of `query`, every stay listed in price order.
    static func daySearch(_ query: SearchQuery, checkIn: Day) -> SearchQuery {
        var day = query
        day.checkInFrom = nil
        day.checkInTo = nil
        day.windowNights = nil
        day.checkIn = checkIn
        day.checkOut = checkIn.advanced(by: query.windowNights!)
        day.sort = .price
        day.limit = SearchQuery.limitRange.upperBound
        day.offset = 0
        return day
    }

    /// Count, lowest and lower-median total of an answer listing every stay in price order.
    static func summary(_ answer: ReferenceAnswer) -> (Int, Int64?, Int64?) {
        let totals = answer.totalPrices.compactMap { $0 }
        precondition(totals.count == answer.total, "every stay listed")
        return (answer.total, totals.first, totals.isEmpty ? nil : totals[(totals.count - 1) / 2])
    }

    static func summary(_ day: PriceCalendarDay) -> (Int, Int64?, Int64?) {
        (day.count, day.lowest?.minorUnits, day.median?.minorUnits)
    }

    /// Checks every day of `calendar` against `search` (an exact search per check-in day).
    static func check(_ calendar: PriceCalendar, of query: SearchQuery, context: String,
                      search: (SearchQuery) throws(QueryError) -> ReferenceAnswer) {
        let from = query.checkInFrom!, nights = query.windowNights!
        #expect(calendar.days.map(\.checkIn) == (0...from.distance(to: query.checkInTo!)).map { from.advanced(by: $0) }, "\(context)")
        for day in calendar.days {
            let expected: PriceCalendarDay.Status = query.today.map { day.checkIn < $0 } == true ? .beforeToday
                : day.checkIn < calendar.firstDay || day.checkIn.advanced(by: nights) > calendar.endDay ? .outsideData : .open
            #expect(day.status == expected, "\(context) \(day.checkIn)")
            guard day.status == .open else {
                #expect(day.count == 0 && day.lowest == nil && day.median == nil)
                continue
            }
            do throws(QueryError) {
                let answer = try search(daySearch(query, checkIn: day.checkIn))
                #expect(summary(day) == summary(answer), "\(context) \(day.checkIn): \(summary(day)) vs \(summary(answer))")
            } catch {
                Issue.record("\(context) \(day.checkIn): the day's search failed: \(error)")
            }
        }
    }

    /// Every fourth seed with wide prices (up to 1,000,000,000.00 a night).
    @Test(arguments: 0..<60)
    func everyDayIsTheExactSearchOfThatCheckIn(seed: Int) throws {
        let drawn = TestDataset.random(seed: UInt64(seed) + 7_100)
        let data = seed % 4 == 3 ? drawn.withWidePrices(seed: UInt64(seed)) : drawn
        let index = data.makeIndex().index
        var random = SeededGenerator(seed: UInt64(seed) &* 131 + 5)
        for round in 0..<12 {
            let query = Self.randomCalendarQuery(data, using: &random)
            let context = "seed \(seed) round \(round): \(query)"
            let calendar: PriceCalendar
            do throws(QueryError) {
                // Every third round with brackets so narrow that most days' medians miss them and are
                // tallied again.
                let sampling = round % 3 == 2 ? CalendarSampling(every: round % 2 + 1, minimumStays: 1, standardErrors: 0) : .standard
                calendar = try index.priceCalendar(query, threads: round % 2 + 1, coveredDays: index.dayCount, live: nil, sampling: sampling)
            } catch {
                // Refused as the search of the window is, for the same reason.
                #expect(throws: QueryError.self) { try ReferenceSearch.search(query, in: data) }
                continue
            }
            Self.check(calendar, of: query, context: context + " (engine)") { q throws(QueryError) in ReferenceAnswer(try index.search(q)) }
            Self.check(calendar, of: query, context: context + " (reference)") { q throws(QueryError) in try ReferenceSearch.search(q, in: data) }
        }
    }

    /// With fees and a service fee, each day's count, lowest and median are those of its trip prices: the
    /// exact search of that check-in and the reference's trip prices from SPEC's formulas.
    @Test(arguments: 0..<16)
    func aCalendarWithFeesIsTheExactSearchOfItsTripPrices(seed: Int) throws {
        // Odd seeds with enough listings for whole words of 64 rows, counted a word at a time.
        let drawn = TestDataset.random(seed: UInt64(seed) + 7_900, maximumListings: seed % 2 == 0 ? 120 : 400).withRandomFees(seed: UInt64(seed))
        let data = seed % 4 == 2 ? drawn.withWidePrices(seed: UInt64(seed)) : drawn
        let index = data.makeIndex().index
        #expect(index.hasFees)
        var random = SeededGenerator(seed: UInt64(seed) &* 137 + 11)
        for round in 0..<8 {
            var query = Self.randomCalendarQuery(data, using: &random)
            query.serviceFeeBasisPoints = round % 2 == 0 ? 0 : random.pick([1, 1_250, 1_420])
            query.adults = random.pick([1, 2, 3, 5])
            let context = "seed \(seed) round \(round): \(query)"
            let calendar: PriceCalendar
            do throws(QueryError) {
                let sampling = round % 3 == 2 ? CalendarSampling(every: 2, minimumStays: 1, standardErrors: 0) : .standard
                calendar = try index.priceCalendar(query, threads: round % 2 + 1, coveredDays: index.dayCount, live: nil, sampling: sampling)
            } catch {
                #expect(throws: QueryError.self) { try ReferenceSearch.search(query, in: data) }
                continue
            }
            Self.check(calendar, of: query, context: context + " (engine)") { q throws(QueryError) in ReferenceAnswer(try index.search(q)) }
            Self.check(calendar, of: query, context: context + " (reference)") { q throws(QueryError) in try ReferenceSearch.search(q, in: data) }
        }
    }

    /// Generated listings with fees (whole dollars, as hosts set them), priced day by day and by season: the
    /// rows whose trip price is their nights' sum and fees are totalled row by row with their fees, those with a
    /// discount or a service fee by their trip prices. Every day of a month's calendar of 1–7 and 28 nights (weekly
    /// and monthly discounts), for one to four guests, is the exact search of that check-in, on one thread and two;
    /// the first rounds also the reference's.
    @Test(arguments: SyntheticDataset.Pricing.allCases)
    func generatedFeesTotalledWithTheStaysGiveTheExactSearches(pricing: SyntheticDataset.Pricing) throws {
        let synthetic = SyntheticDataset(listingCount: 1_500, seed: 33, dayCount: 64, pricing: pricing, fees: true)
        var nights: [(listingID: Int64, night: CalendarNight)] = []
        for (position, listing) in synthetic.listings.enumerated() {
            nights.append(contentsOf: synthetic.calendar(ofListingAt: position).map { (listing.id, $0) })
        }
        let data = TestDataset(listings: synthetic.listings, nights: nights)
        let index = synthetic.makeIndex()
        #expect(index.hasFees)
        for round in 0..<8 {
            var query = SearchQuery(region: round % 4 == 3 ? synthetic.listings[0].region.city : nil, adults: [2, 1, 3, 4][round % 4])
            query.checkInFrom = synthetic.firstDay.advanced(by: round)
            query.checkInTo = synthetic.firstDay.advanced(by: round + 29)
            query.windowNights = [3, 1, 2, 5, 7, 4, 28, 3][round]
            query.serviceFeeBasisPoints = round == 7 ? 1_420 : 0
            if round == 5 { query.maximumPrice = Money(major: 220) }
            // Brackets from a sample of every other word (each day's totals in them counted by unit), or from every
            // word and so narrow that most days are tallied again.
            let sampling = round % 3 == 2 ? CalendarSampling(every: 1, minimumStays: 1, standardErrors: 0)
                : CalendarSampling(every: 2, minimumStays: 8, standardErrors: 3)
            let calendar = try index.priceCalendar(query, threads: round % 2 + 1, coveredDays: index.dayCount, live: nil, sampling: sampling)
            let context = "\(pricing) round \(round): \(query)"
            #expect(calendar.days.contains { $0.count > 20 }, "\(context)")
            Self.check(calendar, of: query, context: context + " (engine)") { q throws(QueryError) in ReferenceAnswer(try index.search(q)) }
            if round < 2 {
                Self.check(calendar, of: query, context: context + " (reference)") { q throws(QueryError) in
                    try ReferenceSearch.search(q, in: data)
                }
            }
        }
    }

    /// Words of rows with fees of whole dollars, totalled row by row with them, where a word between two such words
    /// has no stay its rules allow (a minimum of 60 nights) though its rows are free: the word before it is still
    /// totalled with its own fees, not with those of the word after (which reuses their lines). Every day of a
    /// month of 3 and 7 nights is its exact search.
    @Test(arguments: 0..<3)
    func aWordWithNoStayItsRulesAllowKeepsTheFeesOfTheWordBefore(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed) &* 7_919 + 3)
        let start = TestDataset.calendarStart
        var listings: [ListingRecord] = []
        var nights: [(listingID: Int64, night: CalendarNight)] = []
        for id in Int64(1)...Int64(64 * 6) {
            let word = Int(id - 1) / 64
            var listing = ListingRecord(id: id, name: "L\(id)", region: RegionPath(city: "Antwerp", neighbourhood: "Centrum"),
                                        roomType: "Entire home/apt", accommodates: 4, price: Money(major: 80))
            // Words 1 and 4 allow no stay; the others' fees differ word by word (word 2's far above word 0's).
            listing.fees = ListingFees(cleaningFee: Money(major: Int64(word * 400) + Int64.random(in: 5...60, using: &random)))
            listings.append(listing)
            let minimum: Int32? = word == 1 || word == 4 ? 60 : nil
            for offset in 0..<70 {
                let night = CalendarNight(day: start.advanced(by: offset), isAvailable: random.chance(0.95),
                                          price: Money(major: Int64.random(in: 40...300, using: &random)), minimumNights: minimum)
                nights.append((id, night))
            }
        }
        let data = TestDataset(listings: listings, nights: nights)
        let index = data.makeIndex().index
        for (round, stay) in [3, 7].enumerated() {
            var query = SearchQuery(region: "Antwerp", adults: 1 + seed % 2)
            query.checkInFrom = start.advanced(by: 2)
            query.checkInTo = start.advanced(by: 31)
            query.windowNights = stay
            let sampling = round == 1 ? CalendarSampling(every: 1, minimumStays: 1, standardErrors: 0) : .standard
            let calendar = try index.priceCalendar(query, threads: 1, coveredDays: index.dayCount, live: nil, sampling: sampling)
            let context = "seed \(seed), \(stay) nights"
            #expect(calendar.days.allSatisfy { $0.count > 150 }, "\(context)")
            Self.check(calendar, of: query, context: context + " (engine)") { q throws(QueryError) in ReferenceAnswer(try index.search(q)) }
            Self.check(calendar, of: query, context: context + " (reference)") { q throws(QueryError) in try ReferenceSearch.search(q, in: data) }
        }
    }

    /// Stay rules that differ by weekday (a weekend minimum of two or three nights, all year) on whole words of
    /// rows totalled word by word: each check-in's rows are those its weekday's rules allow, one price or a
    /// price a day, and the days' counts differ between weekdays.
    @Test(arguments: 0..<8)
    func rulesByWeekdayAllowEachCheckInItsOwnRows(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed) &* 977 + 41)
        let start = TestDataset.calendarStart
        var listings: [ListingRecord] = []
        var nights: [(listingID: Int64, night: CalendarNight)] = []
        for id in Int64(1)...Int64(64 * 4 + 17) {
            listings.append(ListingRecord(id: id, name: "L\(id)", region: RegionPath(city: random.pick(["Antwerp", "Kraków"]), neighbourhood: "Centrum"),
                                          roomType: "Entire home/apt", accommodates: Int.random(in: 1...4, using: &random),
                                          price: Money(major: 80)))
            let weekendMinimum: Int32? = random.pick([nil, 2, 3])
            let daily = random.chance(0.4)
            let price = Int64.random(in: 40...300, using: &random) * 100
            for offset in 0..<90 {
                let day = start.advanced(by: offset)
                let isWeekend = day.weekdayFromMonday == 4 || day.weekdayFromMonday == 5
                let night = CalendarNight(day: day, isAvailable: random.chance(0.9),
                                          price: Money(minorUnits: daily ? Int64.random(in: 40...300, using: &random) * 100 : price),
                                          minimumNights: isWeekend ? weekendMinimum : nil)
                nights.append((id, night))
            }
        }
        let data = TestDataset(listings: listings, nights: nights)
        let index = data.makeIndex().index
        var weekdaysDiffer = false
        for nights in [1, 2, 3] {
            var query = SearchQuery(region: seed % 2 == 0 ? nil : "Antwerp", adults: 1 + seed % 2)
            query.checkInFrom = start.advanced(by: 3)
            query.checkInTo = start.advanced(by: 40)
            query.windowNights = nights
            let calendar = try index.priceCalendar(query)
            let context = "seed \(seed), \(nights) nights"
            Self.check(calendar, of: query, context: context + " (engine)") { q throws(QueryError) in ReferenceAnswer(try index.search(q)) }
            Self.check(calendar, of: query, context: context + " (reference)") { q throws(QueryError) in try ReferenceSearch.search(q, in: data) }
            if Set(calendar.days.map(\.count)).count > 3 { weekdaysDiffer = true }
        }
        #expect(weekdaysDiffer, "seed \(seed): the days' counts hardly differ")
    }

    /// A month of check-ins (at most 32, so rows are totalled row by row from their running sums over the
    /// span) on whole words of rows priced day by day, of one price and of a few runs, with steady stay rules,
    /// a few rows whose stays are too dear for 16-bit totals, some of one price past 65,535 units a night (settled
    /// by their 32-bit bounds, or handed back and totalled stay by stay), price
    /// ranges, one and two threads, brackets as sampled and narrowed until they miss: every day is its exact
    /// search.
    @Test(arguments: 0..<10)
    func aMonthOfRowsPricedDayByDayIsItsExactSearches(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed) &* 1_409 + 77)
        let start = TestDataset.calendarStart
        var listings: [ListingRecord] = []
        var nights: [(listingID: Int64, night: CalendarNight)] = []
        for id in Int64(1)...Int64(64 * 6 + 23) {
            listings.append(ListingRecord(id: id, name: "L\(id)", region: RegionPath(city: random.pick(["Antwerp", "Kraków"]),
                                                                                     neighbourhood: random.pick(["Centrum", "Zuid"])),
                                          roomType: random.pick(["Entire home/apt", "Private room"]), accommodates: Int.random(in: 1...5, using: &random),
                                          price: Money(major: 90)))
            let kind = Int.random(in: 0..<10, using: &random)          // 0–5 day by day, 6–7 one price, 8 runs, 9 too dear
            let base = Int64.random(in: 40...300, using: &random)
            let minimum: Int32? = random.pick([nil, nil, 2])
            var price = base
            for offset in 0..<75 {
                switch kind {
                case 0...5: price = base + Int64.random(in: 0...60, using: &random) + (start.advanced(by: offset).weekdayFromMonday >= 4 ? 40 : 0)
                case 8: if offset % 9 == 0 { price = Int64.random(in: 40...300, using: &random) }
                case 9:
                    // Day by day, or one price past 65,535 units all season.
                    if id % 2 == 0 { price = Int64.random(in: 9_000...30_000, using: &random) }
                    if id % 2 == 1, offset == 0 { price = Int64.random(in: 70_000...200_000, using: &random) }
                default: break
                }
                nights.append((id, CalendarNight(day: start.advanced(by: offset), isAvailable: random.chance(0.85),
                                                 price: Money(minorUnits: price * 100), minimumNights: minimum)))
            }
        }
        let data = TestDataset(listings: listings, nights: nights)
        let index = data.makeIndex().index
        for round in 0..<8 {
            var query = SearchQuery(region: random.pick([nil, "Antwerp", "Zuid"]), adults: Int.random(in: 1...3, using: &random))
            query.checkInFrom = start.advanced(by: Int.random(in: 0...20, using: &random))
            query.checkInTo = query.checkInFrom!.advanced(by: Int.random(in: 0...31, using: &random))
            query.windowNights = random.pick([1, 2, 3, 3, 5, 7, 14])
            if random.chance(0.4) {
                query.minimumPrice = Money(major: Int64.random(in: 0...150, using: &random))
                query.maximumPrice = Money(major: Int64.random(in: 150...400, using: &random))
            }
            let sampling = round % 3 == 2 ? CalendarSampling(every: 1, minimumStays: 1, standardErrors: 0) : .standard
            let calendar = try index.priceCalendar(query, threads: round % 2 + 1, coveredDays: index.dayCount, live: nil, sampling: sampling)
            let context = "seed \(seed) round \(round): \(query)"
            #expect(calendar.days.contains { $0.count > 0 }, "\(context): no stays")
            Self.check(calendar, of: query, context: context + " (engine)") { q throws(QueryError) in ReferenceAnswer(try index.search(q)) }
            Self.check(calendar, of: query, context: context + " (reference)") { q throws(QueryError) in try ReferenceSearch.search(q, in: data) }
        }
    }

    /// Stays dearer than the sample's slots reach (4,096 slots, each as many units as a typical row's dearest
    /// night makes it): the days whose median or margins lie above are sampled again keeping every total, and
    /// every day is still its exact search — with most listings that dear, about half, and a few.
    @Test(arguments: 0..<6)
    func daysDearerThanTheSamplesCountsAreTheirExactSearches(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed) &* 619 + 23)
        let start = TestDataset.calendarStart
        let dearShare = [0.9, 0.5, 0.1][seed % 3]
        var listings: [ListingRecord] = []
        var nights: [(listingID: Int64, night: CalendarNight)] = []
        for id in Int64(1)...Int64(64 * 5 + 9) {
            let dear = random.chance(dearShare)
            listings.append(ListingRecord(id: id, name: "L\(id)", region: RegionPath(city: "Antwerp", neighbourhood: "Centrum"),
                                          roomType: "Entire home/apt", accommodates: Int.random(in: 1...6, using: &random),
                                          price: Money(major: 100)))
            let daily = random.chance(0.3)
            let price = (dear ? Int64.random(in: 1_300...6_000, using: &random) : Int64.random(in: 40...300, using: &random)) * 100
            for offset in 0..<80 {
                let nightly = daily ? price + Int64.random(in: -30...30, using: &random) * 100 : price
                nights.append((id, CalendarNight(day: start.advanced(by: offset), isAvailable: random.chance(0.8),
                                                 price: Money(minorUnits: random.chance(0.05) ? nightly + 55 : nightly))))
            }
        }
        let data = TestDataset(listings: listings, nights: nights)
        let index = data.makeIndex().index
        for nights in [3, 7] {
            var query = SearchQuery(region: nil, adults: 1 + seed % 2)
            query.checkInFrom = start.advanced(by: 2)
            query.checkInTo = start.advanced(by: 40)
            query.windowNights = nights
            for threads in [1, 2] {
                let calendar = try index.priceCalendar(query, threads: threads)
                let context = "seed \(seed), \(nights) nights, \(threads) threads"
                Self.check(calendar, of: query, context: context + " (engine)") { q throws(QueryError) in ReferenceAnswer(try index.search(q)) }
                Self.check(calendar, of: query, context: context + " (reference)") { q throws(QueryError) in
                    try ReferenceSearch.search(q, in: data)
                }
            }
        }
    }

    /// The word-at-a-time totals have a portable version beside the AVX2 one: the same calendars, with the
    /// standard brackets and with brackets so narrow that lanes are packed and days tallied again; odd seeds
    /// with fees (rows whose fees are whole units totalled with them).
    @Test(arguments: 0..<10)
    func thePortableTotalsGiveTheSameCalendars(seed: Int) throws {
        var data = TestDataset.random(seed: UInt64(seed) + 7_700, maximumListings: seed % 2 == 1 ? 400 : 120)
        if seed % 2 == 1 { data = data.withRandomFees(seed: UInt64(seed)) }
        let index = data.makeIndex().index
        var random = SeededGenerator(seed: UInt64(seed) &* 71 + 9)
        var compared = 0
        for round in 0..<8 {
            let query = Self.randomCalendarQuery(data, using: &random)
            let sampling = round % 2 == 1 ? CalendarSampling(every: 1, minimumStays: 1, standardErrors: 0) : .standard
            guard let fast = try? index.priceCalendar(query, threads: 1, coveredDays: index.dayCount, live: nil, sampling: sampling)
            else { continue }
            staysearch_calendar_use_portable(1)
            let portable = try? index.priceCalendar(query, threads: 1, coveredDays: index.dayCount, live: nil, sampling: sampling)
            staysearch_calendar_use_portable(0)
            #expect(portable == fast, "seed \(seed) round \(round): \(query)")
            if let portable {
                Self.check(portable, of: query, context: "seed \(seed) round \(round) (portable)") { q throws(QueryError) in
                    try ReferenceSearch.search(q, in: data)
                }
            }
            compared += 1
        }
        #expect(compared >= 4)
    }

    /// A calendar counts its totals in a unit of its index (whole dollars, ₩100, …): in any unit its days are
    /// the exact searches, prices of every magnitude and cents among them (those not a whole number of the unit
    /// totalled one by one), on one thread and two, with and without fees.
    @Test(arguments: 0..<12)
    func everyUnitGivesTheExactSearches(seed: Int) throws {
        var data = TestDataset.random(seed: UInt64(seed) + 8_300)
        if seed % 3 == 2 { data = data.withRandomFees(seed: UInt64(seed)) }
        let index = data.makeIndex().index
        var random = SeededGenerator(seed: UInt64(seed) &* 53 + 11)
        for round in 0..<4 {
            var query = Self.randomCalendarQuery(data, using: &random)
            if seed % 3 == 2 { query.serviceFeeBasisPoints = random.pick([0, 1_420]) }
            let sampling = round % 2 == 1 ? CalendarSampling(every: 1, minimumStays: 1, standardErrors: 0) : .standard
            let scale = UInt8(2 + (seed + round) % 4)
            guard let calendar = try? index.priceCalendar(query, threads: round % 2 + 1, coveredDays: index.dayCount, live: nil,
                                                          sampling: sampling, scale: scale)
            else { continue }
            Self.check(calendar, of: query, context: "seed \(seed) round \(round) scale \(scale): \(query)") { q throws(QueryError) in
                try ReferenceSearch.search(q, in: data)
            }
        }
    }

    /// The unit is the largest power of ten that divides the prices (not their size): whole dollars for the
    /// random data with cents on some rows, ₩100 for the same listings priced in won to the ₩100, and a won
    /// calendar, rows of day-by-day prices to the ₩1,000 and more among them, is the exact searches.
    @Test func theUnitIsWhatDividesThePrices() throws {
        let data = TestDataset.random(seed: 7_990)
        #expect(data.makeIndex().index.calendarScale == 2)
        var won = data.inWholeUnits()
        for position in won.listings.indices {
            won.listings[position].price = won.listings[position].price.map { Money(minorUnits: $0.minorUnits * 100) }
        }
        won.nights = won.nights.map { id, night in
            var night = night
            night.price = night.price.map { Money(minorUnits: $0.minorUnits * 100) }
            return (id, night)
        }
        // A quarter of the listings priced day by day to the ₩1,000 (₩1,000–₩400,000: rows of a coarser unit than
        // the calendar's) and a quarter to the ₩100 (₩100–₩400,000), every night of their first 60 open.
        var daily = SeededGenerator(seed: 7_991)
        let steps = Dictionary(uniqueKeysWithValues: won.listings.enumerated().compactMap { position, listing in
            position % 4 < 2 ? (listing.id, position % 4 == 0 ? Int64(100_000) : 10_000) : nil
        })
        won.nights.removeAll { steps[$0.0] != nil }
        for listing in won.listings {
            guard let step = steps[listing.id] else { continue }
            for offset in 0..<60 {
                let price = Int64.random(in: 1...(40_000_000 / step), using: &daily) * step
                won.nights.append((listing.id, CalendarNight(day: TestDataset.calendarStart.advanced(by: offset), isAvailable: true,
                                                             price: Money(minorUnits: price))))
            }
        }
        let index = won.makeIndex().index
        #expect(index.calendarScale == 4)
        // Rows of day-by-day prices in a coarser unit (₩1,000 and more), counted in the calendar's ₩100.
        let scales = index.nightPrices.denseScales
        #expect((0..<scales.count).contains { scales[$0] > 4 } && (0..<scales.count).contains { scales[$0] == 4 })
        var random = SeededGenerator(seed: 17)
        var checked = 0
        for round in 0..<6 {
            let query = Self.randomCalendarQuery(won, using: &random)
            guard let calendar = try? index.priceCalendar(query, threads: round % 2 + 1) else { continue }
            Self.check(calendar, of: query, context: "won round \(round): \(query)") { q throws(QueryError) in
                try ReferenceSearch.search(q, in: won)
            }
            checked += 1
        }
        #expect(checked >= 3)
    }

    /// A live index with listings changed, added and removed, and days a rolling window added.
    @Test(arguments: 0..<20)
    func aLiveIndexsCalendarIsItsExactSearches(seed: Int) throws {
        var data = TestDataset.random(seed: UInt64(seed) + 7_400)
        let frozen = data.makeIndex().index
        let live = LiveIndex(frozen)
        var random = SeededGenerator(seed: UInt64(seed) &* 17 + 3)
        live.extendCalendar(toDayCount: frozen.dayCount + 10)
        let end = frozen.firstDay.advanced(by: frozen.dayCount + 10)
        for round in 0..<4 {
            let changes = (0..<20).map { _ in data.randomChange(using: &random, listingChanges: 0.35) }
            for (change, outcome) in zip(changes, live.apply(changes)) {
                let want = data.apply(change, calendarStart: frozen.firstDay, calendarEnd: end)
                #expect((outcome == nil) == want)
            }
            for _ in 0..<5 {
                let query = Self.randomCalendarQuery(data, using: &random)
                guard let calendar = try? live.priceCalendar(query, threads: 2) else { continue }
                #expect(calendar.endDay == end)
                let context = "seed \(seed) round \(round): \(query)"
                Self.check(calendar, of: query, context: context + " (live)") { q throws(QueryError) in ReferenceAnswer(try live.search(q)) }
                Self.check(calendar, of: query, context: context + " (reference)") { q throws(QueryError) in try ReferenceSearch.search(q, in: data) }
            }
        }
    }

    /// The same month asked again after nights opened: the span's stay bounds kept from the first calendar
    /// counted only the stays that could be booked then, and must widen for the rows whose nights opened.
    @Test(arguments: 0..<12)
    func aMonthAskedAgainAfterNightsOpenedIsItsExactSearches(seed: Int) throws {
        var data = TestDataset.random(seed: UInt64(seed) + 7_600)
        let frozen = data.makeIndex().index
        let live = LiveIndex(frozen)
        let end = frozen.firstDay.advanced(by: frozen.dayCount)
        var random = SeededGenerator(seed: UInt64(seed) &* 29 + 11)
        let from = TestDataset.calendarStart.advanced(by: Int.random(in: 0...40, using: &random))
        // A query the index answers (a random one may name a region it lacks).
        var query = SearchQuery()
        repeat {
            query = Self.randomCalendarQuery(data, using: &random)
            query.checkInFrom = from
            query.checkInTo = from.advanced(by: Int.random(in: 5...30, using: &random))
            query.windowNights = random.pick([1, 2, 3, 4, 7])
            query.today = nil
        } while (try? live.priceCalendar(query, threads: 1)) == nil
        for round in 0..<4 {
            _ = try live.priceCalendar(query, threads: 1)
            let changes = (0..<40).map { _ -> CalendarChange in
                let first = from.advanced(by: Int.random(in: -2...36, using: &random))
                return random.chance(0.5)
                    ? .availability(id: random.pick(data.listings).id, from: first, to: first.advanced(by: random.pick([1, 2, 5, 12])), available: true)
                    : .cancel(id: random.pick(data.listings).id, checkIn: first, checkOut: first.advanced(by: random.pick([1, 3, 8])))
            }
            for (change, outcome) in zip(changes, live.apply(changes)) {
                let want = data.apply(change, calendarStart: frozen.firstDay, calendarEnd: end)
                #expect((outcome == nil) == want)
            }
            let calendar = try live.priceCalendar(query, threads: 1)
            let context = "seed \(seed) round \(round): \(query)"
            Self.check(calendar, of: query, context: context) { q throws(QueryError) in try ReferenceSearch.search(q, in: data) }
        }
    }

    /// The random calendars are not trivial: many days with stays, several prices, days before today
    /// and outside the data.
    @Test func randomCalendarsAreNotTrivial() throws {
        var withStays = 0, withSpread = 0, beforeToday = 0, outside = 0, refused = 0
        for seed in 0..<30 {
            let data = TestDataset.random(seed: UInt64(seed) + 7_100)
            let index = data.makeIndex().index
            var random = SeededGenerator(seed: UInt64(seed) &* 131 + 5)
            for _ in 0..<12 {
                guard let calendar = try? index.priceCalendar(Self.randomCalendarQuery(data, using: &random)) else {
                    refused += 1
                    continue
                }
                withStays += calendar.days.filter { $0.count > 0 }.count
                withSpread += calendar.days.filter { $0.count > 2 && $0.lowest != $0.median }.count
                beforeToday += calendar.days.filter { $0.status == .beforeToday }.count
                outside += calendar.days.filter { $0.status == .outsideData }.count
            }
        }
        #expect(withStays > 700)
        #expect(withSpread > 150)
        #expect(beforeToday > 20)
        #expect(outside > 100)
        #expect(refused > 5 && refused < 200)
    }

    @Test func aCalendarNeedsARangeAndNights() {
        let index = TestDataset.random(seed: 1).makeIndex().index
        var query = SearchQuery()
        query.checkInFrom = TestDataset.calendarStart
        query.windowNights = 3
        #expect(throws: QueryError.windowIncomplete(missing: "checkin to")) { try index.priceCalendar(query) }
        query.checkInTo = TestDataset.calendarStart.advanced(by: 62)
        #expect(throws: QueryError.windowTooLong(days: 63)) { try index.priceCalendar(query) }
    }
}
