/// Queries that between them set every key of the query schema, as URL items (the dates of a stay and of a
/// window cannot be in one query), and for each key another valid value: the surfaces' tests read each
/// sample on every surface and check that changing any one key changes the query. A key added to the
/// schema must be added here (a test checks that these name exactly the schema's keys).
public enum QuerySamples {
    public static let everyKey: [[(key: String, value: String)]] = [
        [("region", "zuid"), ("checkin", "2024-07-12"), ("checkout", "2024-07-15"), ("flexible_days", "2"),
         ("adults", "2"), ("children", "1"), ("infants", "1"), ("min_price", "40.5"), ("max_price", "300"),
         ("room_type", "Private room"), ("sort", "distance"), ("limit", "7"), ("offset", "3"), ("bins", "12"),
         ("hist_min", "10"), ("hist_max", "400.25"), ("bedrooms", "1"), ("beds", "2"), ("bathrooms", "1.5"),
         ("property_type", "Entire condo"), ("property_type", "Room in hotel"), ("amenities", "Wifi"), ("amenities", "Kitchen"),
         ("instant_bookable", "true"), ("superhost", "true"), ("bbox", "51.19,4.38,51.23,4.43"), ("near", "51.2,4.4"),
         ("radius_km", "2.5"), ("facets", "room_type,amenities"), ("facet_limit", "5")],
        [("checkin_from", "2024-08-01"), ("checkin_to", "2024-08-31"), ("nights", "2"), ("checkin_weekdays", "fri,sat")],
    ]

    /// Another valid value of each key, that makes the sample a different query. A flag's other value is
    /// its absence (nil).
    public static let otherValue: [String: String?] = [
        "region": "centraal station", "checkin": "2024-07-11", "checkout": "2024-07-16", "flexible_days": "3",
        "adults": "3", "children": "2", "infants": "2", "min_price": "40.25", "max_price": "299.99",
        "room_type": "Entire home/apt", "sort": "price", "limit": "8", "offset": "4", "bins": "13",
        "hist_min": "11", "hist_max": "400.5", "bedrooms": "2", "beds": "3", "bathrooms": "2",
        "property_type": "Entire rental unit", "amenities": "Heating", "instant_bookable": nil, "superhost": nil,
        "bbox": "51.18,4.38,51.23,4.43", "near": "51.21,4.4", "radius_km": "3", "facets": "bedrooms", "facet_limit": "6",
        "checkin_from": "2024-08-02", "checkin_to": "2024-08-30", "nights": "3", "checkin_weekdays": "sun",
    ]

    /// `sample` with `key`'s values replaced by ``otherValue`` (or left out, for a flag).
    public static func changing(_ key: String, in sample: [(key: String, value: String)]) -> [(key: String, value: String)] {
        var items = sample.filter { $0.key != key }
        if let other = otherValue[key], let value = other { items.append((key, value)) }
        return items
    }
}
