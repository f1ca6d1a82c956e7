import ArgumentParser
import StaySearch

/// The query flags shared by `search` and `histogram`, parsed into typed values at the edge and
/// validated once, as one ``SearchQuery``.
struct QueryOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A city, neighbourhood group or neighbourhood; case and accents do not matter; A/B for B under A.", valueName: "NAME"))
    var region: String?

    @OptionGroup var stay: StayOptions

    @OptionGroup var flexible: FlexibleDateOptions

    @Option(name: .customLong("min-price"), parsing: .unconditional,
            help: ArgumentHelp("Lowest nightly price, inclusive.", valueName: "AMOUNT"), transform: QueryParsing.money("min price"))
    var minimumPrice: Money?

    @Option(name: .customLong("max-price"), parsing: .unconditional,
            help: ArgumentHelp("Highest nightly price, inclusive.", valueName: "AMOUNT"), transform: QueryParsing.money("max price"))
    var maximumPrice: Money?

    @Option(name: .customLong("room-type"), help: ArgumentHelp("Exact room type, e.g. 'Entire home/apt', 'Private room'.", valueName: "TYPE"))
    var roomType: String?

    @Option(help: ArgumentHelp("price, price-desc, rating, reviews or distance (with --near).", valueName: "ORDER"), transform: QueryParsing.sort)
    var sort: SortOrder = .price

    @OptionGroup var details: DetailOptions

    @Option(parsing: .unconditional, help: "Results per page, 0 to 1000.")
    var limit: Int = 20

    @Option(parsing: .unconditional, help: "Results to skip.")
    var offset: Int = 0

    @Option(parsing: .unconditional, help: "Histogram bins, 1 to 1000.")
    var bins: Int = 30

    @Option(name: .customLong("hist-min"), parsing: .unconditional,
            help: ArgumentHelp("Histogram low end (default: the lowest price).", valueName: "AMOUNT"), transform: QueryParsing.money("hist min"))
    var histogramMinimum: Money?

    @Option(name: .customLong("hist-max"), parsing: .unconditional,
            help: ArgumentHelp("Histogram high end (default: the smaller of the 95th percentile and Q3 + 3 × IQR).", valueName: "AMOUNT"),
            transform: QueryParsing.money("hist max"))
    var histogramMaximum: Money?

    func validate() throws {
        try QueryParsing.validate(query)
    }

    /// The query these flags describe (checked by ``validate()`` before a command runs).
    var query: SearchQuery {
        var query = SearchQuery(
            region: region, minimumPrice: minimumPrice, maximumPrice: maximumPrice, roomType: roomType, sort: sort,
            limit: limit, offset: offset, bins: bins, histogramMinimum: histogramMinimum, histogramMaximum: histogramMaximum)
        stay.apply(to: &query)
        flexible.apply(to: &query)
        details.apply(to: &query)
        return query
    }
}

