import ArgumentParser
import PriceGraph
import StaySearch
import StaySearchAPI

/// `staysearch price-calendar`: for each check-in day of a month, how many stays of N nights there are and
/// from what total.
struct PriceCalendarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "price-calendar",
        abstract: "Show a month of check-in days, each with how many stays of N nights can be booked and the lowest total.",
        discussion: """
            Each day is exactly what a search with that check-in and N nights finds (region, guests, filters \
            and price range applied): its number of stays, the lowest total and, with --format json, the \
            median total. Days before today or whose stay leaves the data are marked.

            Examples:
              staysearch price-calendar --region antwerp --month 2024-07 --nights 3 --adults 2
              staysearch price-calendar --region zuid --nights 7 --max-price 150 --png july.png --locale ko
              staysearch price-calendar --checkin-from 2024-07-10 --checkin-to 2024-08-20 --nights 2 --format json
            """)

    @OptionGroup var data: DataOptions
    @OptionGroup var threads: ThreadOptions
    @OptionGroup var query: PriceCalendarQueryOptions
    @OptionGroup var platform: PlatformOptions

    @Option(help: ArgumentHelp("Every check-in day of this month (default: today's month).", valueName: "YYYY-MM"))
    var month: String?

    @Option(name: .customLong("first-weekday"), help: "monday, sunday or saturday (default: monday; sunday with --locale ko).")
    var firstWeekday: CalendarCommand.FirstWeekday?

    @OptionGroup var display: DisplayOptions

    @Option(help: "text (month grids for people) or json (one object with every day).")
    var format: ListingCommand.Format = .text

    @Option(help: ArgumentHelp("Draw the months into this PNG file.", valueName: "FILE"))
    var png: String?

    @Option(help: "1 for normal screens, 2 for high-density ones (with --png).")
    var scale: Int = 1

    func validate() throws {
        guard (1...4).contains(scale) else { throw ValidationError("scale must be from 1 to 4 (got \(scale))") }
        _ = try calendarQuery(today: Day(year: 2000, month: 1, day: 1)!)
    }

    /// The query of the flags on `today`.
    private func calendarQuery(today: Day) throws -> SearchQuery {
        do {
            return try PriceCalendarRequest.query(query.items + (month.map { [("month", $0)] } ?? []), today: today)
        } catch let error as InputError {
            throw ValidationError(error.message)
        }
    }

    func run() throws {
        let style = try display.style
        let loaded = try data.loadSearchable()
        loaded.platform = try platform.fees(for: loaded.index)
        let today = loaded.clock?.today ?? loaded.calendarSpan.first
        let calendarQuery = try calendarQuery(today: today)
        let calendar = try loaded.priceCalendar(calendarQuery, threads: threads.count)
        let title = PriceCalendarFormatting.title(calendar, query: calendarQuery, style: style)
        let weekday = firstWeekday?.fromMonday ?? style.firstWeekday
        if let png {
            ChartOutput.warnAboutFonts(for: style)
            var chart = PriceCalendarChart(months: PriceCalendarMonth.months(of: calendar, firstWeekday: weekday, style: style), title: title,
                                           nights: calendar.nights, fonts: FontLocator.sans(for: style.language))
            chart.scale = scale
            do {
                try FileOutput.write(try chart.render().pngData(), to: png)
            } catch let error as GraphError {
                throw CommandFailure(message: "\(png): \(error.description)", code: 1)
            }
            Standard.write("wrote \(png) (\(chart.size.width)×\(chart.size.height))\n")
        } else if format == .json {
            Standard.write(PriceCalendarFormatting.json(calendar) + "\n")
        } else {
            Standard.write(PriceCalendarFormatting.text(calendar, title: title, firstWeekday: weekday, style: style))
        }
    }
}
