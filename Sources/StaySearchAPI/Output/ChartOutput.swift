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
    package static func titles(query: SearchQuery, result: SearchResult, index: ListingIndex,
                               style: DisplayStyle = .standard) -> (String, String) {
        titles(query: query, result: result, regionPath: { name in
            let matched = index.regions.nodes(matching: name)
            return matched.count == 1 ? index.regions.path(of: matched[0]) : nil
        }, includesFees: index.pricesIncludeFees(query), style: style)
    }

    /// The titles, with the region's path from `regionPath` (nil: the name as given), in `style`'s words; the
    /// subtitle says so when the prices are trip prices (`includesFees`).
    package static func titles(query: SearchQuery, result: SearchResult, regionPath: (String) -> [String]?, includesFees: Bool = false,
                               style: DisplayStyle = .standard) -> (String, String) {
        if style.language == .korean {
            return koreanTitles(query: query, result: result, regionPath: regionPath, includesFees: includesFees, style: style)
        }
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
        if includesFees { parts.append("prices include fees, before taxes") }
        return (title, parts.joined(separator: " · "))
    }

    /// ``titles(query:result:regionPath:style:)`` in Korean.
    static func koreanTitles(query: SearchQuery, result: SearchResult, regionPath: (String) -> [String]?, includesFees: Bool,
                             style: DisplayStyle) -> (String, String) {
        var title = "모든 숙소"
        if let region = query.region { title = regionPath(region)?.joined(separator: " / ") ?? region }
        if query.isFlexible, let first = query.candidateCheckIns.first, let last = query.candidateCheckIns.last, let nights = query.nights {
            let weekdays = query.checkInWeekdays.isEmpty ? ""
                : " (\(query.checkInWeekdays.sorted().map { style.weekdayName($0.rawValue) }.joined(separator: ", ")))"
            title += " · 체크인 \(style.shortDate(first)) → \(style.shortDate(last))\(weekdays) · \(nights)박"
        } else if let checkIn = query.checkIn, let checkOut = query.checkOut, let nights = query.nights {
            title += " · \(style.shortDate(checkIn)) → \(style.shortDate(checkOut)), \(nights)박"
        } else {
            title += " · 날짜 미정"
        }
        var parts = query.isFlexible ? ["숙소별 최저가 일정"] : []
        parts.append("게스트 \(query.guests)명")
        if query.infants > 0 { parts.append("유아 \(query.infants)명") }
        if let roomType = query.roomType { parts.append(roomType) }
        parts.append("가격 있는 숙소 \(ResultFormatting.grouped(result.histogram.count))곳")
        let matches = ResultFormatting.grouped(result.total)
        switch (query.minimumPrice, query.maximumPrice) {
        case let (low?, high?):
            parts.append("\(style.money(low, showsCents: false))–\(style.money(high, showsCents: false)) \(matches)곳")
        case let (low?, nil): parts.append("\(style.money(low, showsCents: false)) 이상 \(matches)곳")
        case let (nil, high?): parts.append("\(style.money(high, showsCents: false)) 이하 \(matches)곳")
        case (nil, nil): break
        }
        if let average = result.histogram.averageNightlyPrice { parts.append("1박 평균 \(style.money(average, showsCents: false))") }
        if includesFees { parts.append("수수료 포함, 세금 별도") }
        return (title, parts.joined(separator: " · "))
    }

    /// Warns on standard error when no font writes `style`'s language (charts fall back to another one).
    package static func warnAboutFonts(for style: DisplayStyle) {
        if FontLocator.sans() == nil {
            Standard.error("staysearch: warning: no TrueType font (DejaVu Sans) found; using gd's built-in font")
        } else if !FontLocator.hasFont(for: style.language) {
            Standard.error("staysearch: warning: no font with Hangul (Noto Sans CJK, Debian's fonts-noto-cjk) found; Korean text will not show")
        }
    }

    /// Writes the histogram chart of `result` to `path` as a PNG.
    package static func writePNG(query: SearchQuery, result: SearchResult, index: ListingIndex, to path: String, width: Int, height: Int, scale: Int,
                                 style: DisplayStyle = .standard) throws {
        warnAboutFonts(for: style)
        let png: [UInt8]
        do {
            png = try histogramPNG(query: query, result: result, titles: titles(query: query, result: result, index: index, style: style),
                                   width: width, height: height, scale: scale, style: style)
        } catch {
            throw CommandFailure(message: "\(path): \(error.description)", code: ExitStatus.badInput)
        }
        try FileOutput.write(png, to: path)
    }

    /// The histogram chart of `result` as PNG bytes.
    package static func histogramPNG(query: SearchQuery, result: SearchResult, titles: (String, String), width: Int, height: Int,
                             scale: Int, style: DisplayStyle = .standard) throws(GraphError) -> [UInt8] {
        var chart = HistogramChart(histogram: result.histogram, nights: query.nights ?? 1, minimumPrice: query.minimumPrice,
                                   maximumPrice: query.maximumPrice, title: titles.0, subtitle: titles.1,
                                   fonts: FontLocator.sans(for: style.language))
        chart.style = style
        chart.width = width
        chart.height = height
        chart.scale = scale
        return try chart.render().pngData()
    }

    /// The histogram as terminal bars with a summary line under them.
    package static func text(query: SearchQuery, result: SearchResult, style: DisplayStyle = .standard) -> String {
        TextHistogram.render(result.histogram, minimumPrice: query.minimumPrice, maximumPrice: query.maximumPrice,
                             width: min(terminalWidth, 120), style: style)
    }
}