/// The listing-detail and map filters: rooms, property types, amenities, booking options, map area.
struct DetailOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "At least this many bedrooms.")
    var bedrooms: Int?

    @Option(parsing: .unconditional, help: "At least this many beds.")
    var beds: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("At least this many bathrooms, in halves (1.5).", valueName: "X"),
            transform: QueryParsing.bathroomHalves)
    var bathrooms: Int?

    @Option(name: .customLong("property-type"), help: ArgumentHelp("A property type, e.g. 'Entire condo'; repeat for any of several.", valueName: "TYPE"))
    var propertyTypes: [String] = []

    @Option(name: .customLong("amenity"), help: ArgumentHelp("An amenity the listing must have, e.g. Wifi; repeat for all of several.", valueName: "NAME"))
    var amenities: [String] = []

    @Flag(name: .customLong("instant-book"), help: "Only listings that can be booked instantly.")
    var instantBook = false

    @Flag(help: "Only listings of superhosts.")
    var superhost = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Only listings in this map area (degrees; WEST > EAST crosses the antimeridian).",
                                                        valueName: "SOUTH,WEST,NORTH,EAST"), transform: QueryParsing.box)
    var bbox: MapBox?

    @Option(parsing: .unconditional, help: ArgumentHelp("Measure distances from this point (results show them).", valueName: "LAT,LON"),
            transform: QueryParsing.point)
    var near: GeoPoint?

    @Option(name: .customLong("radius-km"), parsing: .unconditional,
            help: ArgumentHelp("Only listings at most this far from --near.", valueName: "KM"), transform: QueryParsing.kilometres)
    var radiusKilometres: Double?

    @Option(help: ArgumentHelp("Count matches by these: room_type, property_type, amenities, bedrooms, instant_bookable, superhost (comma-separated).",
                               valueName: "NAMES"), transform: QueryParsing.facets)
    var facets: [Facet] = []

    @Option(name: .customLong("facet-limit"), parsing: .unconditional, help: "Values shown per facet, 1 to 100.")
    var facetLimit: Int = 10

    /// Sets these filters on `query`.
    func apply(to query: inout SearchQuery) {
        query.facets = facets
        query.facetLimit = facetLimit
        query.bedrooms = bedrooms
        query.beds = beds
        query.bathroomHalves = bathrooms
        query.propertyTypes = propertyTypes
        query.amenities = amenities
        query.instantBookableOnly = instantBook
        query.superhostsOnly = superhost
        query.boundingBox = bbox
        query.near = near
        query.radiusKilometres = radiusKilometres
    }
}

/// Flexible dates: a stay that may move a few days, or a window of check-ins for a number of nights.
struct FlexibleDateOptions: ParsableArguments {
    @Option(name: .customLong("flexible-days"), parsing: .unconditional,
            help: ArgumentHelp("With --checkin/--checkout: the stay may start up to this many days earlier or later (0 to 7); each listing shows its cheapest.", valueName: "F"))
    var flexibleDays: Int?

    @Option(name: .customLong("checkin-from"), help: ArgumentHelp("First check-in day of a window (with --checkin-to and --nights).", valueName: "YYYY-MM-DD"),
            transform: QueryParsing.day("checkin from"))
    var checkInFrom: Day?

    @Option(name: .customLong("checkin-to"), help: ArgumentHelp("Last check-in day of a window (at most 62 days).", valueName: "YYYY-MM-DD"),
            transform: QueryParsing.day("checkin to"))
    var checkInTo: Day?

    @Option(parsing: .unconditional, help: ArgumentHelp("Nights of each stay in a window, 1 to 365.", valueName: "N"))
    var nights: Int?

    @Option(name: .customLong("checkin-weekdays"),
            help: ArgumentHelp("Check-in only on these weekdays of the window, e.g. fri,sat.", valueName: "DAYS"), transform: QueryParsing.weekdays)
    var checkInWeekdays: Set<Weekday> = []

    /// Sets the flexible-date fields of `query`.
    func apply(to query: inout SearchQuery) {
        query.flexibleDays = flexibleDays
        query.checkInFrom = checkInFrom
        query.checkInTo = checkInTo
        query.windowNights = nights
        query.checkInWeekdays = checkInWeekdays
    }
}

/// The stay: dates and guests. Shared by `search` (through ``QueryOptions``) and `listing`.
struct StayOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Check-in date.", valueName: "YYYY-MM-DD"), transform: QueryParsing.day("checkin"))
    var checkin: Day?

    @Option(help: ArgumentHelp("Check-out date (the morning after the last night).", valueName: "YYYY-MM-DD"),
            transform: QueryParsing.day("checkout"))
    var checkout: Day?

    @Option(parsing: .unconditional, help: "Adults, at least 1.")
    var adults: Int = 1

    @Option(parsing: .unconditional, help: "Children; they count towards capacity.")
    var children: Int = 0

    @Option(parsing: .unconditional, help: "Infants, 0 to 5; they do not count towards capacity.")
    var infants: Int = 0

    /// Sets the query's dates and guests to these.
    func apply(to query: inout SearchQuery) {
        query.checkIn = checkin
        query.checkOut = checkout
        query.adults = adults
        query.children = children
        query.infants = infants
    }

    /// A query of just this stay.
    var query: SearchQuery {
        var query = SearchQuery()
        apply(to: &query)
        return query
    }
}

