import Foundation
import StaySearch

/// What a search answers, in a form both the engine and the reference produce.
public struct ReferenceAnswer: Equatable, CustomStringConvertible {
    public var total: Int
    public var nights: Int?
    public var ids: [Int64]
    public var nightlyPrices: [Int64]
    public var totalPrices: [Int64?]
    public var histogram: PriceHistogram
    /// Each result's distance from `near`, when the query has one.
    public var distances: [Double?]
    /// The facet counts.
    public var facets: [FacetCounts]
    /// Each result's chosen check-in, for flexible dates.
    public var checkIns: [Day?]

    /// The answer part of an engine result.
    public init(_ result: SearchResult) {
        total = result.total
        nights = result.nights
        ids = result.matches.map(\.id)
        nightlyPrices = result.matches.map(\.nightlyPrice.minorUnits)
        totalPrices = result.matches.map { $0.totalPrice?.minorUnits }
        histogram = result.histogram
        distances = result.matches.map(\.distanceKilometres)
        facets = result.facets
        checkIns = result.matches.map(\.checkIn)
    }

    init(total: Int, nights: Int?, ids: [Int64], nightlyPrices: [Int64], totalPrices: [Int64?], histogram: PriceHistogram,
         distances: [Double?], facets: [FacetCounts] = [], checkIns: [Day?]) {
        self.checkIns = checkIns
        self.distances = distances
        self.facets = facets
        self.total = total
        self.nights = nights
        self.ids = ids
        self.nightlyPrices = nightlyPrices
        self.totalPrices = totalPrices
        self.histogram = histogram
    }

    public var description: String {
        "total \(total), nights \(String(describing: nights)), ids \(ids), nightly \(nightlyPrices), totals \(totalPrices), "
            + "histogram lo \(histogram.lo.minorUnits) hi \(histogram.hi.minorUnits) counts \(histogram.counts) "
            + "under \(histogram.underflow) over \(histogram.overflow) count \(histogram.count) "
            + "average \(String(describing: histogram.averageNightlyPrice?.minorUnits)) distances \(distances) facets \(facets) check-ins \(checkIns)"
    }
}

/// docs/query-semantics.md executed the slow, obvious way: every listing, every night, every rule, one at a time.
public enum ReferenceSearch {
    /// Answers `query` over `data`.
    /// - Throws: ``QueryError`` exactly where the engine must.
    public static func search(_ query: SearchQuery, in data: TestDataset) throws(QueryError) -> ReferenceAnswer {
        var (answer, matched) = try run(query, in: data)
        for facet in query.facets {
            var pool = matched
            if facet.isFiltered(in: query) {
                var relaxed = facet.clearingFilter(of: query)
                relaxed.facets = []
                pool = try run(relaxed, in: data).matched
            }
            answer.facets.append(FacetCounts(facet: facet, counted: entries(facet, over: pool, data: data), limit: query.facetLimit))
        }
        return answer
    }

    /// The values of `facet` over `listings`, counted: names grouped folded and shown as first spelled in
    /// the data, unknown values left out.
    static func entries(_ facet: Facet, over listings: [ListingRecord], data: TestDataset) -> [FacetCounts.Entry] {
        func names(_ lists: [[String]], counting pool: [[String]]) -> [FacetCounts.Entry] {
            var display: [String: String] = [:]
            for list in lists {
                for name in list where display[TextFolding.fold(name)] == nil {
                    display[TextFolding.fold(name)] = name.trimmingCharacters(in: .whitespacesAndNewlines)
                }
            }
            var counts: [String: Int] = [:]
            for list in pool { for folded in Set(list.map(TextFolding.fold)) { counts[folded, default: 0] += 1 } }
            return counts.map { FacetCounts.Entry(value: .text(display[$0.key]!), count: $0.value) }
        }
        switch facet {
        case .roomType:
            return Dictionary(grouping: listings, by: \.roomType).map { FacetCounts.Entry(value: .text($0.key), count: $0.value.count) }
        case .propertyType:
            let lists = { (records: [ListingRecord]) in records.map { [$0.propertyType].filter { !$0.isEmpty } } }
            return names(lists(data.listings), counting: lists(listings))
        case .amenities:
            return names(data.listings.map(\.amenities), counting: listings.map(\.amenities))
        case .bedrooms:
            return Dictionary(grouping: listings.compactMap(\.bedrooms), by: { $0 }).map { FacetCounts.Entry(value: .number($0.key), count: $0.value.count) }
        case .instantBookable, .superhost:
            let yes = listings.filter { facet == .instantBookable ? $0.isInstantBookable : $0.isSuperhost }.count
            return [FacetCounts.Entry(value: .flag(true), count: yes), FacetCounts.Entry(value: .flag(false), count: listings.count - yes)]
        }
    }

