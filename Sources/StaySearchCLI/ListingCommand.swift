import StaySearchAPI
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
              staysearch listing 50904 --checkin 2024-07-12 --checkout 2024-07-15 --format json
            """)

    /// Output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @OptionGroup var data: DataOptions

    @Argument(help: "The listing id.", transform: ListingID.parse)
    var id: Int64

    @OptionGroup var stay: StayOptions
    @OptionGroup var platform: PlatformOptions

    @Option(help: "text (for people) or json.")
    var format: Format = .text

    @OptionGroup var display: DisplayOptions

    func run() throws {
        let stay = self.stay.query
        let index = try data.loadIndex()
        let row = try ListingID.row(of: id, in: index)
        let platform = try self.platform.fees(for: index)
        let clock = try data.clock.clock(for: index)
        let today = clock.today
        if let checkIn = stay.checkIn, checkIn < today { throw QueryError.checkInBeforeToday(checkIn: checkIn, today: today) }
        let quote = stay.checkIn.flatMap { checkIn in
            stay.checkOut.map { index.quote(row: row, checkIn: checkIn, checkOut: $0, guests: stay.guests, coveredUntil: clock.end,
                                      platform: platform) }
        }
        switch format {
        case .json:
            Standard.write(ListingFormatting.json(index: index, row: row, quote: quote, today: today) + "\n")
        case .text:
            let style = try display.style
            var output = ListingFormatting.details(index: index, row: row, clock: clock, style: style)
            if let quote { output += "\n" + ListingFormatting.quote(quote, guests: stay.guests, infants: stay.infants, style: style) }
            Standard.write(output)
        }
    }
}
