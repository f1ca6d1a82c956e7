import ArgumentParser
import StaySearch

/// The query flags shared by `search` (and later commands that draw or quote a query).
struct QueryOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A city, neighbourhood group or neighbourhood; case and accents do not matter; A/B for B under A.", valueName: "NAME"))
    var region: String?

    @OptionGroup var stay: StayOptions

    @Option(name: .customLong("min-price"), parsing: .unconditional, help: ArgumentHelp("Lowest nightly price, inclusive.", valueName: "AMOUNT"))
    var minimumPrice: String?

    @Option(name: .customLong("max-price"), parsing: .unconditional, help: ArgumentHelp("Highest nightly price, inclusive.", valueName: "AMOUNT"))
    var maximumPrice: String?

    @Option(name: .customLong("room-type"), help: ArgumentHelp("Exact room type, e.g. 'Entire home/apt', 'Private room'.", valueName: "TYPE"))
    var roomType: String?

    @Option(help: ArgumentHelp("price, price-desc, rating or reviews.", valueName: "ORDER"))
    var sort: String = "price"

    @Option(parsing: .unconditional, help: "Results per page, 0 to 1000.")
    var limit: Int = 20

    @Option(parsing: .unconditional, help: "Results to skip.")
    var offset: Int = 0

    @Option(parsing: .unconditional, help: "Histogram bins, 1 to 1000.")
    var bins: Int = 30

    @Option(name: .customLong("hist-min"), parsing: .unconditional, help: ArgumentHelp("Histogram low end (default: the lowest price).", valueName: "AMOUNT"))
    var histogramMinimum: String?

    @Option(name: .customLong("hist-max"), parsing: .unconditional, help: ArgumentHelp("Histogram high end (default: the 95th percentile price).", valueName: "AMOUNT"))
    var histogramMaximum: String?

    func validate() throws {
        do { _ = try makeQuery() } catch { throw ValidationError(error.description) }
    }

    /// The query these flags describe.
    /// - Throws: ``QueryError`` for a malformed or invalid value.
    func makeQuery() throws(QueryError) -> SearchQuery {
        var query = try stay.makeQuery()
        query = SearchQuery(
            region: region, checkIn: query.checkIn, checkOut: query.checkOut,
            adults: query.adults, children: query.children, infants: query.infants,
            minimumPrice: try minimumPrice.map { text throws(QueryError) in try QueryParsing.money(text, field: "min price") },
            maximumPrice: try maximumPrice.map { text throws(QueryError) in try QueryParsing.money(text, field: "max price") },
            roomType: roomType, sort: try SortOrder(parsing: sort), limit: limit, offset: offset, bins: bins,
            histogramMinimum: try histogramMinimum.map { text throws(QueryError) in try QueryParsing.money(text, field: "hist min") },
            histogramMaximum: try histogramMaximum.map { text throws(QueryError) in try QueryParsing.money(text, field: "hist max") })
        try query.validate()
        return query
    }
}

/// The stay: dates and guests. Shared by `search` (through ``QueryOptions``) and `listing`.
struct StayOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Check-in date.", valueName: "YYYY-MM-DD"))
    var checkin: String?

    @Option(help: ArgumentHelp("Check-out date (the morning after the last night).", valueName: "YYYY-MM-DD"))
    var checkout: String?

    @Option(parsing: .unconditional, help: "Adults, at least 1.")
    var adults: Int = 1

    @Option(parsing: .unconditional, help: "Children; they count towards capacity.")
    var children: Int = 0

    @Option(parsing: .unconditional, help: "Infants, 0 to 5; they do not count towards capacity.")
    var infants: Int = 0

    /// A query of just this stay, validated by the rules of a search.
    /// - Throws: ``QueryError`` for a malformed or invalid value.
    func makeQuery() throws(QueryError) -> SearchQuery {
        let query = SearchQuery(
            checkIn: try checkin.map { text throws(QueryError) in try QueryParsing.day(text, field: "checkin") },
            checkOut: try checkout.map { text throws(QueryError) in try QueryParsing.day(text, field: "checkout") },
            adults: adults, children: children, infants: infants)
        try query.validate()
        return query
    }
}

/// Turning user text into query values, with the errors the query reports.
enum QueryParsing {
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
}