    /// The answer without facets, and every listing that matches all filters.
    static func run(_ query: SearchQuery, in data: TestDataset) throws(QueryError) -> (answer: ReferenceAnswer, matched: [ListingRecord]) {
        try query.validate()
        // Calendars: the first row for a date wins.
        var calendars: [Int64: [Day: CalendarNight]] = [:]
        for (id, night) in data.nights where calendars[id]?[night.day] == nil {
            calendars[id, default: [:]][night.day] = night
        }

        var regionFilter: ((ListingRecord) -> Bool)?
        if let region = query.region {
            let whole = TextFolding.fold(region)
            let allNames = data.listings.flatMap { $0.region.components.map(TextFolding.fold) }
            if allNames.contains(whole) {
                regionFilter = { $0.region.components.map(TextFolding.fold).contains(whole) }
            } else {
                let parts = region.split(separator: "/").map { TextFolding.fold(String($0)) }.filter { !$0.isEmpty }
                regionFilter = { listing in
                    guard parts.count > 1 else { return false }
                    let path = listing.region.components.map(TextFolding.fold)
                    for end in path.indices where path[end] == parts.last! {
                        // Are the earlier parts, in order, among the names above `end`?
                        var wanted = parts.count - 2
                        var position = end - 1
                        while wanted >= 0, position >= 0 {
                            if path[position] == parts[wanted] { wanted -= 1 }
                            position -= 1
                        }
                        if wanted < 0 { return true }
                    }
                    return false
                }
                if !data.listings.contains(where: regionFilter!) {
                    throw .unknownRegion(region, suggestions: [])
                }
            }
        }
        if let roomType = query.roomType {
            let known = Set(data.listings.map(\.roomType)).union(ListingIndex.standardRoomTypes)
            guard known.contains(roomType) else { throw .unknownRoomType(roomType, known: []) }
        }

        for name in query.propertyTypes {
            let known = Set(data.listings.map(\.propertyType).filter { !$0.isEmpty }.map(TextFolding.fold))
            guard known.contains(TextFolding.fold(name)) else { throw .unknownPropertyType(name, suggestions: []) }
        }
        for name in query.amenities {
            let known = Set(data.listings.flatMap(\.amenities).map(TextFolding.fold).filter { !$0.isEmpty })
            guard known.contains(TextFolding.fold(name)) else { throw .unknownAmenity(name, suggestions: []) }
        }
        let wantedTypes = Set(query.propertyTypes.map(TextFolding.fold))
        let wantedAmenities = Set(query.amenities.map(TextFolding.fold))
        func stored(_ degrees: Double) -> Int64 { Int64((degrees * 1e7).rounded()) }
        func position(_ listing: ListingRecord) -> GeoPoint {
            GeoPoint(latitude: Double(stored(listing.latitude)) / 1e7, longitude: Double(stored(listing.longitude)) / 1e7)
        }
        func distance(_ listing: ListingRecord) -> Double? {
            query.near.map { kilometres(from: $0, to: position(listing)) }
        }

        let nights = query.nights
        var candidates: [(listing: ListingRecord, value: Int64)] = []
        var chosenCheckIns: [Int64: Day] = [:]
        for listing in data.listings {
            if let regionFilter, !regionFilter(listing) { continue }
            if query.adults + query.children > listing.accommodates { continue }
            if let roomType = query.roomType, listing.roomType != roomType { continue }
            if let minimum = query.bedrooms { guard let value = listing.bedrooms, value >= minimum else { continue } }
            if let minimum = query.beds { guard let value = listing.beds, value >= minimum else { continue } }
            if let minimum = query.bathroomHalves { guard let value = listing.bathroomHalves, value >= minimum else { continue } }
            if !wantedTypes.isEmpty {
                guard !listing.propertyType.isEmpty, wantedTypes.contains(TextFolding.fold(listing.propertyType)) else { continue }
            }
            if !wantedAmenities.isSubset(of: Set(listing.amenities.map(TextFolding.fold))) { continue }
            if query.instantBookableOnly, !listing.isInstantBookable { continue }
            if query.superhostsOnly, !listing.isSuperhost { continue }
            if let box = query.boundingBox {
                let latitude = stored(listing.latitude), longitude = stored(listing.longitude)
                guard latitude >= stored(box.south), latitude <= stored(box.north) else { continue }
                let west = stored(box.west), east = stored(box.east)
                let inside = box.west > box.east ? longitude >= west || longitude <= east : longitude >= west && longitude <= east
                guard inside else { continue }
            }
            if let radius = query.radiusKilometres, let distance = distance(listing), distance > radius { continue }
            let calendar = calendars[listing.id] ?? [:]
            /// The total of the stay from `checkIn` for `nights` nights, if it can be booked.
            func stayTotal(from checkIn: Day, nights: Int) -> Int64? {
                var total: Int64 = 0
                for day in checkIn..<checkIn.advanced(by: nights) {
                    guard let night = calendar[day], night.isAvailable,
                          let price = night.price ?? listing.price else { return nil }
                    total += price.minorUnits
                }
                let first = calendar[checkIn]!
                let minimum = first.minimumNights ?? listing.minimumNights
                let maximum = first.maximumNights ?? listing.maximumNights
                guard nights >= minimum, nights <= maximum else { return nil }
                return total
            }
            /// The trip price of a stay of `nights` whose nights sum to `sum` (SPEC, "What a guest pays").
            func trip(_ sum: Int64, nights: Int) -> Int64 {
                ReferenceSearch.tripPrice(nightsSum: sum, nights: nights, guests: query.adults + query.children, fees: listing.fees,
                                          serviceFee: query.serviceFeeBasisPoints)
            }
            if query.isFlexible, let nights {
                // Every shift tried, one after another; the cheapest wins, the earliest of equals.
                let days: [Day]
                if let from = query.checkInFrom, let to = query.checkInTo {
                    days = stride(from: from, through: to, by: 1).filter { day in
                        query.checkInWeekdays.isEmpty || query.checkInWeekdays.map(\.rawValue).contains(day.weekdayFromMonday)
                    }.filter { day in query.today.map { day >= $0 } ?? true }
                } else {
                    let shift = query.flexibleDays!
                    days = stride(from: query.checkIn!.advanced(by: -shift), through: query.checkIn!.advanced(by: shift), by: 1)
                        .filter { day in query.today.map { day >= $0 } ?? true }
                }
                var best: (total: Int64, day: Day)?
                for day in days {
                    guard let total = stayTotal(from: day, nights: nights) else { continue }
                    if best == nil || total < best!.total { best = (total, day) }
                }
                guard let best else { continue }
                // The cheapest stay by its nights (the earliest of equals), priced with its fees.
                candidates.append((listing, trip(best.total, nights: nights)))
                chosenCheckIns[listing.id] = best.day
            } else if let checkIn = query.checkIn, let nights {
                guard let total = stayTotal(from: checkIn, nights: nights) else { continue }
                candidates.append((listing, trip(total, nights: nights)))
            } else {
                // Its first priced night from today on (docs/query-semantics.md).
                let firstPriced = calendar.keys.sorted()
                    .first { day in calendar[day]!.price != nil && query.today.map { day >= $0 } ?? true }
                    .flatMap { calendar[$0]!.price }
                guard let price = listing.price ?? firstPriced else { continue }
                candidates.append((listing, price.minorUnits))
            }
        }

        let n = Int64(nights ?? 1)
        let histogram = makeHistogram(candidates.map(\.value), nights: n, query: query)
        var matches = candidates.filter { candidate in
            (query.minimumPrice.map { $0.minorUnits * n <= candidate.value } ?? true)
                && (query.maximumPrice.map { candidate.value <= $0.minorUnits * n } ?? true)
        }
        let scores = query.sort == .recommended ? recommendedScores(matches, query: query, data: data) : [:]
        matches.sort { a, b in
            func rank(_ entry: (listing: ListingRecord, value: Int64)) -> [Int64] {
                switch query.sort {
                case .price: return [entry.value]
                case .priceDescending: return [-entry.value]
                case .rating: return [entry.listing.ratingHundredths == nil ? 1 : 0, -Int64(entry.listing.ratingHundredths ?? 0), -Int64(entry.listing.reviewCount)]
                case .reviews: return [-Int64(entry.listing.reviewCount)]
                case .distance: return []
                case .recommended: return [-scores[entry.listing.id]!]
                }
            }
            if query.sort == .distance, let left = distance(a.listing), let right = distance(b.listing), left != right {
                return left < right
            }
            let (left, right) = (rank(a) + [a.listing.id], rank(b) + [b.listing.id])
            return left.lexicographicallyPrecedes(right)
        }
        let page = matches.dropFirst(query.offset).prefix(query.limit)
        return (ReferenceAnswer(
            total: matches.count, nights: nights, ids: page.map(\.listing.id),
            nightlyPrices: page.map { roundedDivision($0.value, by: n) },
            totalPrices: page.map { nights == nil ? nil : $0.value }, histogram: histogram,
            distances: page.map { distance($0.listing) }, checkIns: page.map { chosenCheckIns[$0.listing.id] }), matches.map(\.listing))
    }

