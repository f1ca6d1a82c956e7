import Foundation
import StaySearch

/// A query as one JSON line of `staysearch batch`, written field by field from ``SearchQuery`` (not from the
/// schema the reader uses, so that reading it back checks each key's setter).
public enum BatchQueryLine {
    public static func json(_ query: SearchQuery) -> String {
        var fields: [String] = []
        func quoted(_ text: String) -> String {
            let data = try! JSONSerialization.data(withJSONObject: [text])
            return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
        }
        if let region = query.region { fields.append("\"region\": \(quoted(region))") }
        if let day = query.checkIn { fields.append("\"checkin\": \"\(day)\"") }
        if let day = query.checkOut { fields.append("\"checkout\": \"\(day)\"") }
        fields.append("\"adults\": \(query.adults)")
        fields.append("\"children\": \(query.children)")
        fields.append("\"infants\": \(query.infants)")
        if let money = query.minimumPrice { fields.append("\"min_price\": \(money.decimalText)") }
        if let money = query.maximumPrice { fields.append("\"max_price\": \(money.decimalText)") }
        if let roomType = query.roomType { fields.append("\"room_type\": \(quoted(roomType))") }
        fields.append("\"sort\": \"\(query.sort.rawValue)\"")
        fields.append("\"limit\": \(query.limit)")
        fields.append("\"offset\": \(query.offset)")
        fields.append("\"bins\": \(query.bins)")
        if let money = query.histogramMinimum { fields.append("\"hist_min\": \(money.decimalText)") }
        if let money = query.histogramMaximum { fields.append("\"hist_max\": \(money.decimalText)") }
        if let count = query.bedrooms { fields.append("\"bedrooms\": \(count)") }
        if let count = query.beds { fields.append("\"beds\": \(count)") }
        if let halves = query.bathroomHalves { fields.append("\"bathrooms\": \(halves / 2)\(halves % 2 == 1 ? ".5" : "")") }
        if !query.propertyTypes.isEmpty { fields.append("\"property_type\": [\(query.propertyTypes.map(quoted).joined(separator: ", "))]") }
        if !query.amenities.isEmpty { fields.append("\"amenities\": [\(query.amenities.map(quoted).joined(separator: ", "))]") }
        if query.instantBookableOnly { fields.append("\"instant_bookable\": true") }
        if query.superhostsOnly { fields.append("\"superhost\": true") }
        if let box = query.boundingBox { fields.append("\"bbox\": [\(box.south), \(box.west), \(box.north), \(box.east)]") }
        if let point = query.near { fields.append("\"near\": [\(point.latitude), \(point.longitude)]") }
        if let radius = query.radiusKilometres { fields.append("\"radius_km\": \(radius)") }
        if let days = query.flexibleDays { fields.append("\"flexible_days\": \(days)") }
        if let day = query.checkInFrom { fields.append("\"checkin_from\": \"\(day)\"") }
        if let day = query.checkInTo { fields.append("\"checkin_to\": \"\(day)\"") }
        if let nights = query.windowNights { fields.append("\"nights\": \(nights)") }
        if !query.checkInWeekdays.isEmpty {
            fields.append("\"checkin_weekdays\": [\(query.checkInWeekdays.sorted().map { "\"\($0.shortName)\"" }.joined(separator: ", "))]")
        }
        if !query.facets.isEmpty {
            fields.append("\"facets\": [\(query.facets.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))]")
            fields.append("\"facet_limit\": \(query.facetLimit)")
        }
        return "{" + fields.joined(separator: ", ") + "}"
    }
}
