import StaySearch

/// Listings and calendar nights as a source would give them, in the order given.
public struct TestDataset: Sendable {
    /// The listings.
    public var listings: [ListingRecord]
    /// Calendar nights with the id of their listing, in the order added (duplicates included).
    public var nights: [(listingID: Int64, night: CalendarNight)]

    /// Creates a data set.
    public init(listings: [ListingRecord], nights: [(listingID: Int64, night: CalendarNight)]) {
        self.listings = listings
        self.nights = nights
    }

    /// Builds the engine's index of this data set.
    public func makeIndex() -> (index: ListingIndex, duplicateNights: [DuplicateNight]) {
        var builder = IndexBuilder()
        for listing in listings { _ = try! builder.addListing(listing) }
        for (position, entry) in nights.enumerated() {
            builder.addNight(entry.night, to: builder.handle(forListingID: entry.listingID)!, origin: RecordOrigin(file: 0, line: position))
        }
        return builder.build()
    }

    /// The first day any generated calendar starts on.
    public static let calendarStart = Day(year: 2025, month: 3, day: 1)!

    /// Random listings and calendars shaped to hit the edges of docs/query-semantics.md: shared and case-variant
    /// neighbourhood names, non-ASCII names, empty groups, gaps and unpriced nights, stay rules
    /// that change by date, calendars of different spans, repeated dates, many equal prices, and prices
    /// that change every day.
    public static func random(seed: UInt64, maximumListings: Int = 120) -> TestDataset {
        var random = SeededGenerator(seed: seed)
        let cityNames = ["Zürich", "São Paulo", "Antwerp", "Kraków"]
        let groupNames = ["", "", "Kreis 1", "Kreis 2", "Ørestad"]
        let neighbourhoodNames = ["Centrum", "centrum", "Altstadt", "Vila Madalena", "Zuid", "Łazienki", "", "Nieuw - Zuid"]
        let roomTypes = ["Entire home/apt", "Private room", "Shared room", "Hotel room"]
        let prices: [Int64?] = [nil, 5_000, 7_500, 7_550, 10_000, 12_000, 20_000, 99, 1]
        let cities = (0..<Int.random(in: 1...3, using: &random)).map { _ in random.pick(cityNames) }

        var listings: [ListingRecord] = []
        var usedIDs = Set<Int64>()
        let count = Int.random(in: 0...maximumListings, using: &random)
        let calendarLength = random.chance(0.5) ? 40 : 80
        for _ in 0..<count {
            var id: Int64
            repeat {
                id = random.chance(0.2) ? Int64.random(in: 1_000_000_000_000_000_000...Int64.max, using: &random)
                    : Int64.random(in: 1...5_000, using: &random)
            } while !usedIDs.insert(id).inserted
            let region = RegionPath(city: random.pick(cities), neighbourhoodGroup: random.pick(groupNames),
                                    neighbourhood: random.pick(neighbourhoodNames))
            listings.append(ListingRecord(
                id: id, name: random.pick(["Listing \(id)", "Loft \(id), \"cosy\"\nnear the park", "Café \(id)\r\nwith view", "Zimmer \(id)"]), region: region, roomType: random.pick(roomTypes),
                accommodates: Int.random(in: 1...6, using: &random), price: random.pick(prices).map(Money.init(minorUnits:)),
                minimumNights: random.pick([1, 1, 2, 3]), maximumNights: random.pick([Int32.max, 30, 5, 2]),
                ratingHundredths: random.pick([nil, 450, 485, 500, 0]), reviewCount: random.pick([0, 1, 5, 5, 120]),
                latitude: Double.random(in: -80...80, using: &random), longitude: Double.random(in: -170...170, using: &random)))
        }

        // Listing details from a generator of their own, so the rest of a seed's data stays as it was.
        var details = SeededGenerator(seed: seed ^ 0xD15C_0DE5)
        for position in listings.indices {
            addDetails(to: &listings[position], using: &details)
        }

        var nights: [(Int64, CalendarNight)] = []
        // Which daily-priced listings have a price every night of their calendar, without a gap (stored
        // densely; the others are runs): drawn apart, so the rest of a seed's data stays as it was.
        var flavours = SeededGenerator(seed: seed ^ 0xDA11_5EED)
        for listing in listings {
            let start = Int.random(in: -2...4, using: &random)
            let length = random.chance(0.1) ? 0 : Int.random(in: 1...calendarLength, using: &random)
            let constantPrice = random.chance(0.5)
            let weekly = random.chance(0.3)                               // weekend prices and stay rules
            // A price that changes every day, as pricing tools set it: whole units (stored densely), or
            // now and then with cents (which must stay runs).
            let daily = !weekly && random.chance(0.2)
            let dailyCents = random.chance(0.3)
            let unbroken = flavours.chance(0.5)
            // Day-by-day prices of every magnitude: cents to dollars, won (× 1,000) and rupiah (× 50,000).
            let magnitude = flavours.pick([Int64(1), 1, 1, 10, 1_000, 50_000])
            let weekendExtra = Int64(random.pick([500, 2_500, 2_550]))
            var price = random.pick(prices)
            var minimum: Int32? = random.pick([nil, 1, 2])
            for offset in start..<(start + length) {
                if random.chance(weekly ? 0.01 : 0.05), !(daily && unbroken) { continue }   // a gap in the calendar
                if daily {
                    if random.chance(0.05) {
                        price = unbroken ? Int64.random(in: 1...400, using: &flavours) * 100 * magnitude : nil
                    } else {
                        price = Int64.random(in: 1...400, using: &random) * 100 * magnitude + (dailyCents && random.chance(0.1) ? 1 : 0)
                    }
                } else if !constantPrice, random.chance(weekly ? 0.03 : 0.2) {
                    price = random.pick(prices)
                }
                if random.chance(weekly ? 0.02 : 0.15) { minimum = random.pick([nil, 1, 2, 3, 7]) }
                if weekly {
                    let weekday = calendarStart.advanced(by: offset).weekdayFromMonday
                    let isWeekend = weekday == 4 || weekday == 5
                    let night = CalendarNight(
                        day: calendarStart.advanced(by: offset), isAvailable: random.chance(0.8),
                        price: price.map { Money(minorUnits: $0 + (isWeekend ? weekendExtra : 0)) },
                        minimumNights: isWeekend ? max(minimum ?? 1, 2) : minimum, maximumNights: isWeekend ? 7 : nil)
                    nights.append((listing.id, night))
                    continue
                }
                let night = CalendarNight(
                    day: calendarStart.advanced(by: offset), isAvailable: random.chance(0.8),
                    price: price.map(Money.init(minorUnits:)), minimumNights: minimum,
                    maximumNights: random.pick([nil, nil, 3, 10, 60]))
                nights.append((listing.id, night))
                if random.chance(0.02) {                                  // a repeated date
                    var repeated = night
                    repeated.isAvailable.toggle()
                    repeated.price = Money(minorUnits: 1_234)
                    nights.append((listing.id, repeated))
                }
            }
        }
        // Sources do not always give rows in date order.
        if random.chance(0.3) { nights.shuffle(using: &random) }
        return TestDataset(listings: listings, nights: nights)
    }

