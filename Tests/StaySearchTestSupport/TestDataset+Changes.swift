import StaySearch

extension TestDataset {
    /// Applies a live change the slow, obvious way (docs/query-semantics.md, "Live changes"): checks it against the raw
    /// calendar rows (the first row of a date counts) and, when accepted, sets their availability.
    /// - Parameters: calendarStart, calendarEnd: the index's calendar span (end exclusive).
    /// - Returns: whether the change is accepted; a rejected change changes nothing.
    public mutating func apply(_ change: CalendarChange, calendarStart: Day, calendarEnd: Day) -> Bool {
        if case .listing(let fields) = change { return apply(fields) }
        guard let listingPosition = listings.firstIndex(where: { $0.id == change.id }) else { return false }
        let listing = listings[listingPosition]
        if case .remove = change {
            listings.remove(at: listingPosition)
            nights.removeAll { $0.listingID == change.id }
            return true
        }
        guard let (from, to) = change.nights, to > from, from >= calendarStart, to <= calendarEnd else { return false }
        var firstRow: [Day: Int] = [:]
        for (position, entry) in nights.enumerated() where entry.listingID == change.id && firstRow[entry.night.day] == nil {
            firstRow[entry.night.day] = position
        }
        func isPriced(_ position: Int) -> Bool { nights[position].night.price != nil || listing.price != nil }
        switch change {
        case let .book(_, checkIn, checkOut, guests):
            for day in checkIn..<checkOut {
                guard let position = firstRow[day], nights[position].night.isAvailable, isPriced(position) else { return false }
            }
            let first = nights[firstRow[checkIn]!].night
            let count = checkIn.distance(to: checkOut)
            guard count >= Int(first.minimumNights ?? listing.minimumNights), count <= Int(first.maximumNights ?? listing.maximumNights) else {
                return false
            }
            if let guests, guests > listing.accommodates { return false }
            for day in checkIn..<checkOut { nights[firstRow[day]!].night.isAvailable = false }
        case let .cancel(_, from, to), let .availability(_, from, to, true):
            for day in from..<to {
                guard let position = firstRow[day], isPriced(position) else { return false }
            }
            for day in from..<to { nights[firstRow[day]!].night.isAvailable = true }
        case let .availability(_, from, to, false):
            for day in from..<to {
                if let position = firstRow[day] { nights[position].night.isAvailable = false }
            }
        case let .price(_, from, to, price):
            if let price, price.minorUnits < 0 || price > IndexBuilder.largestPrice { return false }
            for day in from..<to {
                if let position = firstRow[day] {
                    // A night that had no price stays closed until it is opened.
                    if !isPriced(position) { nights[position].night.isAvailable = false }
                    nights[position].night.price = price
                } else {
                    nights.append((change.id, CalendarNight(day: day, isAvailable: false, price: price)))
                }
            }
        case let .rules(_, from, to, minimum, maximum):
            if (minimum ?? 1) < 1 || (maximum ?? 1) < 1 || (minimum ?? 1) > (maximum ?? Int32.max) { return false }
            for day in from..<to {
                guard let position = firstRow[day] else { continue }
                if let minimum { nights[position].night.minimumNights = minimum }
                if let maximum { nights[position].night.maximumNights = maximum }
            }
        case let .days(set):
            for (offset, price) in set.prices.enumerated() where price != -2 {
                let rule = StayRule(packed: set.rules[offset])
                let night = CalendarNight(day: set.from.advanced(by: offset), isAvailable: set.open[offset],
                                          price: price < 0 ? nil : Money(minorUnits: Int64(price)),
                                          minimumNights: Int32(rule.minimumNights), maximumNights: Int32(rule.maximumNights))
                if let position = firstRow[night.day] { nights[position].night = night } else { nights.append((change.id, night)) }
            }
        case .listing, .remove:
            return false
        }
        return true
    }

    /// Applies a `listing` change: the calendar keeps what it had (nights without a price of their own
    /// take the old listing price, or, without one, are closed; nights without stay rules take the old
    /// listing's), then the fields change. A new id adds the listing, without nights.
    private mutating func apply(_ fields: ListingChange) -> Bool {
        guard let position = listings.firstIndex(where: { $0.id == fields.id }) else {
            guard let record = try? fields.newListing(), fields.problem(with: nil) == nil else { return false }
            listings.append(record)
            return true
        }
        let old = listings[position]
        guard fields.problem(with: old) == nil else { return false }
        for entry in nights.indices where nights[entry].listingID == old.id {
            if nights[entry].night.price == nil {
                if let price = old.price { nights[entry].night.price = price } else { nights[entry].night.isAvailable = false }
            }
            if nights[entry].night.minimumNights == nil { nights[entry].night.minimumNights = old.minimumNights }
            if nights[entry].night.maximumNights == nil { nights[entry].night.maximumNights = old.maximumNights }
        }
        listings[position] = fields.applied(to: old)
        return true
    }

