import ArgumentParser
import StaySearchAPI
import StaySearch

/// The query flags of `search`, `histogram` and `map`: each declared with its name, value name and help from
/// ``QuerySchema``, taken as text, and read into one ``SearchQuery`` by ``QueryReader`` (the reader of batch
/// lines and URLs), which also validates it.
struct QueryOptions: ParsableArguments {
    @Option(name: .schema("region"), help: .schema("region")) var region: String?
    @OptionGroup var stay: StayOptions
    @Option(name: .schema("flexible_days"), parsing: .unconditional, help: .schema("flexible_days")) var flexibleDays: String?
    @Option(name: .schema("checkin_from"), help: .schema("checkin_from")) var checkInFrom: String?
    @Option(name: .schema("checkin_to"), help: .schema("checkin_to")) var checkInTo: String?
    @Option(name: .schema("nights"), parsing: .unconditional, help: .schema("nights")) var nights: String?
    @Option(name: .schema("checkin_weekdays"), help: .schema("checkin_weekdays")) var checkInWeekdays: [String] = []
    @Option(name: .schema("min_price"), parsing: .unconditional, help: .schema("min_price")) var minimumPrice: String?
    @Option(name: .schema("max_price"), parsing: .unconditional, help: .schema("max_price")) var maximumPrice: String?
    @Option(name: .schema("room_type"), help: .schema("room_type")) var roomType: String?
    @Option(name: .schema("sort"), help: .schema("sort")) var sort: String?
    @Option(name: .schema("limit"), parsing: .unconditional, help: .schema("limit")) var limit: String?
    @Option(name: .schema("offset"), parsing: .unconditional, help: .schema("offset")) var offset: String?
    @Option(name: .schema("bins"), parsing: .unconditional, help: .schema("bins")) var bins: String?
    @Option(name: .schema("hist_min"), parsing: .unconditional, help: .schema("hist_min")) var histogramMinimum: String?
    @Option(name: .schema("hist_max"), parsing: .unconditional, help: .schema("hist_max")) var histogramMaximum: String?
    @Option(name: .schema("bedrooms"), parsing: .unconditional, help: .schema("bedrooms")) var bedrooms: String?
    @Option(name: .schema("beds"), parsing: .unconditional, help: .schema("beds")) var beds: String?
    @Option(name: .schema("bathrooms"), parsing: .unconditional, help: .schema("bathrooms")) var bathrooms: String?
    @Option(name: .schema("property_type"), help: .schema("property_type")) var propertyTypes: [String] = []
    @Option(name: .schema("amenities"), help: .schema("amenities")) var amenities: [String] = []
    @Flag(name: .schema("instant_bookable"), help: .schema("instant_bookable")) var instantBookable = false
    @Flag(name: .schema("superhost"), help: .schema("superhost")) var superhost = false
    @Option(name: .schema("bbox"), parsing: .unconditional, help: .schema("bbox")) var bbox: String?
    @Option(name: .schema("near"), parsing: .unconditional, help: .schema("near")) var near: String?
    @Option(name: .schema("radius_km"), parsing: .unconditional, help: .schema("radius_km")) var radiusKilometres: String?
    @Option(name: .schema("facets"), help: .schema("facets")) var facets: [String] = []
    @Option(name: .schema("facet_limit"), parsing: .unconditional, help: .schema("facet_limit")) var facetLimit: String?

