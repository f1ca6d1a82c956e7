import Foundation
import StaySearch

/// Reading a ``SearchQuery`` from one JSON line of a batch file.
enum BatchQuery {
    /// The keys a line may have.
    static let keys = ["region", "checkin", "checkout", "adults", "children", "infants", "min_price", "max_price",
                       "room_type", "sort", "limit", "offset", "bins", "hist_min", "hist_max", "bedrooms", "beds", "bathrooms",
                       "property_type", "amenities", "instant_bookable", "superhost", "bbox", "near", "radius_km", "facets",
                       "facet_limit", "flexible_days", "checkin_from", "checkin_to", "nights", "checkin_weekdays", "map"]

    /// Parses and validates one line: the query, and the PNG file its results' map goes to (`"map"`), if any.
    /// - Throws: ``BatchLineError`` or ``QueryError``.
    static func parse(_ line: String) throws -> (query: SearchQuery, mapPath: String?) {
        try parse(FlatJSONObject(parsing: line))
    }

    /// The keys whose values are text (the others are numbers, flags, or lists of numbers).
    static let textKeys: Set<String> = ["region", "checkin", "checkout", "checkin_from", "checkin_to", "room_type", "sort",
                                        "property_type", "amenities", "facets", "checkin_weekdays", "map"]
    /// The keys that take a list.
    static let listKeys: Set<String> = ["property_type", "amenities", "facets", "checkin_weekdays"]

    /// The query of a URL's query string (SPEC "HTTP API"): the same keys, each value as text; a repeated key
    /// is a list, `bbox` and `near` are numbers separated by commas.
    static func parse(queryItems: [(key: String, value: String)]) throws -> SearchQuery {
        var entries: [(key: String, value: FlatJSONObject.Value)] = []
        for (key, text) in queryItems {
            guard keys.contains(key), key != "map" else { throw BatchLineError("unknown key '\(key)'; keys are \(keys.filter { $0 != "map" }.joined(separator: ", "))") }
            let value: FlatJSONObject.Value
            if textKeys.contains(key) {
                value = .string(text)
            } else if key == "bbox" || key == "near" {
                value = .array(text.split(separator: ",", omittingEmptySubsequences: false).map { .number($0.trimmingCharacters(in: .whitespaces)) })
            } else if key == "instant_bookable" || key == "superhost" {
                value = text == "true" ? .bool(true) : text == "false" ? .bool(false) : .string(text)
            } else {
                value = .number(text)
            }
            if let position = entries.firstIndex(where: { $0.key == key }) {
                guard listKeys.contains(key) else { throw BatchLineError("key '\(key)' appears twice") }
                if case .array(let values) = entries[position].value {
                    entries[position].value = .array(values + [value])
                } else {
                    entries[position].value = .array([entries[position].value, value])
                }
            } else {
                entries.append((key, value))
            }
        }
        return try parse(FlatJSONObject(entries: entries)).query
    }