    /// SPEC's trip price, step by step: S the nights' sum; the monthly discount from 28 nights, else the weekly
    /// one from 7 (basis points, half up); extra guests above those included, a fee a night each; the cleaning
    /// fee; the service fee on all of that (half up).
    public static func tripPrice(nightsSum s: Int64, nights n: Int, guests g: Int, fees: ListingFees?, serviceFee: Int) -> Int64 {
        var bp: Int64 = 0
        var e: Int64 = 0
        var c: Int64 = 0
        if let fees {
            if n >= 28 && fees.monthlyDiscountBasisPoints > 0 {
                bp = Int64(fees.monthlyDiscountBasisPoints)
            } else if n >= 7 && fees.weeklyDiscountBasisPoints > 0 {
                bp = Int64(fees.weeklyDiscountBasisPoints)
            }
            let included = max(1, fees.guestsIncluded)
            if g > included { e = Int64(g - included) * (fees.extraGuestFee?.minorUnits ?? 0) * Int64(n) }
            c = fees.cleaningFee?.minorUnits ?? 0
        }
        let d = halfUp(s * bp, 10_000)
        let beforeService = s - d + e + c
        let f = halfUp(beforeService * Int64(serviceFee), 10_000)
        return beforeService + f
    }

    /// ⌊(a + b/2) / b⌋ for a ≥ 0.
    static func halfUp(_ a: Int64, _ b: Int64) -> Int64 { (a + b / 2) / b }

