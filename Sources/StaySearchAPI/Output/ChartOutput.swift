import PriceGraph
import StayData
import StaySearch

#if canImport(Glibc)
import Glibc
#endif

/// Drawing a search's histogram: as a PNG file or as bars in the terminal.
package enum ChartOutput {
    /// The terminal's width in columns, or 80 when standard output is not a terminal.
    package static var terminalWidth: Int {
        var size = winsize()
        guard isatty(1) == 1, ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// The title and subtitle that say what was searched.
    package static func titles(query: SearchQuery, result: SearchResult, index: ListingIndex) -> (String, String) {
        titles(query: query, result: result, regionPath: { name in
            let matched = index.regions.nodes(matching: name)
            return matched.count == 1 ? index.regions.path(of: matched[0]) : nil
        })
    }

    /// The titles, with the region's path from `regionPath` (nil: the name as given).
    package static func titles(query: SearchQuery, result: SearchResult, regionPath: (String) -> [String]?) -> (String, String) {
        var title = "All listings"
        if let region = query.region {
            title = regionPath(region)?.joined(separator: " / ") ?? region
        }
        if query.isFlexible, let first = query.candidateCheckIns.first, let last = query.candidateCheckIns.last,
           let nights = query.nights {
            let weekdays = query.checkInWeekdays.isEmpty ? "" : " (\(query.checkInWeekdays.sorted().map(\.shortName).joined(separator: ", ")))"
            title += " · check-in \(first) → \(last)\(weekdays) · \(nights) night\(nights == 1 ? "" : "s")"
        } else if let checkIn = query.checkIn, let checkOut = query.checkOut, let nights = query.nights {
            title += " · \(checkIn) → \(checkOut), \(nights) night\(nights == 1 ? "" : "s")"
        } else {
            title += " · any dates"
        }
        var parts = query.isFlexible ? ["cheapest stay each"] : []
        parts.append("\(query.guests) guest\(query.guests == 1 ? "" : "s")")
        if query.infants > 0 { parts.append("\(query.infants) infant\(query.infants == 1 ? "" : "s")") }
        if let roomType = query.roomType { parts.append(roomType) }
        parts.append("\(ResultFormatting.grouped(result.histogram.count)) listings priced")
        let matches = ResultFormatting.grouped(result.total)
        switch (query.minimumPrice, query.maximumPrice) {
        case let (low?, high?): parts.append("\(matches) from \(low.formatted(showsCents: false)) to \(high.formatted(showsCents: false))")
        case let (low?, nil): parts.append("\(matches) from \(low.formatted(showsCents: false))")
        case let (nil, high?): parts.append("\(matches) up to \(high.formatted(showsCents: false))")
        case (nil, nil): break
        }
        if let average = result.histogram.averageNightlyPrice {
            parts.append("average \(average.formatted(showsCents: false)) a night")
        }
        return (title, parts.joined(separator: " · "))
    }

    /// Writes the histogram chart of `result` to `path` as a PNG.
    package static func writePNG(query: SearchQuery, result: SearchResult, index: ListingIndex, to path: String, width: Int, height: Int, scale: Int) throws {
        if FontLocator.sans() == nil {
            Standard.error("staysearch: warning: no TrueType font (DejaVu Sans) found; using gd's built-in font")
        }
        let png: [UInt8]
        do {
            png = try histogramPNG(query: query, result: result, titles: titles(query: query, result: result, index: index),
                                   width: width, height: height, scale: scale)
        } catch {
            throw CommandFailure(message: "\(path): \(error.description)", code: ExitStatus.badInput)
        }
        try FileOutput.write(png, to: path)
    }

    /// The histogram chart of `result` as PNG bytes.
    package static func histogramPNG(query: SearchQuery, result: SearchResult, titles: (String, String), width: Int, height: Int,
                             scale: Int) throws(GraphError) -> [UInt8] {
        var chart = HistogramChart(histogram: result.histogram, nights: query.nights ?? 1, minimumPrice: query.minimumPrice,
                                   maximumPrice: query.maximumPrice, title: titles.0, subtitle: titles.1, fonts: FontLocator.sans())
        chart.width = width
        chart.height = height
        chart.scale = scale
        return try chart.render().pngData()
    }

    /// The histogram as terminal bars with a summary line under them.
    package static func text(query: SearchQuery, result: SearchResult) -> String {
        TextHistogram.render(result.histogram, minimumPrice: query.minimumPrice, maximumPrice: query.maximumPrice,
                             width: min(terminalWidth, 120))
    }
}