    /// This data with every price in whole units below 65,536 (cents dropped, dearer prices capped), as an
    /// index file from before dense scales could hold it.
    public func inWholeUnits() -> TestDataset {
        var data = self
        for position in data.listings.indices {
            data.listings[position].price = data.listings[position].price.map { Money(minorUnits: min($0.minorUnits / 100, 60_000) * 100) }
        }
        data.nights = nights.map { id, night in
            var night = night
            night.price = night.price.map { Money(minorUnits: min($0.minorUnits / 100, 60_000) * 100) }
            return (id, night)
        }
        return data
    }

    /// This data with about one listing in four priced in a currency of huge numbers (rupiah, dong, and past
    /// them), drawn from `seed`: its own price and its nights' prices × 10^6 or × 10^7, a few cents added now and
    /// then, up to ``Money/largest`` (which some nights are): the wide prices an index keeps apart (from
    /// 20,803,747.84 up), beside rows of every other magnitude.
    public func withWidePrices(seed: UInt64) -> TestDataset {
        var random = SeededGenerator(seed: seed ^ 0x5749_4445)
        var factors: [Int64: (factor: Int64, cents: Bool)] = [:]
        for listing in listings where random.chance(0.25) {
            factors[listing.id] = (random.pick([1_000_000, 1_000_000, 10_000_000]), random.chance(0.4))
        }
        var data = self
        func widened(_ money: Money?, _ wide: (factor: Int64, cents: Bool)?, _ random: inout SeededGenerator) -> Money? {
            guard let money, let wide else { return money }
            let cents: Int64 = wide.cents && random.chance(0.3) ? Int64.random(in: 1...99, using: &random) : 0
            return Money(minorUnits: min(money.minorUnits * wide.factor + cents, Money.largest.minorUnits))
        }
        for position in data.listings.indices {
            data.listings[position].price = widened(data.listings[position].price, factors[data.listings[position].id], &random)
        }
        data.nights = nights.map { id, night in
            var night = night
            night.price = widened(night.price, factors[id], &random)
            return (id, night)
        }
        return data
    }

