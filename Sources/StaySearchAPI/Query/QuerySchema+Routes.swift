extension QuerySchema {
    /// `month` of a listing's calendar: its first month.
    package static let month = RouteParameter("month", .text(pattern: "[0-9]{4}-(0[1-9]|1[0-2])", shape: "a month, YYYY-MM, e.g. 2024-07"),
                                              "First month, YYYY-MM (default: the calendar's first).")
    /// `months` of a listing's calendar.
    package static let months = RouteParameter("months", .whole(1...12), "Months shown (default 1).")
    /// The keys of a listing's calendar (`GET /v1/listings/{id}/calendar`), besides ``display``.
    package static let calendar: [RouteParameter] = [month, months]

    /// `month` of a price calendar: the check-in days it shows.
    package static let checkInMonth = RouteParameter("month", .text(pattern: "[0-9]{4}-(0[1-9]|1[0-2])", shape: "a month, YYYY-MM, e.g. 2024-07"),
                                                     "Every check-in day of this month (default: today's month), unless checkin_from and checkin_to say which days.")
    /// The keys of a price calendar besides ``priceCalendarSearchKeys``.
    package static let priceCalendarRoute: [RouteParameter] = [checkInMonth]
    /// The search keys a price calendar takes: the listing filters, the guests, the price range, the
    /// check-in days (`checkin_from`, `checkin_to`, at most 62) and the stay's `nights`.
    package static let priceCalendarSearchKeys = [
        "region", "checkin_from", "checkin_to", "nights", "adults", "children", "infants", "min_price", "max_price", "room_type",
        "bedrooms", "beds", "bathrooms", "property_type", "amenities", "instant_bookable", "superhost", "bbox", "near", "radius_km",
    ]
    /// The parameters of ``priceCalendarSearchKeys``.
    package static var priceCalendar: [QueryParameter] { priceCalendarSearchKeys.map { parameter($0)! } }
    /// The nights of a price calendar's stays when the request does not say.
    package static let defaultCalendarNights = 3

    /// `prefix` of the region suggestions.
    package static let regionPrefix = RouteParameter("prefix", .text(pattern: nil, shape: nil),
                                                     "Start (or part) of a name; case and accents do not matter.")
    /// `limit` of the region suggestions.
    package static let regionLimit = RouteParameter("limit", .whole(1...100), "Suggestions at most (default 10).")
    /// The keys of the region suggestions (`GET /v1/regions`).
    package static let regions: [RouteParameter] = [regionPrefix, regionLimit]

    /// `min_position` of a read on a replica: answer once this change-log position is applied.
    package static let minimumPosition = RouteParameter(
        "min_position", .whole(0...Int.max),
        "On a replica (serve --follow): answer once the changes up to this change-log position (a write's answer gives it) are applied here; waits up to 5 s, then 503. Refused without --follow.")

    /// `locale` and `currency`: how a picture's words and prices are written.
    package static let display: [RouteParameter] = [
        RouteParameter("locale", .choice(["en", "ko"]),
                       "Language of the words, dates and prices (default: the server's --locale, else the request's Accept-Language, else en)."),
        RouteParameter("currency", .text(pattern: "[A-Za-z]{3}", shape: "a three-letter currency code, e.g. EUR"),
                       "Currency the prices are in, for display (default: the server's --currency, else the language's)."),
    ]
}
