import ArgumentParser
import StaySearch

/// The query flags shared by `search` and `histogram`, parsed into typed values at the edge and
/// validated once, as one ``SearchQuery``.
struct QueryOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A city, neighbourhood group or neighbourhood; case and accents do not matter; A/B for B under A.", valueName: "NAME"))
    var region: String?

    @OptionGroup var stay: StayOptions

    @Option(name: .customLong("min-price"), parsing: .unconditional,
            help: ArgumentHelp("Lowest nightly price, inclusive.", valueName: "AMOUNT"), transform: QueryParsing.money("min price"))
    var minimumPrice: Money?

    @Option(name: .customLong("max-price"), parsing: .unconditional,
            help: ArgumentHelp("Highest nightly price, inclusive.", valueName: "AMOUNT"), transform: QueryParsing.money("max price"))
    var maximumPrice: Money?

    @Option(name: .customLong("room-type"), help: ArgumentHelp("Exact room type, e.g. 'Entire home/apt', 'Private room'.", valueName: "TYPE"))
    var roomType: String?

    @Option(help: ArgumentHelp("price, price-desc, rating or reviews.", valueName: "ORDER"), transform: QueryParsing.sort)
    var sort: SortOrder = .price

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
        return query
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