    /// Whether a price of this data reaches the wide prices (20,803,747.84 and up).
    public var hasWidePrices: Bool {
        let first = Int64(WidePrices.firstReference)
        return listings.contains { ($0.price?.minorUnits ?? 0) >= first } || nights.contains { ($0.night.price?.minorUnits ?? 0) >= first }
    }

    /// This data with fees on about two listings in three, drawn from `seed`: cleaning fees (some zero),
    /// guests included and extra-guest fees, weekly and monthly discounts (some at 99 %, some with cents
    /// in their percent), security deposits.
    public func withRandomFees(seed: UInt64) -> TestDataset {
        var random = SeededGenerator(seed: seed ^ 0xFEE5_F00D)
        var data = self
        for position in data.listings.indices where random.chance(0.65) {
            var fees = ListingFees()
            if random.chance(0.7) { fees.cleaningFee = Money(minorUnits: random.pick([0, 1, 2_500, 5_050, 9_999, 15_000])) }
            if random.chance(0.5) {
                fees.guestsIncluded = random.pick([1, 1, 2, 3, 0])
                fees.extraGuestFee = Money(minorUnits: random.pick([0, 1_000, 1_550, 2_500]))
            }
            if random.chance(0.45) { fees.weeklyDiscountBasisPoints = random.pick([1, 500, 1_000, 1_250, 2_112, 9_900]) }
            if random.chance(0.4) { fees.monthlyDiscountBasisPoints = random.pick([0, 1_500, 2_500, 3_333, 9_900]) }
            if random.chance(0.3) { fees.securityDeposit = Money(minorUnits: random.pick([10_000, 50_000])) }
            data.listings[position].fees = fees.isEmpty ? nil : fees
        }
        // Half the listings open every night with no longest stay, so that stays of four weeks and more match.
        var open = Set<Int64>()
        for position in data.listings.indices where random.chance(0.5) {
            open.insert(data.listings[position].id)
            data.listings[position].maximumNights = Int32.max
        }
        var days: [Int64: Set<Day>] = [:]
        for position in data.nights.indices where open.contains(data.nights[position].listingID) {
            data.nights[position].night.isAvailable = true
            data.nights[position].night.maximumNights = nil
            days[data.nights[position].listingID, default: []].insert(data.nights[position].night.day)
        }
        // And a priced row for every day of their first 60 that has none (gaps close; a listing without a
        // calendar gets one).
        for id in open.sorted() {
            let price = Money(minorUnits: Int64.random(in: 30...250, using: &random) * 100 + random.pick([0, 0, 50]))
            for offset in -2..<60 where !(days[id]?.contains(TestDataset.calendarStart.advanced(by: offset)) ?? false) {
                data.nights.append((id, CalendarNight(day: TestDataset.calendarStart.advanced(by: offset), isAvailable: true, price: price,
                                                      minimumNights: nil, maximumNights: nil)))
            }
        }
        return data
    }

    /// A random query for trip prices: ``randomQuery(using:)`` with stays of 1–40 nights (7 and 28 and their
    /// neighbours often), 1–5 guests, and a service fee now and then.
    public func randomTripQuery(using random: inout SeededGenerator) -> SearchQuery {
        var query = randomQuery(using: &random)
        if random.chance(0.5) { query.region = nil }
        if random.chance(0.8) {
            query.offset = 0
            query.limit = random.pick([5, 20, 50])
        }
        if query.checkIn == nil, query.checkInFrom == nil, random.chance(0.5) {
            query.today = nil
            query.checkIn = TestDataset.calendarStart
            query.checkOut = TestDataset.calendarStart.advanced(by: 1)
        }
        if query.checkIn != nil, query.flexibleDays == nil, random.chance(0.8) {
            query.checkIn = TestDataset.calendarStart.advanced(by: Int.random(in: -2...20, using: &random))
            let nights = random.chance(0.6) ? random.pick([6, 7, 8, 27, 28, 29]) : Int.random(in: 1...40, using: &random)
            query.checkOut = query.checkIn!.advanced(by: nights)
        }
        query.adults = random.pick([1, 2, 3])
        query.children = random.pick([0, 0, 1, 2])
        if random.chance(0.5) { query.serviceFeeBasisPoints = random.pick([1, 1_250, 1_420, 10_000]) }
        return query
    }

