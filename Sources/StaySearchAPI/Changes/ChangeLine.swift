import StaySearch

/// Reading a ``CalendarChange`` from one JSON line of `staysearch update` (docs/query-semantics.md, "Live changes").
package enum ChangeLine {
    /// The keys of each operation.
    package static let keys: [String: [String]] = [
        "book": ["op", "id", "checkin", "checkout", "guests", "adults", "children"],
        "cancel": ["op", "id", "checkin", "checkout"],
        "availability": ["op", "id", "from", "to", "available"],
        "price": ["op", "id", "from", "to", "price"],
        "rules": ["op", "id", "from", "to", "minimum_nights", "maximum_nights"],
        "listing": ["op", "id"] + listingKeys,
        "remove": ["op", "id"],
    ]

    /// The listing fields a `listing` change may set: the keys of a search result, and the details.
    package static let listingKeys = ["name", "city", "neighbourhood_group", "neighbourhood", "room_type", "accommodates", "price",
                              "minimum_nights", "maximum_nights", "rating", "reviews", "recent_reviews", "latitude", "longitude", "bedrooms",
                              "beds", "bathrooms", "property_type", "amenities", "instant_bookable", "superhost", "cleaning_fee", "guests_included",
                              "extra_guest_fee", "weekly_discount", "monthly_discount", "security_deposit"]

    package static let operations = "book, cancel, availability, price, rules, listing or remove"

    /// Parses one line.
    /// - Throws: ``InputError`` or ``QueryError`` (a malformed date), with a message for the answer.
    /// The change of one line, or why it cannot be read (``ErrorCode/invalidChange``) or is refused by
    /// `clock` (nights before today), if one is given.
    package static func read(_ line: String, clock: StayClock? = nil) -> Result<CalendarChange, APIError> {
        do {
            let change = try parse(line)
            if let refusal = clock?.refusal(of: change) { return .failure(APIError(refusal)) }
            return .success(change)
        } catch let error as InputError {
            return .failure(APIError(.invalidChange, error.message))
        } catch {
            return .failure(APIError(.invalidChange, "\(error)"))
        }
    }

    package static func parse(_ line: String) throws -> CalendarChange {
        let object = try FlatJSONObject(parsing: line)
        var fields: [String: FlatJSONObject.Value] = [:]
        for (key, value) in object.entries { fields[key] = value }
        guard case .string(let op)? = fields["op"] else { throw InputError("a change needs \"op\": \(operations)") }
        guard let allowed = keys[op] else { throw InputError("unknown op '\(op)'; use \(operations)") }
        for key in fields.keys.sorted() where !allowed.contains(key) {
            throw InputError("unknown key '\(key)' for op '\(op)'; its keys are \(allowed.joined(separator: ", "))")
        }
        let id = try listingID(fields["id"])
        switch op {
        case "book":
            var guests: Int?
            for key in ["guests", "adults", "children"] where fields[key] != nil {
                guests = (guests ?? 0) + (try count(fields[key], key))
            }
            return .book(id: id, checkIn: try day(fields["checkin"], "checkin"), checkOut: try day(fields["checkout"], "checkout"), guests: guests)
        case "cancel":
            return .cancel(id: id, checkIn: try day(fields["checkin"], "checkin"), checkOut: try day(fields["checkout"], "checkout"))
        case "availability":
            guard case .bool(let available)? = fields["available"] else { throw InputError("available must be true or false") }
            return .availability(id: id, from: try day(fields["from"], "from"), to: try day(fields["to"], "to"), available: available)
        case "price":
            guard let value = fields["price"] else { throw InputError("a price change needs \"price\": a number, or null for none") }
            let price: Money? = value == .null ? nil : try money(value, "price")
            return .price(id: id, from: try day(fields["from"], "from"), to: try day(fields["to"], "to"), price: price)
        case "rules":
            let minimum = try fields["minimum_nights"].map { try nights($0, "minimum_nights") }
            let maximum = try fields["maximum_nights"].map { try nights($0, "maximum_nights") }
            guard minimum != nil || maximum != nil else { throw InputError("a rules change needs minimum_nights, maximum_nights or both") }
            return .rules(id: id, from: try day(fields["from"], "from"), to: try day(fields["to"], "to"),
                          minimumNights: minimum, maximumNights: maximum)
        case "listing":
            return .listing(try listingChange(id: id, fields))
        default:
            return .remove(id: id)
        }
    }

    /// The fields of a `listing` change.
    private static func listingChange(id: Int64, _ fields: [String: FlatJSONObject.Value]) throws -> ListingChange {
        var change = ListingChange(id: id)
        change.name = try fields["name"].map { try text($0, "name") }
        change.city = try fields["city"].map { try text($0, "city") }
        change.neighbourhoodGroup = try fields["neighbourhood_group"].map { $0 == .null ? "" : try text($0, "neighbourhood_group") }
        change.neighbourhood = try fields["neighbourhood"].map { try text($0, "neighbourhood") }
        change.roomType = try fields["room_type"].map { try text($0, "room_type") }
        change.accommodates = try fields["accommodates"].map { try count($0, "accommodates") }
        change.price = try fields["price"].map { $0 == .null ? nil : try money($0, "price") }
        change.minimumNights = try fields["minimum_nights"].map { try nights($0, "minimum_nights") }
        change.maximumNights = try fields["maximum_nights"].map { try nights($0, "maximum_nights") }
        change.ratingHundredths = try fields["rating"].map { value -> Int32? in
            guard value != .null else { return nil }
            guard case .number(let text) = value, let hundredths = Money(parsing: text)?.minorUnits, (0...500).contains(hundredths) else {
                throw InputError("rating must be a number from 0 to 5 with at most two decimals, or null")
            }
            return Int32(hundredths)
        }
        change.reviewCount = try fields["reviews"].map { Int32(try count($0, "reviews", upTo: Int(Int32.max))) }
        change.recentReviewCount = try fields["recent_reviews"].map { Int32(try count($0, "recent_reviews", upTo: Int(Int32.max))) }
        change.latitude = try fields["latitude"].map { try degrees($0, "latitude", limit: 90) }
        change.longitude = try fields["longitude"].map { try degrees($0, "longitude", limit: 180) }
        change.bedrooms = try fields["bedrooms"].map { $0 == .null ? nil : try count($0, "bedrooms") }
        change.beds = try fields["beds"].map { $0 == .null ? nil : try count($0, "beds") }
        change.bathroomHalves = try fields["bathrooms"].map { value -> Int? in
            guard value != .null else { return nil }
            guard case .number(let text) = value, let number = Double(text), number >= 0, number <= 127, (number * 2).rounded() == number * 2 else {
                throw InputError("bathrooms must be a number of halves (e.g. 1.5) from 0 to 127, or null")
            }
            return Int(number * 2)
        }
        change.propertyType = try fields["property_type"].map { $0 == .null ? "" : try text($0, "property_type") }
        change.amenities = try fields["amenities"].map { value -> [String] in
            guard case .array(let elements) = value else { throw InputError("amenities must be an array of strings") }
            return try elements.map { try text($0, "amenities") }
        }
        change.isInstantBookable = try fields["instant_bookable"].map { try flag($0, "instant_bookable") }
        change.isSuperhost = try fields["superhost"].map { try flag($0, "superhost") }
        // Fees: amounts (null: none), guests included, discounts as percentages (12.5).
        change.cleaningFee = try fields["cleaning_fee"].map { $0 == .null ? nil : try money($0, "cleaning_fee") }
        change.extraGuestFee = try fields["extra_guest_fee"].map { $0 == .null ? nil : try money($0, "extra_guest_fee") }
        change.securityDeposit = try fields["security_deposit"].map { $0 == .null ? nil : try money($0, "security_deposit") }
        change.guestsIncluded = try fields["guests_included"].map { value -> Int in
            let count = try count(value, "guests_included", upTo: ListingFees.largestGuestsIncluded)
            guard count >= 1 else { throw InputError("guests_included must be a whole number from 1 to \(ListingFees.largestGuestsIncluded)") }
            return count
        }
        for key in ["weekly_discount", "monthly_discount"] {
            guard let value = fields[key] else { continue }
            var basisPoints = 0
            if value != .null {
                guard case .number(let text) = value, let read = PlatformFees.basisPoints(percent: text), read <= ListingFees.largestDiscount else {
                    throw InputError("\(key) must be a percentage from 0 to 99 with at most two decimals (12.5), or null")
                }
                basisPoints = read
            }
            if key == "weekly_discount" { change.weeklyDiscountBasisPoints = basisPoints } else { change.monthlyDiscountBasisPoints = basisPoints }
        }
        return change
    }

    /// A listing id, as a string (as results show it) or a whole number.
    private static func listingID(_ value: FlatJSONObject.Value?) throws -> Int64 {
        switch value {
        case .string(let text)?, .number(let text)?:
            guard let id = Int64(text) else { throw InputError("id '\(text)' is not a listing id") }
            return id
        case nil: throw InputError("a change needs the listing's \"id\"")
        default: throw InputError("id must be a string or a number")
        }
    }

    private static func day(_ value: FlatJSONObject.Value?, _ key: String) throws -> Day {
        guard case .string(let text)? = value else { throw InputError("\(key) must be a date string, e.g. \"2024-07-12\"") }
        return try QueryParsing.day(text, field: key)
    }

    private static func count(_ value: FlatJSONObject.Value?, _ key: String, upTo limit: Int = 10_000) throws -> Int {
        guard case .number(let text)? = value, let number = Int(text), number >= 0, number <= limit else {
            throw InputError("\(key) must be a whole number from 0 to \(limit)")
        }
        return number
    }

    private static func nights(_ value: FlatJSONObject.Value, _ key: String) throws -> Int32 {
        guard case .number(let text) = value, let number = Int32(text), number >= 1 else {
            throw InputError("\(key) must be a whole number of nights from 1 to 2147483647")
        }
        return number
    }

    private static func money(_ value: FlatJSONObject.Value, _ key: String) throws -> Money {
        switch value {
        case .number(let text), .string(let text): return try QueryParsing.money(text, field: key)
        default: throw InputError("\(key) must be a number")
        }
    }

    private static func text(_ value: FlatJSONObject.Value, _ key: String) throws -> String {
        guard case .string(let text) = value else { throw InputError("\(key) must be a string") }
        return text
    }

    private static func flag(_ value: FlatJSONObject.Value, _ key: String) throws -> Bool {
        guard case .bool(let flag) = value else { throw InputError("\(key) must be true or false") }
        return flag
    }

    private static func degrees(_ value: FlatJSONObject.Value, _ key: String, limit: Double) throws -> Double {
        guard case .number(let text) = value, let number = Double(text), number >= -limit, number <= limit else {
            throw InputError("\(key) must be a number of degrees from \(Int(-limit)) to \(Int(limit))")
        }
        return number
    }
}
