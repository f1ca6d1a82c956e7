import StaySearchAPI
import ArgumentParser
import StaySearch

/// `staysearch histogram`: the price histogram of a query, as a PNG or as terminal bars.
struct HistogramCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "histogram",
        abstract: "Draw the price histogram of a search: a PNG with --png, else bars in the terminal.",
        discussion: """
            The histogram covers every listing that matches all filters except the price range; the \
            range (--min-price/--max-price) is highlighted, the rest dimmed, with slider thumbs at its ends.

            Examples:
              staysearch histogram --region antwerp --checkin 2024-07-12 --checkout 2024-07-15 --max-price 150
              staysearch histogram --region zuid --min-price 80 --max-price 200 --png zuid.png --scale 2
            """)

    @OptionGroup var data: DataOptions
    @OptionGroup var threads: ThreadOptions
    @OptionGroup var query: QueryOptions
    @OptionGroup var platform: PlatformOptions
    @OptionGroup var chart: ChartOptions
    @OptionGroup var display: DisplayOptions

    @Option(help: ArgumentHelp("Write the chart to this PNG file.", valueName: "FILE"))
    var png: String?

    func run() throws {
        var asked = self.query.query
        asked.limit = 0
        let style = try display.style
        let index = try data.loadIndex()
        var query = try data.clock.clock(for: index).prepared(asked)
        query.serviceFeeBasisPoints = try platform.fees(for: index).serviceFeeBasisPoints
        let result = try index.search(query, threads: threads.count)
        if let png {
            try ChartOutput.writePNG(query: query, result: result, index: index, to: png, width: chart.width, height: chart.height, scale: chart.scale,
                                     style: style)
            Standard.write("wrote \(png) (\(chart.width * chart.scale)×\(chart.height * chart.scale)): "
                + ResultFormatting.histogramSummary(result.histogram, style: style) + "\n")
        } else {
            Standard.write(ChartOutput.text(query: query, result: result, style: style)
                + ResultFormatting.histogramSummary(result.histogram, style: style) + "\n")
        }
    }
}