    /// Property types and amenities with spellings that fold together, a name that is also a prefix of
    /// another, and non-ASCII letters.
    static let propertyTypeNames = ["Entire condo", "entire CONDO", "Entire rental unit", "Private room in home", "Cabaña", "Cabana"]
    static let amenityNames = ["Wifi", "wifi", "Kitchen", "Fast wifi – 500 Mbps", "Pool", "Hot tub", "Café machine", "  Pool  "]
    /// Coordinates on a coarse grid (so that points fall on box edges and share positions) and near
    /// the antimeridian.
    static let latitudes: [Double] = [-10, 0, 10, 10.5, 45.25, 51.2194475]
    static let longitudes: [Double] = [-180, -179.5, 0, 4.4024643, 10, 179.9999999, 180]

    private static func addDetails(to listing: inout ListingRecord, using random: inout SeededGenerator) {
        listing.bedrooms = random.pick([nil, 0, 1, 1, 2, 3])
        listing.beds = random.pick([nil, 0, 1, 2, 4])
        listing.bathroomHalves = random.pick([nil, 0, 1, 2, 3, 4])
        listing.propertyType = random.chance(0.15) ? "" : random.pick(propertyTypeNames)
        listing.amenities = (0..<Int.random(in: 0...4, using: &random)).map { _ in random.pick(amenityNames) }
        listing.isInstantBookable = random.chance(0.4)
        listing.isSuperhost = random.chance(0.3)
        listing.recentReviewCount = Int32.random(in: 0...max(0, listing.reviewCount), using: &random)
        if random.chance(0.6) {
            listing.latitude = random.pick(latitudes)
            listing.longitude = random.pick(longitudes)
        }
    }

    /// A random query over this data set's names, dates and prices.
    public func randomQuery(using random: inout SeededGenerator) -> SearchQuery {
        var query = SearchQuery()
        var names: [String] = []
        for listing in listings { names.append(contentsOf: listing.region.components) }
        if !names.isEmpty, random.chance(0.7) {
            let name = random.pick(names)
            switch Int.random(in: 0..<5, using: &random) {
            case 0: query.region = name.uppercased()
            case 1: query.region = TextFolding.fold(name)
            case 2:
                let listing = random.pick(listings)
                let path = listing.region.components
                query.region = path.count > 1 ? "\(path[0])/\(path[path.count - 1])" : path[0]
            default: query.region = name
            }
        }
        if random.chance(0.03) { query.region = "Atlantis" }
        if random.chance(0.04), let listing = listings.first, listing.region.components.count > 1 {
            query.region = listing.region.components.reversed().joined(separator: "/")     // B/A: usually unknown
        }
        if random.chance(0.7) {
            let checkIn = TestDataset.calendarStart.advanced(by: Int.random(in: -4...84, using: &random))
            query.checkIn = checkIn
            query.checkOut = checkIn.advanced(by: random.pick([1, 1, 2, 3, 4, 7, 12, 20]))
        }
        query.adults = random.pick([1, 1, 2, 3])
        query.children = random.pick([0, 0, 1, 2])
        query.infants = Int.random(in: 0...5, using: &random)
        let edges: [Int64] = hasWidePrices
            ? [0, 99, 5_000, 7_500, 10_000, 20_000, 200_000_000, 7_500_000_000, 50_000_000_000, 100_000_000_000, 400_000_000_000,
               1_200_000_000_000]
            : [0, 99, 5_000, 7_500, 7_550, 10_000, 12_000, 20_000, 3_000_000, 200_000_000]
        if random.chance(0.4) { query.minimumPrice = Money(minorUnits: random.pick(edges)) }
        if random.chance(0.4) { query.maximumPrice = Money(minorUnits: random.pick(edges) + random.pick([0, 0, 1, 2_500])) }
        if let low = query.minimumPrice, let high = query.maximumPrice, low > high { swap(&query.minimumPrice, &query.maximumPrice) }
        if random.chance(0.3) { query.roomType = random.pick(ListingIndex.standardRoomTypes) }
        if random.chance(0.02) { query.roomType = "Castle" }
        query.sort = random.pick([SortOrder.price, .priceDescending, .rating, .reviews, .recommended])
        query.limit = random.pick([0, 1, 5, 20])
        query.offset = random.pick([0, 0, 3, 50])
        query.bins = random.pick([1, 3, 10, 30])
        if random.chance(0.4) { query.histogramMinimum = Money(minorUnits: random.pick(edges)) }
        if random.chance(0.4) { query.histogramMaximum = Money(minorUnits: random.pick(edges) + random.pick([100, 2_500, 10_000])) }
        if let low = query.histogramMinimum, let high = query.histogramMaximum, high <= low {
            query.histogramMaximum = Money(minorUnits: low.minorUnits + 100)
        }
        addDetailFilters(to: &query, using: &random)
        addFlexibleDates(to: &query, using: &random)
        // A search without dates now and then on a later today: a window that has rolled on, where a
        // listing without its own price is priced by its first priced night from today.
        if query.checkIn == nil, query.checkInFrom == nil, random.chance(0.3) {
            query.today = TestDataset.calendarStart.advanced(by: Int.random(in: 1...40, using: &random))
        }
        return query
    }

