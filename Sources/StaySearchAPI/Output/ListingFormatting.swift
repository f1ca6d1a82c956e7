import StaySearch

/// The listing screen and the stay quote as text and JSON.
package enum ListingFormatting {
    package static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// The listing's title on one line.
    package static func title(_ listing: ListingRecord) -> String {
        listing.name.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: "")
    }

    package static func details(index: ListingIndex, row: Int) -> String {
        let listing = index.listing(atRow: row)
        var lines = [title(listing)]
        lines.append("id \(listing.id) · \(listing.region.components.joined(separator: " / ")) · \(listing.roomType) · "
            + "up to \(listing.accommodates) guests")
        let priceText: String
        if let (price, source) = index.priceWithoutDates(ofRow: row) {
            priceText = price.formatted() + " a night (" + (source == .listing ? "listing price" : "first priced calendar night") + ")"
        } else {
            priceText = "no price"
        }
        lines.append("price \(priceText) · rating "
            + (listing.ratingHundredths.map(ResultFormatting.ratingText) ?? "none") + " (\(listing.reviewCount) reviews) · "
            + "\(ResultFormatting.coordinate(listing.latitude)), \(ResultFormatting.coordinate(listing.longitude))")
        if index.dayCount > 0 {
            let last = index.firstDay.advanced(by: index.dayCount - 1)
            let days = min(30, index.dayCount)
            lines.append("calendar \(index.firstDay) … \(last) · \(index.bookableNights(ofRow: row, inFirst: days)) of the first \(days) nights free")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    package static func quote(_ quote: StayQuote, guests: Int, infants: Int) -> String {
        let count = quote.nights.count
        var lines: [String] = []
        let first = quote.nights.first!.day, end = quote.nights.last!.day.advanced(by: 1)
        lines.append("Stay \(first) → \(end), \(count) night\(count == 1 ? "" : "s"), \(guests) guest\(guests == 1 ? "" : "s")"
            + (infants > 0 ? " and \(infants) infant\(infants == 1 ? "" : "s")" : "") + ":")
        for night in quote.nights {
            let price = night.price?.formatted() ?? "-"
            lines.append("  \(weekdays[night.day.weekdayFromMonday]) \(night.day)  \(String(repeating: " ", count: max(0, 10 - price.count)))\(price)  \(night.status.rawValue)")
        }
        if let total = quote.total, let average = quote.averageNightlyPrice {
            lines.append("  total \(total.formatted()) · average \(average.formatted()) a night")
        } else {
            lines.append("  no total: not every night has a price")
        }
        if quote.isBookable {
            lines.append("  can be booked")
        } else {
            lines.append("  cannot be booked:")
            lines.append(contentsOf: quote.problems.map { "  - \($0)" })
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The listing object of docs/query-semantics.md: the fields of a search result (for the stay when there is a quote whose
    /// every night is priced, else the price without dates), and with a quote its nights and verdict.
    package static func json(index: ListingIndex, row: Int, quote: StayQuote?) -> String {
        let listing = index.listing(atRow: row)
        let stayPriced = quote?.total != nil
        var json = JSONWriter()
        ResultFormatting.listingObject(
            &json, id: listing.id, name: listing.name, region: listing.region, roomType: listing.roomType,
            accommodates: listing.accommodates,
            nightlyPrice: stayPriced ? quote?.averageNightlyPrice : index.priceWithoutDates(ofRow: row)?.price,
            totalPrice: stayPriced ? quote?.total : nil, ratingHundredths: listing.ratingHundredths,
            reviewCount: listing.reviewCount, latitude: listing.latitude, longitude: listing.longitude
        ) { json in
            guard let quote, let first = quote.nights.first, let last = quote.nights.last else { return }
            json.key("quote")
            json.beginObject()
            json.field("checkin", string: first.day.description)
            json.field("checkout", string: last.day.advanced(by: 1).description)
            json.key("nights")
            json.beginArray()
            for night in quote.nights { nightObject(&json, night) }
            json.endArray()
            json.field("total_price", number: quote.total?.decimalText)
            json.field("nightly_price", number: quote.averageNightlyPrice?.decimalText)
            json.field("bookable", bool: quote.isBookable)
            json.key("reasons")
            json.beginArray()
            for problem in quote.problems { json.string(problem.description) }
            json.endArray()
            json.endObject()
        }
        return json.text
    }

    /// `{"date": "2024-07-12", "price": 175.00, "available": true, "status": "available"}`.
    package static func nightObject(_ json: inout JSONWriter, _ night: ListingNight) {
        json.beginObject()
        json.field("date", string: night.day.description)
        json.field("price", number: night.price?.decimalText)
        json.field("available", bool: night.status == .available)
        json.field("status", string: night.status.rawValue)
        json.endObject()
    }
}