    /// The flags given, as the schema's keys and their texts, in the schema's order.
    var items: [(key: String, value: String)] {
        var given = stay.given
        func add(_ key: String, _ value: String?) { given[key] = value.map { [$0] } ?? [] }
        add("region", region)
        add("flexible_days", flexibleDays)
        add("checkin_from", checkInFrom)
        add("checkin_to", checkInTo)
        add("nights", nights)
        given["checkin_weekdays"] = checkInWeekdays
        add("min_price", minimumPrice)
        add("max_price", maximumPrice)
        add("room_type", roomType)
        add("sort", sort)
        add("limit", limit)
        add("offset", offset)
        add("bins", bins)
        add("hist_min", histogramMinimum)
        add("hist_max", histogramMaximum)
        add("bedrooms", bedrooms)
        add("beds", beds)
        add("bathrooms", bathrooms)
        given["property_type"] = propertyTypes
        given["amenities"] = amenities
        add("instant_bookable", instantBookable ? "true" : nil)
        add("superhost", superhost ? "true" : nil)
        add("bbox", bbox)
        add("near", near)
        add("radius_km", radiusKilometres)
        given["facets"] = facets
        add("facet_limit", facetLimit)
        return QuerySchema.search.flatMap { parameter in (given[parameter.key] ?? []).map { (parameter.key, $0) } }
    }

    func validate() throws {
        _ = try CommandLineQuery.read(items)
    }

    /// The query these flags describe (checked by ``validate()`` before a command runs).
    var query: SearchQuery { (try? CommandLineQuery.read(items)) ?? SearchQuery() }
}

/// The stay: dates and guests. Shared by `search` (through ``QueryOptions``) and `listing`.
struct StayOptions: ParsableArguments {
    @Option(name: .schema("checkin"), help: .schema("checkin")) var checkin: String?
    @Option(name: .schema("checkout"), help: .schema("checkout")) var checkout: String?
    @Option(name: .schema("adults"), parsing: .unconditional, help: .schema("adults")) var adults: String?
    @Option(name: .schema("children"), parsing: .unconditional, help: .schema("children")) var children: String?
    @Option(name: .schema("infants"), parsing: .unconditional, help: .schema("infants")) var infants: String?

    /// The flags given, by the schema's keys.
    var given: [String: [String]] {
        var given: [String: [String]] = [:]
        for (key, value) in [("checkin", checkin), ("checkout", checkout), ("adults", adults), ("children", children), ("infants", infants)] {
            given[key] = value.map { [$0] } ?? []
        }
        return given
    }

    /// The flags given, as keys and texts.
    var items: [(key: String, value: String)] {
        QuerySchema.stay.flatMap { parameter in (given[parameter.key] ?? []).map { (parameter.key, $0) } }
    }

    func validate() throws {
        _ = try CommandLineQuery.read(items, allowed: QuerySchema.stay)
    }

    /// A query of just this stay.
    var query: SearchQuery { (try? CommandLineQuery.read(items, allowed: QuerySchema.stay)) ?? SearchQuery() }
}

/// Reading flags' values through the schema, with its errors as usage errors.
enum CommandLineQuery {
    static func read(_ items: [(key: String, value: String)], allowed: [QueryParameter] = QuerySchema.search) throws -> SearchQuery {
        do {
            return try QueryReader.query(items: items, allowed: allowed)
        } catch let error as InputError {
            throw ValidationError(flagged(error.message))
        } catch {
            throw ValidationError("\(error)")
        }
    }

    /// A reader's message with keys spelled as flags (`limit` → `--limit`) where it names one at its start.
    private static func flagged(_ message: String) -> String {
        for parameter in QuerySchema.search where message.hasPrefix(parameter.key + " must") {
            return "--" + parameter.flag + message.dropFirst(parameter.key.count)
        }
        return message
    }
}

extension NameSpecification {
    /// The flag of the schema's `key`.
    static func schema(_ key: String) -> NameSpecification {
        .customLong(QuerySchema.parameter(key)!.flag)
    }
}

extension ArgumentHelp {
    /// The help of the schema's `key`, with its default.
    static func schema(_ key: String) -> ArgumentHelp {
        let parameter = QuerySchema.parameter(key)!
        let help = parameter.help + (parameter.defaultText.map { " Default: \($0)." } ?? "")
        return ArgumentHelp(help, valueName: parameter.valueName.isEmpty ? nil : parameter.valueName)
    }
}