    /// Flexible dates, now and then: a stay that may move, or a window of check-ins (some invalid).
    private func addFlexibleDates(to query: inout SearchQuery, using random: inout SeededGenerator) {
        guard random.chance(0.25) else { return }
        if query.checkIn != nil, random.chance(0.5) {
            query.flexibleDays = random.chance(0.03) ? 8 : random.pick([0, 1, 2, 3, 3, 7])
            return
        }
        query.checkIn = nil
        query.checkOut = nil
        let from = TestDataset.calendarStart.advanced(by: Int.random(in: -10...80, using: &random))
        query.checkInFrom = from
        query.checkInTo = from.advanced(by: random.chance(0.03) ? 62 : random.pick([0, 2, 6, 13, 30, 61]))
        query.windowNights = random.chance(0.03) ? 0 : random.pick([1, 2, 3, 5, 7, 14])
        if random.chance(0.3) {
            query.checkInWeekdays = Set((0..<Int.random(in: 1...3, using: &random)).map { _ in random.pick(Weekday.allCases) })
        }
    }

    /// Listing-detail and map filters, now and then.
    private func addDetailFilters(to query: inout SearchQuery, using random: inout SeededGenerator) {
        if random.chance(0.15) { query.bedrooms = Int.random(in: 0...3, using: &random) }
        if random.chance(0.1) { query.beds = Int.random(in: 0...3, using: &random) }
        if random.chance(0.1) { query.bathroomHalves = Int.random(in: 0...4, using: &random) }
        if random.chance(0.15) {
            query.propertyTypes = (0..<Int.random(in: 1...2, using: &random)).map { _ in random.pick(TestDataset.propertyTypeNames) }
            if random.chance(0.05) { query.propertyTypes.append("Igloo") }
        }
        if random.chance(0.2) {
            query.amenities = (0..<Int.random(in: 1...2, using: &random)).map { _ in
                random.pick(["WIFI", "kitchen", "pool", "Fast wifi – 500 Mbps", "cafe machine", "Hot tub"])
            }
            if random.chance(0.05) { query.amenities.append("Helipad") }
        }
        if random.chance(0.1) { query.instantBookableOnly = true }
        if random.chance(0.1) { query.superhostsOnly = true }
        if random.chance(0.15) {
            var south = random.pick(TestDataset.latitudes), north = random.pick(TestDataset.latitudes + [90])
            if south > north { swap(&south, &north) }
            query.boundingBox = MapBox(south: south, west: random.pick(TestDataset.longitudes), north: north,
                                       east: random.pick(TestDataset.longitudes))
        }
        if random.chance(0.3), !listings.isEmpty {
            let centre = random.pick(listings)
            query.near = GeoPoint(latitude: centre.latitude, longitude: centre.longitude)
            if random.chance(0.7) {
                // Often exactly the distance to another listing, which must then be included.
                let other = random.pick(listings)
                let stored = { (degrees: Double) in (degrees * 1e7).rounded() / 1e7 }
                let exact = ReferenceSearch.kilometres(
                    from: GeoPoint(latitude: centre.latitude, longitude: centre.longitude),
                    to: GeoPoint(latitude: stored(other.latitude), longitude: stored(other.longitude)))
                query.radiusKilometres = exact > 0 && random.chance(0.7) ? exact : random.pick([0.5, 100, 1_500, 20_000])
            }
            if random.chance(0.5) { query.sort = .distance }
        }
        if random.chance(0.3) {
            query.facets = Facet.allCases.filter { _ in random.chance(0.5) }
            query.facetLimit = random.pick([1, 3, 10, 100])
        }
    }
}
