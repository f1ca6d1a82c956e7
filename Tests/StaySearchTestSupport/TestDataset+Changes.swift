import StaySearch

extension TestDataset {
    /// Applies a live change the slow, obvious way (SPEC "Live calendars"): checks it against the raw
    /// calendar rows (the first row of a date counts) and, when accepted, sets their availability.
    /// - Parameters: calendarStart, calendarEnd: the index's calendar span (end exclusive).
    /// - Returns: whether the change is accepted; a rejected change changes nothing.
    public mutating func apply(_ change: CalendarChange, calendarStart: Day, calendarEnd: Day) -> Bool {
        guard let listing = listings.first(where: { $0.id == change.id }) else { return false }
        let (from, to) = change.nights
        guard to > from, from >= calendarStart, to <= calendarEnd else { return false }
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
        }
        return true
    }

    /// A random change: mostly bookings (some of booked nights, some too long for the rules), then
    /// cancellations and availability changes; now and then an unknown listing or nights past the calendar.
    public func randomChange(using random: inout SeededGenerator) -> CalendarChange {
        let id = random.chance(0.03) || listings.isEmpty ? 987_654_321 : random.pick(listings).id
        let from = TestDataset.calendarStart.advanced(by: Int.random(in: -3...100, using: &random))
        let to = from.advanced(by: random.pick([1, 1, 2, 3, 4, 7, 12]))
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<6: return .book(id: id, checkIn: from, checkOut: to, guests: random.chance(0.3) ? Int.random(in: 1...6, using: &random) : nil)
        case 6..<8: return .cancel(id: id, checkIn: from, checkOut: to)
        default: return .availability(id: id, from: from, to: to, available: random.chance(0.5))
        }
    }
}