    /// The score of each match in the `recommended` order, by id, as docs/query-semantics.md defines it, in
    /// thousandths of a point: rating shrunk toward the city's mean (0–50), recent reviews (0–20), superhost
    /// (10), price against the matches' lower median (±20), nearness to the point or box centre (0–20).
    public static func recommendedScores(_ matches: [(listing: ListingRecord, value: Int64)], query: SearchQuery,
                                  data: TestDataset) -> [Int64: Int64] {
        var cityMeans: [String: Int64] = [:]
        for (city, listings) in Dictionary(grouping: data.listings, by: \.region.city) {
            let ratings = listings.compactMap(\.ratingHundredths).map(Int64.init)
            cityMeans[city] = ratings.isEmpty ? 0 : ratings.reduce(0, +) / Int64(ratings.count)
        }
        let prices = matches.map(\.value).sorted()
        let median = prices.isEmpty ? 0 : prices[(prices.count - 1) / 2]
        var centre = query.near
        if centre == nil, let box = query.boundingBox {
            let east = box.east < box.west ? box.east + 360 : box.east
            var longitude = (box.west + east) / 2
            if longitude > 180 { longitude -= 360 }
            centre = GeoPoint(latitude: (box.south + box.north) / 2, longitude: longitude)
        }
        func stored(_ degrees: Double) -> Double { Double(Int64((degrees * 1e7).rounded())) / 1e7 }
        var scores: [Int64: Int64] = [:]
        for (listing, value) in matches {
            let n: Int64 = listing.ratingHundredths == nil ? 0 : Int64(listing.reviewCount)
            let r = Int64(listing.ratingHundredths ?? 0)
            var score = (r * n + cityMeans[listing.region.city]! * 10) * 100 / (n + 10)
            let recent = Int64(min(listing.recentReviewCount, 65_535))
            score += 20_000 * recent / (recent + 12)
            if listing.isSuperhost { score += 10_000 }
            if median > 0 { score += min(20_000, max(-20_000, 20_000 * (median - value) / median)) }
            if let centre {
                let point = GeoPoint(latitude: stored(listing.latitude), longitude: stored(listing.longitude))
                let metres = Int64((kilometres(from: centre, to: point) * 1000).rounded(.down))
                score += 20_000 * 1_000 / (1_000 + metres)
            }
            scores[listing.id] = score
        }
        return scores
    }

