import StaySearch

/// Reading a ``CalendarChange`` from one JSON line of `staysearch update` (SPEC "Live calendars").
enum ChangeLine {
    /// The operations SPEC names that this staysearch does not apply yet.
    static let unsupported = ["price", "rules", "listing", "remove"]

    /// Parses one line.
    /// - Throws: ``BatchLineError`` or ``QueryError`` (a malformed date), with a message for the answer.
    static func parse(_ line: String) throws -> CalendarChange {
        let object = try FlatJSONObject(parsing: line)
        var fields: [String: FlatJSONObject.Value] = [:]
        for (key, value) in object.entries { fields[key] = value }
        guard case .string(let op)? = fields["op"] else { throw BatchLineError("a change needs \"op\": book, cancel or availability") }
        if unsupported.contains(op) {
            throw BatchLineError("op '\(op)' is not applied by this staysearch yet; it applies book, cancel and availability")
        }
        let allowed: [String: [String]] = ["book": ["op", "id", "checkin", "checkout", "guests", "adults", "children"],
                                           "cancel": ["op", "id", "checkin", "checkout"],
                                           "availability": ["op", "id", "from", "to", "available"]]
        guard let keys = allowed[op] else { throw BatchLineError("unknown op '\(op)'; use book, cancel or availability") }
        for key in fields.keys where !keys.contains(key) {
            throw BatchLineError("unknown key '\(key)' for op '\(op)'; its keys are \(keys.joined(separator: ", "))")
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
        default:
            guard case .bool(let available)? = fields["available"] else { throw BatchLineError("available must be true or false") }
            return .availability(id: id, from: try day(fields["from"], "from"), to: try day(fields["to"], "to"), available: available)
        }
    }

    /// A listing id, as a string (as results show it) or a whole number.
    private static func listingID(_ value: FlatJSONObject.Value?) throws -> Int64 {
        switch value {
        case .string(let text)?, .number(let text)?:
            guard let id = Int64(text) else { throw BatchLineError("id '\(text)' is not a listing id") }
            return id
        case nil: throw BatchLineError("a change needs the listing's \"id\"")
        default: throw BatchLineError("id must be a string or a number")
        }
    }

    private static func day(_ value: FlatJSONObject.Value?, _ key: String) throws -> Day {
        guard case .string(let text)? = value else { throw BatchLineError("\(key) must be a date string, e.g. \"2024-07-12\"") }
        return try QueryParsing.day(text, field: key)
    }

    private static func count(_ value: FlatJSONObject.Value?, _ key: String) throws -> Int {
        guard case .number(let text)? = value, let number = Int(text), number >= 0, number <= 10_000 else {
            throw BatchLineError("\(key) must be a whole number from 0 to 10000")
        }
        return number
    }
}
