import ArgumentParser
import StaySearch

/// `staysearch listing ID`: one listing, and with dates the quote of a stay there.
struct ListingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listing",
        abstract: "Show a listing and, with dates, the price of a stay night by night and whether it can be booked.",
        discussion: """
            Examples:
              staysearch listing 50904
              staysearch listing 50904 --checkin 2024-07-12 --checkout 2024-07-15 --adults 2
            """)

    @OptionGroup var data: DataOptions

    @Argument(help: "The listing id.")
    var id: String

    @OptionGroup var stay: StayOptions

    func validate() throws {
        guard Int64(id) != nil else { throw ValidationError("'\(id)' is not a listing id (a number)") }
        do { _ = try stay.makeQuery() } catch { throw ValidationError(error.description) }
    }

    func run() throws {
        let stay = try self.stay.makeQuery()
        let index = try data.loadIndex()
        guard let row = index.row(ofListingID: Int64(id)!) else {
            throw CommandFailure(message: "no listing has id \(id)", code: ExitStatus.badInput)
        }
        var output = ListingFormatting.details(index: index, row: row)
        if let checkIn = stay.checkIn, let checkOut = stay.checkOut {
            output += "\n" + ListingFormatting.quote(index.quote(row: row, checkIn: checkIn, checkOut: checkOut, guests: stay.guests),
                                                     guests: stay.guests, infants: stay.infants)
        }
        Standard.write(output)
    }
}

/// The listing screen and the stay quote as text.
enum ListingFormatting {
    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    static func details(index: ListingIndex, row: Int) -> String {
        let path = index.regionPath(ofRow: row)
        let rating = index.ratings[row]
        let listingPrice = index.listingPrices[row]
        let base = index.basePrices[row]
        var lines = [index.names[row].replacingOccurrences(of: "\n", with: " ")]
        lines.append("id \(index.ids[row]) · \(path.components.joined(separator: " / ")) · \(index.roomTypeNames[Int(index.roomTypes[row])]) · "
            + "up to \(index.accommodates[row]) guests")
        let priceText = base >= 0 ? Money(minorUnits: Int64(base)).formatted() + " a night" : "no price"
        let source = listingPrice >= 0 ? "listing price" : "first priced calendar night"
        lines.append("price \(priceText)\(base >= 0 ? " (\(source))" : "") · rating "
            + (rating >= 0 ? ResultFormatting.ratingText(Int32(rating)) : "none") + " (\(index.reviewCounts[row]) reviews) · "
            + "\(ResultFormatting.coordinate(index.latitude(ofRow: row))), \(ResultFormatting.coordinate(index.longitude(ofRow: row)))")
        if index.dayCount > 0 {
            let last = index.firstDay.advanced(by: index.dayCount - 1)
            var free = 0
            for offset in 0..<min(30, index.dayCount) where index.isBookable(row: row, day: index.firstDay.advanced(by: offset)) { free += 1 }
            lines.append("calendar \(index.firstDay) … \(last) · \(free) of the first \(min(30, index.dayCount)) nights free")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func quote(_ quote: StayQuote, guests: Int, infants: Int) -> String {
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
}