/// Turning user text into query values, with the errors the query reports.
enum QueryParsing {
    /// A transform that reads an ISO date for `field`.
    static func day(_ field: String) -> @Sendable (String) throws -> Day {
        { text in try day(text, field: field) }
    }

    /// A transform that reads an amount for `field`.
    static func money(_ field: String) -> @Sendable (String) throws -> Money {
        { text in try money(text, field: field) }
    }

    /// Reads a sort order.
    @Sendable static func sort(_ text: String) throws -> SortOrder {
        try SortOrder(parsing: text)
    }

    /// Reads bathrooms such as `1.5` as halves (3).
    @Sendable static func bathroomHalves(_ text: String) throws -> Int {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, value >= 0,
              (value * 2).rounded() == value * 2, value < 1_000 else {
            throw ValidationError("bathrooms '\(text)' is not a number of halves such as 1 or 1.5")
        }
        return Int(value * 2)
    }

    /// Reads a comma-separated list of weekdays such as `fri,sat`.
    @Sendable static func weekdays(_ text: String) throws -> Set<Weekday> {
        try weekdays(text.split(separator: ",").map(String.init))
    }

    /// Reads weekday names such as `fri`, `Saturday`.
    static func weekdays(_ names: [String]) throws(QueryError) -> Set<Weekday> {
        var days: Set<Weekday> = []
        for name in names {
            guard let day = Weekday(name: name) else { throw .unknownWeekday(name) }
            days.insert(day)
        }
        return days
    }

    /// Reads a comma-separated list of facet names.
    @Sendable static func facets(_ text: String) throws -> [Facet] {
        var facets: [Facet] = []
        for name in text.split(separator: ",") {
            let facet = try Facet(parsing: String(name))
            if !facets.contains(facet) { facets.append(facet) }
        }
        return facets
    }

    /// Reads `SOUTH,WEST,NORTH,EAST`.
    @Sendable static func box(_ text: String) throws -> MapBox {
        let numbers = try coordinates(text, count: 4, shape: "SOUTH,WEST,NORTH,EAST", field: "bbox")
        return MapBox(south: numbers[0], west: numbers[1], north: numbers[2], east: numbers[3])
    }

    /// Reads `LAT,LON`.
    @Sendable static func point(_ text: String) throws -> GeoPoint {
        let numbers = try coordinates(text, count: 2, shape: "LAT,LON", field: "near")
        return GeoPoint(latitude: numbers[0], longitude: numbers[1])
    }

    /// Reads a radius in kilometres.
    @Sendable static func kilometres(_ text: String) throws -> Double {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite else {
            throw ValidationError("radius km '\(text)' is not a number of kilometres such as 2.5")
        }
        return value
    }

    private static func coordinates(_ text: String, count: Int, shape: String, field: String) throws -> [Double] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }.filter(\.isFinite)
        guard parts.count == count, numbers.count == count else {
            throw ValidationError("\(field) '\(text)' is not \(shape) in degrees, e.g. \(count == 4 ? "51.19,4.38,51.23,4.43" : "51.2172,4.4212")")
        }
        return numbers
    }

    static func day(_ text: String, field: String) throws(QueryError) -> Day {
        guard let day = Day(iso: text) else { throw .malformedDate(field: field, text: text) }
        return day
    }

    static func money(_ text: String, field: String) throws(QueryError) -> Money {
        guard let money = Money(parsing: text.trimmingCharacters(in: .whitespaces)) else {
            throw .malformedPrice(field: field, text: text)
        }
        return money
    }

    /// Checks `query` for a command's `validate()`: a broken rule becomes a usage error.
    static func validate(_ query: SearchQuery) throws {
        do { try query.validate() } catch { throw ValidationError(error.description) }
    }
}
