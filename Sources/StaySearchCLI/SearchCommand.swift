import StaySearchAPI
import ArgumentParser
import StaySearch

/// `staysearch search`: one query, printed as a table, JSON or CSV.
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find listings for a region, dates, guests and price range.",
        discussion: """
            Prints the matching listings (one page) and a summary of the price histogram, which \
            covers every listing that matches all filters except the price range.

            Examples:
              staysearch search --region "Centraal Station" --checkin 2024-07-12 --checkout 2024-07-15 --adults 2
              staysearch search --region antwerp --max-price 120 --sort rating --format json
              staysearch search --region antwerp --checkin 2024-07-12 --checkout 2024-07-15 --flexible-days 3
              staysearch search --region antwerp --checkin-from 2024-08-01 --checkin-to 2024-08-31 --nights 2 --checkin-weekdays fri,sat
              staysearch search --data Zurich=./zurich --region "kreis 1" --room-type "Private room"
            """)

    /// Output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json, csv
    }

    @OptionGroup var data: DataOptions
    @OptionGroup var threads: ThreadOptions
    @OptionGroup var query: QueryOptions
    @OptionGroup var platform: PlatformOptions

    @Option(help: "table (for people), json or csv.")
    var format: Format = .table

    @Option(help: ArgumentHelp("Also draw the price histogram into this PNG file.", valueName: "FILE"))
    var png: String?

    @OptionGroup var chart: ChartOptions

    @Option(help: ArgumentHelp("Also draw the results on a map into this PNG file.", valueName: "FILE"))
    var map: String?

    @OptionGroup var mapSize: MapSizeOptions
    @OptionGroup var display: DisplayOptions

    func run() throws {
        let query = self.query.query
        let style = try display.style
        let loaded = try data.loadSearchable()
        loaded.platform = try platform.fees(for: loaded.index)
        let result = try loaded.search(query, threads: threads.count)
        switch format {
        case .json: Standard.write(ResultFormatting.json(result) + "\n")
        case .csv: Standard.write(ResultFormatting.csv(result))
        case .table:
            Standard.write(ResultFormatting.table(result, query: query, style: style) + "\n" + ChartOutput.text(query: query, result: result, style: style))
        }
        if let png {
            try ChartOutput.writePNG(query: query, result: result, index: loaded.index, to: png, width: chart.width, height: chart.height, scale: chart.scale,
                                     style: style)
        }
        if let map {
            try MapOutput.writePNG(query: query, result: result, index: loaded.index, to: map, width: mapSize.mapWidth,
                                   height: mapSize.mapHeight, scale: mapSize.mapScale, threads: threads.count, style: style)
        }
    }
}
