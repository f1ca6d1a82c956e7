import ArgumentParser
import StaySearchAPI
import StaySearch

/// The query flags of `search`, `histogram` and `map`: each declared with its name, value name and help from
/// ``QuerySchema``, taken as text, and read into one ``SearchQuery`` by ``QueryReader`` (the reader of batch
/// lines and URLs), which also validates it.
package struct QueryOptions: ParsableArguments {
    @Option(name: .schema("region"), help: .schema("region")) var region: String?
    @OptionGroup var stay: StayOptions
    @Option(name: .schema("flexible_days"), parsing: .unconditional, help: .schema("flexible_days")) var flexibleDays: String?
    @Option(name: .schema("checkin_from"), help: .schema("checkin_from")) var checkInFrom: String?
    @Option(name: .schema("checkin_to"), help: .schema("checkin_to")) var checkInTo: String?
    @Option(name: .schema("nights"), parsing: .unconditional, help: .schema("nights")) var nights: String?
    @Option(name: .schema("checkin_weekdays"), help: .schema("checkin_weekdays")) var checkInWeekdays: [String] = []
    @Option(name: .schema("min_price"), parsing: .unconditional, help: .schema("min_price")) var minPrice: String?
    @Option(name: .schema("max_price"), parsing: .unconditional, help: .schema("max_price")) var maxPrice: String?
    @Option(name: .schema("room_type"), help: .schema("room_type")) var roomType: String?
    @Option(name: .schema("sort"), help: .schema("sort")) var sort: String?
    @Option(name: .schema("limit"), parsing: .unconditional, help: .schema("limit")) var limit: String?
    @Option(name: .schema("offset"), parsing: .unconditional, help: .schema("offset")) var offset: String?
    @Option(name: .schema("bins"), parsing: .unconditional, help: .schema("bins")) var bins: String?
    @Option(name: .schema("hist_min"), parsing: .unconditional, help: .schema("hist_min")) var histMin: String?
    @Option(name: .schema("hist_max"), parsing: .unconditional, help: .schema("hist_max")) var histMax: String?
    @Option(name: .schema("bedrooms"), parsing: .unconditional, help: .schema("bedrooms")) var bedrooms: String?
    @Option(name: .schema("beds"), parsing: .unconditional, help: .schema("beds")) var beds: String?
    @Option(name: .schema("bathrooms"), parsing: .unconditional, help: .schema("bathrooms")) var bathrooms: String?
    @Option(name: .schema("property_type"), help: .schema("property_type")) var propertyType: [String] = []
    @Option(name: .schema("amenities"), help: .schema("amenities")) var amenities: [String] = []
    @Flag(name: .schema("instant_bookable"), help: .schema("instant_bookable")) var instantBookable = false
    @Flag(name: .schema("superhost"), help: .schema("superhost")) var superhost = false
    @Option(name: .schema("bbox"), parsing: .unconditional, help: .schema("bbox")) var bbox: String?
    @Option(name: .schema("near"), parsing: .unconditional, help: .schema("near")) var near: String?
    @Option(name: .schema("radius_km"), parsing: .unconditional, help: .schema("radius_km")) var radiusKm: String?
    @Option(name: .schema("facets"), help: .schema("facets")) var facets: [String] = []
    @Option(name: .schema("facet_limit"), parsing: .unconditional, help: .schema("facet_limit")) var facetLimit: String?

    /// The flags given, as the schema's keys and their texts, in the schema's order. Read off the declared
    /// properties themselves (each named as its key in camel case: `checkInFrom` → `checkin_from`), so that a
    /// flag declared above reaches the query without being listed again; a property that names no key of the
    /// schema stops the program at its first use (and the tests).
    var items: [(key: String, value: String)] {
        var given = stay.given
        given.merge(Self.given(Mirror(reflecting: self))) { $1 }
        return QuerySchema.search.flatMap { parameter in (given[parameter.key] ?? []).map { (parameter.key, $0) } }
    }

    /// The values of the options and flags of `mirror`'s properties, by their schema keys.
    static func given(_ mirror: Mirror) -> [String: [String]] {
        var given: [String: [String]] = [:]
        for child in mirror.children {
            guard let label = child.label?.dropFirst(), label.first != nil else { continue }   // "_region" → "region"
            let values: [String]
            switch child.value {
            case let option as Option<String?>: values = option.wrappedValue.map { [$0] } ?? []
            case let option as Option<[String]>: values = option.wrappedValue
            case let flag as Flag<Bool>: values = flag.wrappedValue ? ["true"] : []
            case is OptionGroup<StayOptions>: continue
            default: preconditionFailure("\(label) is not a query option")
            }
            let key = schemaKey(ofProperty: String(label))
            precondition(QuerySchema.parameter(key) != nil, "\(label) names no key of the query schema (\(key))")
            given[key] = values
        }
        return given
    }

    /// `checkInFrom` → `checkin_from`: the property's words in snake case, check-in written as the schema does.
    package static func schemaKey(ofProperty name: String) -> String {
        var key = ""
        for character in name {
            if character.isUppercase { key += "_" + character.lowercased() } else { key.append(character) }
        }
        return key.replacingOccurrences(of: "check_in", with: "checkin").replacingOccurrences(of: "check_out", with: "checkout")
    }

    package func validate() throws {
        _ = try CommandLineQuery.read(items)
    }

    /// Flags not parsed yet (ArgumentParser fills them in).
    package init() {}

    /// The query these flags describe (checked by ``validate()`` before a command runs).
    package var query: SearchQuery { (try? CommandLineQuery.read(items)) ?? SearchQuery() }
}

/// The stay: dates and guests. Shared by `search` (through ``QueryOptions``) and `listing`.
package struct StayOptions: ParsableArguments {
    /// Flags not parsed yet (ArgumentParser fills them in).
    package init() {}

    @Option(name: .schema("checkin"), help: .schema("checkin")) var checkin: String?
    @Option(name: .schema("checkout"), help: .schema("checkout")) var checkout: String?
    @Option(name: .schema("adults"), parsing: .unconditional, help: .schema("adults")) var adults: String?
    @Option(name: .schema("children"), parsing: .unconditional, help: .schema("children")) var children: String?
    @Option(name: .schema("infants"), parsing: .unconditional, help: .schema("infants")) var infants: String?

    /// The flags given, by the schema's keys (read off the properties, as ``QueryOptions/items`` does).
    var given: [String: [String]] { QueryOptions.given(Mirror(reflecting: self)) }

    /// The flags given, as keys and texts.
    var items: [(key: String, value: String)] {
        QuerySchema.stay.flatMap { parameter in (given[parameter.key] ?? []).map { (parameter.key, $0) } }
    }

    package func validate() throws {
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