    /// Parses and validates a JSON object of query keys.
    static func parse(_ object: FlatJSONObject) throws -> (query: SearchQuery, mapPath: String?) {
        var query = SearchQuery()
        var mapPath: String?
        for (key, value) in object.entries {
            if value == .null { continue }
            switch key {
            case "map":
                mapPath = try string(value, key)
                guard mapPath?.isEmpty == false else { throw BatchLineError("map must name a PNG file") }
            case "region": query.region = try string(value, key)
            case "checkin": query.checkIn = try QueryParsing.day(try string(value, key), field: "checkin")
            case "checkout": query.checkOut = try QueryParsing.day(try string(value, key), field: "checkout")
            case "flexible_days": query.flexibleDays = try integer(value, key)
            case "checkin_from": query.checkInFrom = try QueryParsing.day(try string(value, key), field: "checkin from")
            case "checkin_to": query.checkInTo = try QueryParsing.day(try string(value, key), field: "checkin to")
            case "nights": query.windowNights = try integer(value, key)
            case "checkin_weekdays":
                query.checkInWeekdays = try QueryParsing.weekdays(try strings(value, key).flatMap { $0.split(separator: ",").map(String.init) })
            case "adults": query.adults = try integer(value, key)
            case "children": query.children = try integer(value, key)
            case "infants": query.infants = try integer(value, key)
            case "min_price": query.minimumPrice = try money(value, key)
            case "max_price": query.maximumPrice = try money(value, key)
            case "room_type": query.roomType = try string(value, key)
            case "sort": query.sort = try SortOrder(parsing: try string(value, key))
            case "limit": query.limit = try integer(value, key)
            case "offset": query.offset = try integer(value, key)
            case "bins": query.bins = try integer(value, key)
            case "hist_min": query.histogramMinimum = try money(value, key)
            case "hist_max": query.histogramMaximum = try money(value, key)
            case "bedrooms": query.bedrooms = try integer(value, key)
            case "beds": query.beds = try integer(value, key)
            case "bathrooms": query.bathroomHalves = try QueryParsing.bathroomHalves(try numberText(value, key))
            case "property_type": query.propertyTypes = try strings(value, key)
            case "amenities": query.amenities = try strings(value, key)
            case "instant_bookable": query.instantBookableOnly = try bool(value, key)
            case "superhost": query.superhostsOnly = try bool(value, key)
            case "bbox":
                let edges = try numbers(value, key, count: 4, shape: "[south, west, north, east]")
                query.boundingBox = MapBox(south: edges[0], west: edges[1], north: edges[2], east: edges[3])
            case "near":
                let point = try numbers(value, key, count: 2, shape: "[lat, lon]")
                query.near = GeoPoint(latitude: point[0], longitude: point[1])
            case "facets":
                query.facets = []
                for name in try strings(value, key) {
                    let facet = try Facet(parsing: name)
                    if !query.facets.contains(facet) { query.facets.append(facet) }
                }
            case "facet_limit": query.facetLimit = try integer(value, key)
            case "radius_km": query.radiusKilometres = try QueryParsing.kilometres(try numberText(value, key))
            default:
                throw BatchLineError("unknown key '\(key)'; keys are \(keys.joined(separator: ", "))")
            }
        }
        try query.validate()
        return (query, mapPath)
    }

    private static func string(_ value: FlatJSONObject.Value, _ key: String) throws -> String {
        guard case .string(let text) = value else { throw BatchLineError("\(key) must be a string") }
        return text
    }

    private static func bool(_ value: FlatJSONObject.Value, _ key: String) throws -> Bool {
        guard case .bool(let flag) = value else { throw BatchLineError("\(key) must be true or false") }
        return flag
    }

    private static func numberText(_ value: FlatJSONObject.Value, _ key: String) throws -> String {
        guard case .number(let text) = value else { throw BatchLineError("\(key) must be a number") }
        return text
    }

    /// A string, or an array of strings.
    private static func strings(_ value: FlatJSONObject.Value, _ key: String) throws -> [String] {
        switch value {
        case .string(let text): return [text]
        case .array(let elements):
            return try elements.map { element in
                guard case .string(let text) = element else { throw BatchLineError("\(key) must be a string or an array of strings") }
                return text
            }
        default: throw BatchLineError("\(key) must be a string or an array of strings")
        }
    }

    private static func numbers(_ value: FlatJSONObject.Value, _ key: String, count: Int, shape: String) throws -> [Double] {
        guard case .array(let elements) = value, elements.count == count else {
            throw BatchLineError("\(key) must be an array of \(count) numbers, \(shape)")
        }
        return try elements.map { element in
            guard case .number(let text) = element, let number = Double(text), number.isFinite else {
                throw BatchLineError("\(key) must be an array of \(count) numbers, \(shape)")
            }
            return number
        }
    }

    private static func integer(_ value: FlatJSONObject.Value, _ key: String) throws -> Int {
        guard case .number(let text) = value else { throw BatchLineError("\(key) must be a whole number") }
        guard let number = Int(text) else { throw BatchLineError("\(key) must be a whole number (got \(text))") }
        return number
    }

    private static func money(_ value: FlatJSONObject.Value, _ key: String) throws -> Money {
        let field = key.replacingOccurrences(of: "_", with: " ")
        switch value {
        case .number(let text), .string(let text): return try QueryParsing.money(text, field: field)
        default: throw BatchLineError("\(key) must be a number")
        }
    }
}
