import ArgumentParser
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
            """)

    /// The weekday a week starts on.
    enum FirstWeekday: String, ExpressibleByArgument, CaseIterable {
        case monday, sunday, saturday
        var fromMonday: Int { self == .monday ? 0 : self == .sunday ? 6 : 5 }
    }

    @OptionGroup var data: DataOptions

    @Argument(help: "The listing id.")
    var id: String

    @Option(help: ArgumentHelp("The first month.", valueName: "YYYY-MM"))
    var month: String

    @Option(help: "How many months (1 to 12).")
    var months: Int = 1

    @Option(name: .customLong("first-weekday"), help: "monday, sunday or saturday.")
    var firstWeekday: FirstWeekday = .monday

    @Option(help: ArgumentHelp("Draw the months into this PNG file.", valueName: "FILE"))
    var png: String?

    @Option(help: "1 for normal screens, 2 for high-density ones (with --png).")
    var scale: Int = 1

    func validate() throws {
        guard Int64(id) != nil else { throw ValidationError("'\(id)' is not a listing id (a number)") }
        guard parsedMonth != nil else { throw ValidationError("month '\(month)' is not a month; use YYYY-MM, e.g. 2024-07") }
        guard (1...12).contains(months) else { throw ValidationError("months must be from 1 to 12 (got \(months))") }
        guard (1...4).contains(scale) else { throw ValidationError("scale must be from 1 to 4 (got \(scale))") }
    }

    private var parsedMonth: (year: Int, month: Int)? {
        let parts = month.split(separator: "-")
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, let year = Int(parts[0]), let month = Int(parts[1]),
              Day(year: year, month: month, day: 1) != nil, year < 9999 else { return nil }
        return (year, month)
    }

    func run() throws {
        let index = try data.loadIndex()
        guard let row = index.row(ofListingID: Int64(id)!) else {
            throw CommandFailure(message: "no listing has id \(id)", code: ExitStatus.badInput)
        }
        var (year, monthNumber) = parsedMonth!
        var grids: [CalendarMonth] = []
        for _ in 0..<months {
            grids.append(CalendarMonth(index: index, row: row, year: year, month: monthNumber, firstWeekday: firstWeekday.fromMonday))
            monthNumber += 1
            if monthNumber > 12 { monthNumber = 1; year += 1 }
        }
        let title = "\(index.names[row].replacingOccurrences(of: "\n", with: " ")) (\(index.ids[row]))"
        if let png {
            let fonts = FontLocator.sans()
            if fonts == nil { Standard.error("staysearch: warning: no TrueType font (DejaVu Sans) found; using gd's built-in font") }
            var chart = CalendarChart(months: grids, title: title, fonts: fonts)
            chart.scale = scale
            do {
                try FileOutput.write(try chart.render().pngData(), to: png)
            } catch let error as GraphError {
                throw CommandFailure(message: "\(png): \(error.description)", code: 1)
            }
            Standard.write("wrote \(png) (\(chart.size.width)×\(chart.size.height))\n")
        } else {
            Standard.write(title + "\n\n" + grids.map { $0.text() }.joined(separator: "\n") + "\n" + CalendarMonth.legend + "\n")
        }
    }
}
