import PriceGraph
import StaySearch

/// A price calendar as text (month grids) and JSON (docs/query-semantics.md, "Price calendar").
package enum PriceCalendarFormatting {
    /// `{"nights", "today", "first_day", "last_day", "days": [{"checkin", "checkout", "status", "count",
    /// "lowest_total", "median_total"}], "took_us"}`: totals in the data's currency, `null` without stays;
    /// `took_us` when `tookMicroseconds` is given.
    package static func json(_ calendar: PriceCalendar, tookMicroseconds: Int? = nil) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.field("nights", number: calendar.nights)
        json.field("today", string: calendar.today?.description)
        json.field("first_day", string: calendar.firstDay.description)
        json.field("last_day", string: calendar.endDay.advanced(by: -1).description)
        json.key("days")
        json.beginArray()
        for day in calendar.days {
            json.beginObject()
            json.field("checkin", string: day.checkIn.description)
            json.field("checkout", string: day.checkIn.advanced(by: calendar.nights).description)
            json.field("status", string: day.status.rawValue)
            json.field("count", number: day.count)
            json.field("lowest_total", number: day.lowest?.decimalText)
            json.field("median_total", number: day.median?.decimalText)
            json.endObject()
        }
        json.endArray()
        if let tookMicroseconds { json.field("took_us", number: tookMicroseconds) }
        json.endObject()
        return json.text
    }

    /// The calendar's months as text grids, with a title line and the legend.
    package static func text(_ calendar: PriceCalendar, title: String, firstWeekday: Int, style: DisplayStyle) -> String {
        let months = PriceCalendarMonth.months(of: calendar, firstWeekday: firstWeekday, style: style)
        return title + "\n\n" + months.map { $0.text() }.joined(separator: "\n") + "\n"
            + PriceCalendarMonth.legend(nights: calendar.nights, style: style) + "\n"
    }

    /// `3 nights from each day · Antwerp · 2 guests` (or in Korean): what the calendar shows.
    package static func title(_ calendar: PriceCalendar, query: SearchQuery, style: DisplayStyle) -> String {
        let korean = style.language == .korean
        var parts = [korean ? "체크인별 \(calendar.nights)박" : "\(calendar.nights) night\(calendar.nights == 1 ? "" : "s") from each check-in"]
        if let region = query.region { parts.append(region) }
        parts.append(korean ? "게스트 \(query.guests)명" : "\(query.guests) guest\(query.guests == 1 ? "" : "s")")
        if query.minimumPrice != nil || query.maximumPrice != nil {
            let low = query.minimumPrice.map { style.money($0, showsCents: false) } ?? ""
            let high = query.maximumPrice.map { style.money($0, showsCents: false) } ?? ""
            parts.append((korean ? "1박 " : "") + "\(low)–\(high)" + (korean ? "" : " a night"))
        }
        return parts.joined(separator: " · ")
    }
}
