import ArgumentParser
import StaySearchAPI

/// The flags of a price calendar's query: the listing filters, guests, price range, check-in days and nights
/// (``QuerySchema/priceCalendarSearchKeys``), each declared from the schema.
struct PriceCalendarQueryOptions: ParsableArguments {
    @Option(name: .schema("region"), help: .schema("region")) var region: String?
    @Option(name: .schema("nights"), parsing: .unconditional,
            help: ArgumentHelp("Nights of each stay (default \(QuerySchema.defaultCalendarNights)).", valueName: "N")) var nights: String?
    @Option(name: .schema("checkin_from"), help: ArgumentHelp("First check-in day (with --checkin-to; instead of --month).", valueName: "YYYY-MM-DD"))
    var checkInFrom: String?
    @Option(name: .schema("checkin_to"), help: ArgumentHelp("Last check-in day, at most 62 days after the first.", valueName: "YYYY-MM-DD"))
    var checkInTo: String?
    @Option(name: .schema("adults"), parsing: .unconditional, help: .schema("adults")) var adults: String?
    @Option(name: .schema("children"), parsing: .unconditional, help: .schema("children")) var children: String?
    @Option(name: .schema("infants"), parsing: .unconditional, help: .schema("infants")) var infants: String?
    @Option(name: .schema("min_price"), parsing: .unconditional, help: .schema("min_price")) var minPrice: String?
    @Option(name: .schema("max_price"), parsing: .unconditional, help: .schema("max_price")) var maxPrice: String?
    @Option(name: .schema("room_type"), help: .schema("room_type")) var roomType: String?
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

    /// The flags given, as the schema's keys and their texts, in the schema's order.
    var items: [(key: String, value: String)] {
        let given = QueryOptions.given(Mirror(reflecting: self))
        return QuerySchema.priceCalendar.flatMap { parameter in (given[parameter.key] ?? []).map { (parameter.key, $0) } }
    }
}
