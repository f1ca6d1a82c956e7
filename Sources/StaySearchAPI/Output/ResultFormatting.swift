import Foundation
import StaySearch

/// Turning search results into JSON, CSV and tables.
package enum ResultFormatting {
    /// The JSON object of a result (docs/query-semantics.md, "Outputs"), with `took_us` appended when given.
    package static func json(_ result: SearchResult, tookMicroseconds: Int? = nil) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.field("total", number: result.total)
        json.field("nights", number: result.nights.map(String.init))
        json.key("results")
        json.beginArray()
        for match in result.matches {
            listingObject(&json, id: match.id, name: match.name, region: match.region, roomType: match.roomType,
                          accommodates: match.accommodates, nightlyPrice: match.nightlyPrice, totalPrice: match.totalPrice,
                          ratingHundredths: match.ratingHundredths, reviewCount: match.reviewCount,
                          latitude: match.latitude, longitude: match.longitude) { json in
                if let distance = match.distanceKilometres { json.field("distance_km", number: kilometres(distance)) }
                if let checkIn = match.checkIn, let checkOut = match.checkOut {
                    json.field("checkin", string: checkIn.description)
                    json.field("checkout", string: checkOut.description)
                }
            }
        }
        json.endArray()
        json.key("histogram")
        json.beginObject()
        let histogram = result.histogram
        json.field("lo", number: histogram.lo.decimalText)
        json.field("hi", number: histogram.hi.decimalText)
        json.field("bins", number: histogram.counts.count)
        json.key("counts")
        json.beginArray()
        for count in histogram.counts { json.number(count) }
        json.endArray()
        json.field("underflow", number: histogram.underflow)
        json.field("overflow", number: histogram.overflow)
        json.field("count", number: histogram.count)
        json.field("average_nightly_price", number: histogram.averageNightlyPrice?.decimalText)
        json.endObject()
        if !result.facets.isEmpty {
            json.key("facets")
            json.beginObject()
            for facet in result.facets {
                json.key(facet.facet.rawValue)
                json.beginArray()
                for entry in facet.entries {
                    json.beginObject()
                    switch entry.value {
                    case .text(let text): json.field("value", string: text)
                    case .number(let number): json.field("value", number: number)
                    case .flag(let flag): json.field("value", bool: flag)
                    }
                    json.field("count", number: entry.count)
                    json.endObject()
                }
                json.endArray()
            }
            json.endObject()
        }
        if let tookMicroseconds { json.field("took_us", number: tookMicroseconds) }
        json.endObject()
        return json.text
    }

    /// A listing as search results show it (docs/query-semantics.md); `extra` adds fields before the object closes.
    package static func listingObject(
        _ json: inout JSONWriter, id: Int64, name: String, region: RegionPath, roomType: String, accommodates: Int,
        nightlyPrice: Money?, totalPrice: Money?, ratingHundredths: Int32?, reviewCount: Int32, latitude: Double,
        longitude: Double, extra: (inout JSONWriter) -> Void = { _ in }
    ) {
        json.beginObject()
        json.field("id", string: String(id))
        json.field("name", string: name)
        json.field("city", string: region.city)
        json.field("neighbourhood_group", string: region.neighbourhoodGroup.isEmpty ? nil : region.neighbourhoodGroup)
        json.field("neighbourhood", string: region.neighbourhood)
        json.field("room_type", string: roomType)
        json.field("accommodates", number: accommodates)
        json.field("nightly_price", number: nightlyPrice?.decimalText)
        json.field("total_price", number: totalPrice?.decimalText)
        json.field("rating", number: ratingHundredths.map(ratingText))
        json.field("reviews", number: Int(reviewCount))
        json.field("latitude", number: coordinate(latitude))
        json.field("longitude", number: coordinate(longitude))
        extra(&json)
        json.endObject()
    }

    /// A rating in hundredths as a decimal: 485 → `4.85`, 500 → `5.0`, 490 → `4.9`.
    package static func ratingText(_ hundredths: Int32) -> String {
        let fraction = hundredths % 100
        if fraction % 10 == 0 { return "\(hundredths / 100).\(fraction / 10)" }
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// A distance in kilometres to three decimals (metres), as JSON shows it.
    package static func kilometres(_ value: Double) -> String {
        let metres = Int64((value * 1000).rounded())
        let fraction = String(metres % 1000)
        return "\(metres / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    package static func coordinate(_ value: Double) -> String {
        value.isFinite ? "\(value)" : "null"
    }

    /// One CSV line per match, after a header.
    package static func csv(_ result: SearchResult) -> String {
        let flexible = result.matches.contains { $0.checkIn != nil }
        var lines = ["id,name,city,neighbourhood_group,neighbourhood,room_type,accommodates,nightly_price,total_price,rating,reviews,latitude,longitude"
                     + (flexible ? ",checkin,checkout" : "")]
        for match in result.matches {
            let fields = [
                String(match.id), match.name, match.region.city, match.region.neighbourhoodGroup, match.region.neighbourhood,
                match.roomType, String(match.accommodates), match.nightlyPrice.decimalText, match.totalPrice?.decimalText ?? "",
                match.ratingHundredths.map(ratingText) ?? "", String(match.reviewCount),
                coordinate(match.latitude), coordinate(match.longitude),
            ] + (flexible ? [match.checkIn?.description ?? "", match.checkOut?.description ?? ""] : [])
            lines.append(fields.map(csvField).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func csvField(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The "Filters" summary under a table: each facet's values with how many homes each leaves.
    package static func facetSummary(_ facets: [FacetCounts], style: DisplayStyle = .standard) -> String {
        guard !facets.isEmpty else { return "" }
        let korean = style.language == .korean
        var output = korean ? "\n필터 (각각 남는 숙소 수):\n" : "\nFilters (homes each leaves):\n"
        let titles: [Facet: String] = korean
            ? [.roomType: "숙소 유형", .propertyType: "건물 유형", .amenities: "편의시설", .bedrooms: "침실", .instantBookable: "즉시 예약",
               .superhost: "슈퍼호스트"]
            : [.roomType: "Type of place", .propertyType: "Property type", .amenities: "Amenities",
               .bedrooms: "Bedrooms", .instantBookable: "Instant Book", .superhost: "Superhost"]
        for facet in facets {
            let entries = facet.entries.map { entry -> String in
                let value: String
                switch entry.value {
                case .text(let text): value = text
                case .number(let number): value = String(number)
                case .flag(let flag): value = korean ? (flag ? "예" : "아니요") : (flag ? "yes" : "no")
                }
                return "\(value) \(grouped(entry.count))"
            }
            output += "  \(titles[facet.facet]!): " + (entries.isEmpty ? (korean ? "없음" : "none") : entries.joined(separator: " · ")) + "\n"
        }
        return output
    }

    /// A table for people, with a summary of the histogram under it.
    /// Prices and words follow `style`.
    package static func table(_ result: SearchResult, query: SearchQuery, style: DisplayStyle = .standard) -> String {
        let showsDistance = query.near != nil
        let showsStay = query.isFlexible
        let korean = style.language == .korean
        let headers = korean ? ["#", "이름", "지역", "숙소 유형", "인원", "1박", "총액", "평점", "거리", "일정"]
            : ["#", "Name", "Neighbourhood", "Room type", "Guests", "Nightly", "Total", "Rating", "Distance", "Stay"]
        var rows: [[String]] = [Array(headers[0..<8]) + (showsDistance ? [headers[8]] : []) + (showsStay ? [headers[9]] : [])]
        for (position, match) in result.matches.enumerated() {
            let totalText: String = match.totalPrice.map { style.money($0) } ?? "-"
            let ratingCell: String = match.ratingHundredths.map { ratingText($0) + " (\(match.reviewCount))" } ?? "- (\(match.reviewCount))"
            let distanceCell: String = match.distanceKilometres.map { String(format: "%.2f km", $0) } ?? "-"
            rows.append([
                String(query.offset + position + 1),
                truncate(match.name, to: 38),
                truncate(match.region.neighbourhood.isEmpty ? match.region.city : match.region.neighbourhood, to: 24),
                match.roomType,
                String(match.accommodates),
                style.money(match.nightlyPrice),
                totalText,
                ratingCell,
            ] + (showsDistance ? [distanceCell] : []) + (showsStay ? [stayText(match, style: style)] : []))
        }
        let rightAligned: Set<Int> = [0, 4, 5, 6, 8]
        var widths = [Int](repeating: 0, count: rows[0].count)
        for row in rows { for (column, cell) in row.enumerated() { widths[column] = max(widths[column], columns(cell)) } }
        var output = ""
        for (number, row) in rows.enumerated() {
            let cells = row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - columns(cell))
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }
            output += cells.joined(separator: "  ").droppingTrailingSpaces + "\n"
            if number == 0 { output += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n" }
        }
        if korean {
            let shown = result.matches.isEmpty ? "표시 없음" : "\(query.offset + 1)–\(query.offset + result.matches.count)번 표시"
            var stay = result.nights.map { " \($0)박" } ?? ""
            if let window = flexibleWindowText(query, style: style) { stay += ", \(window)" }
            output += "\n조건에 맞는 숙소 \(grouped(result.total))곳\(stay) (\(shown))\n"
        } else {
            let shown = result.matches.isEmpty ? "none shown" :
                "showing \(query.offset + 1)–\(query.offset + result.matches.count)"
            var stay = result.nights.map { " for \($0) night\($0 == 1 ? "" : "s")" } ?? ""
            if let window = flexibleWindowText(query) { stay += ", \(window)" }
            output += "\n\(grouped(result.total)) listing\(result.total == 1 ? "" : "s") match\(result.total == 1 ? "es" : "")\(stay) (\(shown))\n"
        }
        output += histogramSummary(result.histogram, style: style) + "\n"
        output += facetSummary(result.facets, style: style)
        return output
    }

    /// The terminal columns `text` takes: two for each Hangul or other East Asian wide character.
    static func columns(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { width, scalar in
            let value = scalar.value
            let wide = (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value) || (0xAC00...0xD7A3).contains(value)
                || (0xF900...0xFAFF).contains(value) || (0xFF00...0xFF60).contains(value) || (0xFFE0...0xFFE6).contains(value)
            return width + (wide ? 2 : (scalar.properties.generalCategory == .nonspacingMark ? 0 : 1))
        }
    }

    /// A flexible stay as the table shows it: `Fri 2024-07-12 → Mon 2024-07-15`.
    package static func stayText(_ match: ListingMatch, style: DisplayStyle = .standard) -> String {
        guard let checkIn = match.checkIn, let checkOut = match.checkOut else { return "-" }
        func text(_ day: Day) -> String {
            style.language == .korean ? "\(style.shortDate(day)) (\(style.weekdayName(day.weekdayFromMonday)))"
                : Weekday(of: day).shortName.capitalized + " \(day)"
        }
        return "\(text(checkIn)) → \(text(checkOut))"
    }

    /// What a flexible query's check-ins are, for titles and summaries: `check-in 2024-07-09 to 2024-07-15
    /// (± 3 days), cheapest stay each`; nil for exact dates.
    package static func flexibleWindowText(_ query: SearchQuery, style: DisplayStyle = .standard) -> String? {
        guard query.isFlexible, let first = query.candidateCheckIns.first, let last = query.candidateCheckIns.last else { return nil }
        if style.language == .korean {
            var text = "체크인 \(style.shortDate(first))–\(style.shortDate(last))"
            if let days = query.flexibleDays { text += " (± \(days)일)" }
            if !query.checkInWeekdays.isEmpty {
                text += " (\(query.checkInWeekdays.sorted().map { style.weekdayName($0.rawValue) }.joined(separator: ", ")))"
            }
            return text + ", 숙소별 최저가 일정"
        }
        var text = "check-in \(first) to \(last)"
        if let days = query.flexibleDays { text += " (± \(days) day\(days == 1 ? "" : "s"))" }
        if !query.checkInWeekdays.isEmpty { text += " on \(query.checkInWeekdays.sorted().map(\.shortName).joined(separator: ", "))" }
        return text + ", cheapest stay each"
    }

    /// `Prices: 1,234 listings, $25 to $400 (37 above, 0 below), average $123.45 a night`.
    package static func histogramSummary(_ histogram: PriceHistogram, style: DisplayStyle = .standard) -> String {
        if style.language == .korean {
            guard let average = histogram.averageNightlyPrice else { return "가격: 가격 외의 조건에 맞는 숙소가 없습니다" }
            var outside: [String] = []
            if histogram.overflow > 0 { outside.append("그 이상 \(grouped(histogram.overflow))") }
            if histogram.underflow > 0 { outside.append("그 이하 \(grouped(histogram.underflow))") }
            let note = outside.isEmpty ? "" : " (\(outside.joined(separator: ", ")))"
            return "가격: 숙소 \(grouped(histogram.count))곳, \(style.money(histogram.lo, showsCents: false))–"
                + "\(style.money(histogram.hi, showsCents: false))\(note), 1박 평균 \(style.money(average))"
        }
        guard let average = histogram.averageNightlyPrice else {
            return "Prices: no listing matches the filters other than price"
        }
        var outside: [String] = []
        if histogram.overflow > 0 { outside.append("\(grouped(histogram.overflow)) above") }
        if histogram.underflow > 0 { outside.append("\(grouped(histogram.underflow)) below") }
        let note = outside.isEmpty ? "" : " (\(outside.joined(separator: ", ")))"
        return "Prices: \(grouped(histogram.count)) listing\(histogram.count == 1 ? "" : "s"), "
            + "\(style.money(histogram.lo, showsCents: false)) to \(style.money(histogram.hi, showsCents: false))\(note), "
            + "average \(style.money(average)) a night"
    }

    package static func grouped(_ value: Int) -> String { DisplayStyle.standard.grouped(value) }

    package static func truncate(_ text: String, to length: Int) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: "")
        return flat.count <= length ? flat : String(flat.prefix(length - 1)) + "…"
    }
}

extension String {
    /// This text without the spaces at its end.
    fileprivate var droppingTrailingSpaces: String {
        var text = Substring(self)
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