    /// A random change: mostly bookings (some of booked nights, some too long for the rules), then
    /// cancellations and availability changes; now and then an unknown listing or nights past the calendar.
    /// With a `listingChanges` share, also prices, stay rules, listings changed, added and removed.
    public func randomChange(using random: inout SeededGenerator, listingChanges: Double = 0) -> CalendarChange {
        let id = random.chance(0.03) || listings.isEmpty ? 987_654_321 : random.pick(listings).id
        let from = TestDataset.calendarStart.advanced(by: Int.random(in: -3...100, using: &random))
        let to = from.advanced(by: random.pick([1, 1, 2, 3, 4, 7, 12]))
        if listingChanges > 0, random.chance(listingChanges) {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                // Wide prices too, up to the largest (and one cent above it, refused).
                let price = random.pick([nil, 1, 99, 5_000, 7_550, 10_000, 30_000, -5, 4_000_000_000_07, 100_000_000_000, 100_000_000_001]
                                        as [Int64?]).map(Money.init(minorUnits:))
                return .price(id: id, from: from, to: random.chance(0.2) ? from.advanced(by: 40) : to, price: price)
            case 4..<6:
                return .rules(id: id, from: from, to: to, minimumNights: random.pick([nil, 1, 2, 3, 0]),
                              maximumNights: random.pick([nil, 2, 5, 30]))
            case 6..<9:
                return .listing(randomListingChange(id: random.chance(0.3) ? Int64.random(in: 700_000...700_010, using: &random) : id,
                                                    using: &random))
            default:
                return .remove(id: id)
            }
        }
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<6: return .book(id: id, checkIn: from, checkOut: to, guests: random.chance(0.3) ? Int.random(in: 1...6, using: &random) : nil)
        case 6..<8: return .cancel(id: id, checkIn: from, checkOut: to)
        default: return .availability(id: id, from: from, to: to, available: random.chance(0.5))
        }
    }

    /// A random `listing` change of `id`: a few fields, from the same pools as the data (a new id gets the
    /// fields a new listing needs, most of the time).
    public func randomListingChange(id: Int64, using random: inout SeededGenerator) -> ListingChange {
        var change = ListingChange(id: id)
        let isNew = !listings.contains { $0.id == id }
        let cities = Array(Set(listings.map(\.region.city))) + ["Gent"]
        if isNew && random.chance(0.85) || random.chance(0.3) {
            change.name = "Changed \(id)"
            change.city = random.pick(cities)
            change.neighbourhood = random.pick(["Centrum", "Zuid", "Nieuw - Zuid", "Haven"])
            change.neighbourhoodGroup = random.pick(["", "Kreis 1"])
            change.roomType = random.pick(["Entire home/apt", "Private room", "Hotel room"])
            change.accommodates = Int.random(in: 1...6, using: &random)
        }
        if random.chance(0.5) {
            change.price = .some(random.pick([nil, 5_000, 12_000, 99, 2_500_000_000_00] as [Int64?]).map(Money.init(minorUnits:)))
        }
        if random.chance(0.3) { change.minimumNights = random.pick([1, 2, 3, 0]) }
        if random.chance(0.3) { change.maximumNights = random.pick([2, 30, Int32.max]) }
        if random.chance(0.3) { change.ratingHundredths = .some(random.pick([nil, 300, 490])) }
        if random.chance(0.3) { change.reviewCount = random.pick([0, 7, 500]) }
        if random.chance(0.3) {
            change.latitude = random.pick(TestDataset.latitudes)
            change.longitude = random.pick(TestDataset.longitudes)
        }
        if random.chance(0.3) { change.bedrooms = .some(random.pick([nil, 1, 4])) }
        if random.chance(0.2) { change.beds = .some(random.pick([nil, 2])) }
        if random.chance(0.2) { change.bathroomHalves = .some(random.pick([nil, 3])) }
        if random.chance(0.3) { change.propertyType = random.pick(TestDataset.propertyTypeNames + ["Yurt", ""]) }
        if random.chance(0.3) { change.amenities = (0..<Int.random(in: 0...3, using: &random)).map { _ in random.pick(TestDataset.amenityNames + ["Sauna"]) } }
        if random.chance(0.3) { change.isInstantBookable = random.chance(0.5) }
        if random.chance(0.3) { change.isSuperhost = random.chance(0.5) }
        if random.chance(0.3) {
            // Fees, now and then out of bounds (refused) or cleared.
            change.cleaningFee = .some(random.pick([nil, 0, 2_500, 9_999, -1] as [Int64?]).map(Money.init(minorUnits:)))
            if random.chance(0.5) {
                change.extraGuestFee = .some(random.pick([nil, 1_000, 1 << 24] as [Int64?]).map(Money.init(minorUnits:)))
                change.guestsIncluded = random.pick([1, 2, 3])
            }
            if random.chance(0.5) { change.weeklyDiscountBasisPoints = random.pick([0, 1_000, 1_250, 9_901]) }
            if random.chance(0.3) { change.monthlyDiscountBasisPoints = random.pick([0, 2_500, 9_900]) }
            if random.chance(0.2) { change.securityDeposit = .some(random.pick([nil, 20_000] as [Int64?]).map(Money.init(minorUnits:))) }
        }
        return change
    }
}
