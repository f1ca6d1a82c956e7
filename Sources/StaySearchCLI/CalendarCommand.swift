import ArgumentParser
import StaySearchAPI
import PriceGraph
import StaySearch

/// `staysearch calendar ID`: a listing's calendar as month grids, in the terminal or as a PNG.
struct CalendarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendar",
        abstract: "Show a listing's calendar as month grids: each day available, booked or outside the calendar, with its price.",
        discussion: """
            Examples:
              staysearch calendar 50904 --month 2024-07
              staysearch calendar 50904 --month 2024-07 --months 3 --first-weekday sunday --png calendar.png
              staysearch calendar 50904 --month 2024-07 --format json
            """)

    /// The weekday a week starts on.
    enum FirstWeekday: String, ExpressibleByArgument, CaseIterable {
        case monday, sunday, saturday
        var fromMonday: Int { self == .monday ? 0 : self == .sunday ? 6 : 5 }
    }

    @OptionGroup var data: DataOptions

    @Argument(help: "The listing id.", transform: ListingID.parse)
    var id: Int64

    @Option(help: ArgumentHelp("The first month.", valueName: "YYYY-MM"), transform: CalendarCommand.month)
    var month: CalendarGrids.Month

    @Option(help: "How many months (1 to 12).")
    var months: Int = 1

    @Option(name: .customLong("first-weekday"), help: "monday, sunday or saturday (default: monday; sunday with --locale ko).")
    var firstWeekday: FirstWeekday?

    @OptionGroup var display: DisplayOptions

    @Option(help: "text (month grids for people) or json (one object with every day).")
    var format: ListingCommand.Format = .text

    @Option(help: ArgumentHelp("Draw the months into this PNG file.", valueName: "FILE"))
    var png: String?

    @Option(help: "1 for normal screens, 2 for high-density ones (with --png).")
    var scale: Int = 1

    func validate() throws {
        guard (1...12).contains(months) else { throw ValidationError("months must be from 1 to 12 (got \(months))") }
        guard (1...4).contains(scale) else { throw ValidationError("scale must be from 1 to 4 (got \(scale))") }
    }

    func run() throws {
        let index = try data.loadIndex()
        let row = try ListingID.row(of: id, in: index)
        let style = try display.style
        let grids = CalendarGrids.grids(index: index, row: row, from: month, count: months,
                                        firstWeekday: firstWeekday?.fromMonday ?? style.firstWeekday, style: style,
                                        clock: try data.clock.clock(for: index))
        let title = "\(ListingFormatting.title(index.listing(atRow: row))) (\(id))"
        if let png {
            ChartOutput.warnAboutFonts(for: style)
            let fonts = FontLocator.sans(for: style.language)
            var chart = CalendarChart(months: grids, title: title, fonts: fonts)
            chart.scale = scale
            do {
                try FileOutput.write(try chart.render().pngData(), to: png)
            } catch let error as GraphError {
                throw CommandFailure(message: "\(png): \(error.description)", code: 1)
            }
            Standard.write("wrote \(png) (\(chart.size.width)×\(chart.size.height))\n")
        } else if format == .json {
            Standard.write(CalendarGrids.json(id: id, grids) + "\n")
        } else {
            Standard.write(title + "\n\n" + grids.map { $0.text() }.joined(separator: "\n") + "\n" + CalendarMonth.legend(style) + "\n")
        }
    }

    /// Reads `YYYY-MM` for `--month`.
    @Sendable static func month(_ text: String) throws -> CalendarGrids.Month {
        do { return try CalendarGrids.Month.parse(text) } catch { throw ValidationError(error.message) }
    }
}