    /// The haversine distance in kilometres on the sphere of docs/query-semantics.md (radius 6371.0088 km).
    public static func kilometres(from a: GeoPoint, to b: GeoPoint) -> Double {
        let radians = Double.pi / 180
        let halfLatitude = (b.latitude - a.latitude) * radians / 2
        let halfLongitude = (b.longitude - a.longitude) * radians / 2
        let h = sin(halfLatitude) * sin(halfLatitude)
            + cos(a.latitude * radians) * cos(b.latitude * radians) * sin(halfLongitude) * sin(halfLongitude)
        return 2 * 6371.0088 * asin(min(1, h.squareRoot()))
    }

    static func roundedDivision(_ value: Int64, by divisor: Int64) -> Int64 {
        // Half up, by exact comparison of remainders.
        let quotient = value / divisor
        return (value - quotient * divisor) * 2 >= divisor ? quotient + 1 : quotient
    }

    static func makeHistogram(_ values: [Int64], nights n: Int64, query: SearchQuery) -> PriceHistogram {
        let sorted = values.sorted()
        var lo: Int64
        var hi: Int64
        // Whole units: floor of the lowest nightly price; ceiling of the smaller of the nearest-rank 95th
        // percentile and the fence Q3 + 3 × (Q3 − Q1).
        let defaultLo = sorted.first.map { Int64((Double($0) / Double(n * 100)).rounded(.down)) * 100 } ?? 0
        if let given = query.histogramMinimum { lo = given.minorUnits } else { lo = defaultLo }
        if let given = query.histogramMaximum {
            hi = given.minorUnits
            if query.histogramMinimum == nil, lo >= hi { lo = max(0, hi - 100) }
        } else {
            if sorted.isEmpty {
                hi = lo + 100
            } else {
                func percentile(_ p: Int) -> Int64 {
                    // Rank ⌈p/100 · count⌉ counting from 1, by exact integer arithmetic.
                    var rank = p * sorted.count / 100
                    if rank * 100 < p * sorted.count { rank += 1 }
                    return sorted[max(rank, 1) - 1]
                }
                let q1 = percentile(25), q3 = percentile(75)
                let cut = min(percentile(95), q3 + 3 * (q3 - q1))
                var units = cut / (n * 100)
                if units * n * 100 < cut { units += 1 }
                hi = units * 100
            }
            if hi <= lo { hi = lo + 100 }
        }
        var counts = [Int](repeating: 0, count: query.bins)
        var underflow = 0
        var overflow = 0
        for total in values {
            // Compare nightly prices as fractions total / n against lo and hi.
            if total < lo * n { underflow += 1; continue }
            if total > hi * n { overflow += 1; continue }
            var bin = 0
            // The largest bin b whose lower edge lo + b·(hi − lo)/bins is ≤ total / n.
            for candidate in 0..<query.bins where (lo * Int64(query.bins) + Int64(candidate) * (hi - lo)) * n <= total * Int64(query.bins) {
                bin = candidate
            }
            counts[bin] += 1
        }
        let sum = values.reduce(0, +)
        return PriceHistogram(
            lo: Money(minorUnits: lo), hi: Money(minorUnits: hi), counts: counts, underflow: underflow, overflow: overflow,
            count: values.count,
            averageNightlyPrice: values.isEmpty ? nil : Money(minorUnits: roundedDivision(sum, by: Int64(values.count) * n)))
    }
}

extension QueryError {
    /// The error with its suggestions left out: the reference names the unknown name, the index also
    /// suggests close ones (tested on their own).
    public var withoutSuggestions: QueryError {
        switch self {
        case .unknownRegion(let name, _): return .unknownRegion(name, suggestions: [])
        case .unknownRoomType(let name, _): return .unknownRoomType(name, known: [])
        case .unknownPropertyType(let name, _): return .unknownPropertyType(name, suggestions: [])
        case .unknownAmenity(let name, _): return .unknownAmenity(name, suggestions: [])
        default: return self
        }
    }
}
