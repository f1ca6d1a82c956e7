import StaySearch

/// Every key of a search, in one table: the command line's flags, the batch file's JSON keys, the URL query
/// string of `GET /v1/search` and the charts, the OpenAPI document's parameters and the docs' parameter table
/// are all made from it. Adding a filter is one entry here plus its field in ``SearchQuery`` and the engine's
/// work; the readers, ``SearchQuery/validate()`` and the tests that compare every surface follow.
package enum QuerySchema {
    /// The keys of a search, in the order help text and documents list them.
    package static let search: [QueryParameter] = [
        QueryParameter("region", .text, "A city, neighbourhood group or neighbourhood; case and accents do not matter; A/B for B under A.") {
            $0.region = $1.text
        },
        QueryParameter("checkin", .date, "Check-in date.") { $0.checkIn = try QueryParsing.day($1.text, field: "checkin") },
        QueryParameter("checkout", .date, "Check-out date (the morning after the last night).") {
            $0.checkOut = try QueryParsing.day($1.text, field: "checkout")
        },
        QueryParameter("flexible_days", .whole(SearchQuery.flexibleDayRange),
                       "With checkin and checkout: the stay may start up to this many days earlier or later; each listing shows its cheapest.",
                       valueName: "F") { $0.flexibleDays = try $1.whole("flexible_days") },
        QueryParameter("checkin_from", .date, "First check-in day of a window (with checkin_to and nights).") {
            $0.checkInFrom = try QueryParsing.day($1.text, field: "checkin from")
        },
        QueryParameter("checkin_to", .date, "Last check-in day of a window (at most 62 days).") {
            $0.checkInTo = try QueryParsing.day($1.text, field: "checkin to")
        },
        QueryParameter("nights", .whole(SearchQuery.windowNightRange), "Nights of each stay in a window.") {
            $0.windowNights = try $1.whole("nights")
        },
        QueryParameter("checkin_weekdays", .names(choices: Weekday.allCases.map(\.shortName), commaSeparated: true),
                       "Check-in only on these weekdays of the window, e.g. fri,sat.", valueName: "DAYS") {
            $0.checkInWeekdays = try QueryParsing.weekdays($1.texts)
        },
        QueryParameter("adults", .whole(1...10_000), "Adults.", default: "1") { $0.adults = try $1.whole("adults") },
        QueryParameter("children", .whole(0...10_000), "Children; they count towards capacity.", default: "0") {
            $0.children = try $1.whole("children")
        },
        QueryParameter("infants", .whole(SearchQuery.infantRange), "Infants; they do not count towards capacity.", default: "0") {
            $0.infants = try $1.whole("infants")
        },
        QueryParameter("min_price", .money, "Lowest nightly price, inclusive.") {
            $0.minimumPrice = try QueryParsing.money($1.text, field: "min price")
        },
        QueryParameter("max_price", .money, "Highest nightly price, inclusive.") {
            $0.maximumPrice = try QueryParsing.money($1.text, field: "max price")
        },
        QueryParameter("room_type", .text, "Exact room type, e.g. 'Entire home/apt', 'Private room'.", valueName: "TYPE") {
            $0.roomType = $1.text
        },
        QueryParameter("sort", .choice(SortOrder.allCases.map(\.rawValue)),
                       "price, price-desc, rating, reviews, distance (with near) or recommended.", valueName: "ORDER", default: "price") {
            $0.sort = try SortOrder(parsing: $1.text)
        },
        QueryParameter("limit", .whole(SearchQuery.limitRange), "Results per page.", default: "20") { $0.limit = try $1.whole("limit") },
        QueryParameter("offset", .whole(SearchQuery.offsetRange), "Results to skip.", default: "0") { $0.offset = try $1.whole("offset") },
        QueryParameter("bins", .whole(SearchQuery.binRange), "Histogram bins.", default: "30") { $0.bins = try $1.whole("bins") },
        QueryParameter("hist_min", .money, "Histogram low end (default: the lowest price).") {
            $0.histogramMinimum = try QueryParsing.money($1.text, field: "hist min")
        },
        QueryParameter("hist_max", .money, "Histogram high end (default: the smaller of the 95th percentile and Q3 + 3 × IQR).") {
            $0.histogramMaximum = try QueryParsing.money($1.text, field: "hist max")
        },
        QueryParameter("bedrooms", .whole(0...Int.max), "At least this many bedrooms.") { $0.bedrooms = try $1.whole("bedrooms") },
        QueryParameter("beds", .whole(0...Int.max), "At least this many beds.") { $0.beds = try $1.whole("beds") },
        QueryParameter("bathrooms", .halves, "At least this many bathrooms, in halves (1.5).") {
            $0.bathroomHalves = try QueryParsing.bathroomHalves($1.text)
        },
        QueryParameter("property_type", .names(choices: nil, commaSeparated: false),
                       "A property type, e.g. 'Entire condo'; repeat for any of several.", valueName: "TYPE") {
            $0.propertyTypes = $1.texts
        },
        QueryParameter("amenities", flag: "amenity", .names(choices: nil, commaSeparated: false),
                       "An amenity the listing must have, e.g. Wifi; repeat for all of several.") { $0.amenities = $1.texts },
        QueryParameter("instant_bookable", flag: "instant-book", .flag, "Only listings that can be booked instantly.") {
            $0.instantBookableOnly = $1.flag
        },
        QueryParameter("superhost", .flag, "Only listings of superhosts.") { $0.superhostsOnly = $1.flag },
        QueryParameter("bbox", .coordinates(count: 4), "Only listings in this map area (degrees; WEST > EAST crosses the antimeridian).") {
            let edges = $1.numbers
            $0.boundingBox = MapBox(south: edges[0], west: edges[1], north: edges[2], east: edges[3])
        },
        QueryParameter("near", .coordinates(count: 2), "Measure distances from this point (results show them).") {
            $0.near = GeoPoint(latitude: $1.numbers[0], longitude: $1.numbers[1])
        },
        QueryParameter("radius_km", .kilometres, "Only listings at most this far from near.") {
            $0.radiusKilometres = try QueryParsing.kilometres($1.text)
        },
        QueryParameter("facets", .names(choices: Facet.allCases.map(\.rawValue), commaSeparated: true),
                       "Count matches by these: room_type, property_type, amenities, bedrooms, instant_bookable, superhost.",
                       valueName: "NAMES") { $0.facets = try QueryParsing.facets($1.texts) },
        QueryParameter("facet_limit", .whole(SearchQuery.facetLimitRange), "Values shown per facet.", default: "10") {
            $0.facetLimit = try $1.whole("facet_limit")
        },
    ]

    /// The keys that say how a picture's words and prices are written (`GET /v1/histogram.png`, `/v1/map.png`,
    /// `/v1/listings/{id}/calendar.png`; `--locale` and `--currency` on the command line).
    package static var displayKeys: [String] { display.map(\.key) }

    /// The keys that shape a chart (`GET /v1/histogram.png`, `/v1/map.png`, and the commands' PNG options),
    /// read into a ``ChartSize``.
    package static let chart: [ChartParameter] = [
        ChartParameter("width", ChartSize.widthRange, "Chart width in pixels (before scale).", valueName: "PIXELS"),
        ChartParameter("height", ChartSize.heightRange, "Chart height in pixels (before scale).", valueName: "PIXELS"),
        ChartParameter("scale", ChartSize.scaleRange, "1 for normal screens, 2 for high-density ones.", valueName: "N"),
    ]

    /// The keys of a listing's quote (`GET /v1/listings/{id}` and `staysearch listing`): the stay's dates and guests.
    package static let stayKeys = ["checkin", "checkout", "adults", "children", "infants"]

    /// The parameters of the stay.
    package static var stay: [QueryParameter] { stayKeys.map { parameter($0)! } }

    /// The parameter of `key`, if it is one.
    package static func parameter(_ key: String) -> QueryParameter? {
        search.first { $0.key == key }
    }

    /// The parameter whose command-line flag is `flag`, if any.
    package static func parameter(flag: String) -> QueryParameter? {
        search.first { $0.flag == flag }
    }

    /// The search keys, in order.
    package static var keys: [String] { search.map(\.key) }
}

extension QueryParameter.Value {
    /// The text of a text value (or of a number, as it was written).
    var text: String {
        switch self {
        case .text(let text), .number(let text): return text
        case .flag(let flag): return flag ? "true" : "false"
        case .texts(let texts): return texts.joined(separator: ",")
        case .numbers(let numbers): return numbers.map { "\($0)" }.joined(separator: ",")
        }
    }

    var texts: [String] {
        if case .texts(let texts) = self { return texts }
        return [text]
    }

    var flag: Bool {
        if case .flag(let flag) = self { return flag }
        return false
    }

    var numbers: [Double] {
        if case .numbers(let numbers) = self { return numbers }
        return []
    }

    /// A whole number, or the error that names `key`.
    func whole(_ key: String) throws(InputError) -> Int {
        guard let number = Int(text) else { throw InputError("\(key) must be a whole number (got \(text))") }
        return number
    }
}
