import StaySearch

/// Reads a ``SearchQuery`` from any surface through ``QuerySchema``: a JSON object (a batch line), a URL's
/// query string, or command-line flags' values. Each value is read by its parameter's kind, then the query is
/// checked once by ``SearchQuery/validate()``.
package enum QueryReader {
    /// Parses and validates one batch line: the query, and the PNG file its results' map goes to (`"map"`), if any.
    /// - Throws: ``InputError`` or ``QueryError``.
    package static func batchLine(_ line: String) throws -> (query: SearchQuery, mapPath: String?) {
        var mapPath: String?
        var entries: [(key: String, value: FlatJSONObject.Value)] = []
        for (key, value) in try FlatJSONObject(parsing: line).entries {
            guard key == "map" else {
                entries.append((key, value))
                continue
            }
            if value == .null { continue }
            guard case .string(let path) = value, !path.isEmpty else { throw InputError("map must name a PNG file") }
            mapPath = path
        }
        return (try query(entries, extraKeys: ["map"]), mapPath)
    }

    /// The query of a JSON object's entries (`null` values are left out).
    /// - Throws: ``InputError`` or ``QueryError``.
    package static func query(_ entries: [(key: String, value: FlatJSONObject.Value)], extraKeys: [String] = []) throws -> SearchQuery {
        var values: [(QueryParameter, QueryParameter.Value)] = []
        for (key, value) in entries where value != .null {
            guard let parameter = QuerySchema.parameter(key) else { throw unknownKey(key, extraKeys: extraKeys) }
            values.append((parameter, try jsonValue(value, of: parameter)))
        }
        return try query(values)
    }

    /// The query of a URL's query string or of command-line values: each value as text; a repeated key adds
    /// to a list (and is refused for any other key).
    /// - Parameters:
    ///   - allowed: the parameters these items may name (a route that takes only some of them).
    ///   - extraKeys: the route's other keys, read before these items (named with the allowed ones when a key
    ///     is unknown).
    /// - Throws: ``InputError`` or ``QueryError``.
    package static func query(items: [(key: String, value: String)], allowed: [QueryParameter] = QuerySchema.search,
                              extraKeys: [String] = []) throws -> SearchQuery {
        var values: [(QueryParameter, QueryParameter.Value)] = []
        for (key, text) in items {
            guard let parameter = allowed.first(where: { $0.key == key }) else {
                throw InputError("unknown key '\(key)'; keys are \((allowed.map(\.key) + extraKeys).joined(separator: ", "))",
                                 code: .unknownParameter)
            }
            let value = try textValue(text, of: parameter)
            if let position = values.firstIndex(where: { $0.0.key == key }) {
                guard case .texts(let earlier) = values[position].1 else { throw InputError("key '\(key)' appears twice") }
                values[position].1 = .texts(earlier + value.texts)
            } else {
                values.append((parameter, value))
            }
        }
        return try query(values)
    }

    private static func query(_ values: [(QueryParameter, QueryParameter.Value)]) throws -> SearchQuery {
        var query = SearchQuery()
        for (parameter, value) in values { try parameter.set(&query, value) }
        try query.validate()
        return query
    }

    private static func unknownKey(_ key: String, extraKeys: [String]) -> InputError {
        InputError("unknown key '\(key)'; keys are \((QuerySchema.keys + extraKeys).joined(separator: ", "))", code: .unknownParameter)
    }

    /// A JSON value in the shape of `parameter`'s kind.
    private static func jsonValue(_ value: FlatJSONObject.Value, of parameter: QueryParameter) throws(InputError) -> QueryParameter.Value {
        let key = parameter.key
        switch parameter.kind {
        case .text, .date, .choice:
            guard case .string(let text) = value else { throw InputError("\(key) must be a string") }
            return .text(text)
        case .whole:
            guard case .number(let text) = value else { throw InputError("\(key) must be a whole number") }
            return .number(text)
        case .money:
            switch value {
            case .number(let text), .string(let text): return .text(text)
            default: throw InputError("\(key) must be a number")
            }
        case .halves, .kilometres:
            guard case .number(let text) = value else { throw InputError("\(key) must be a number") }
            return .number(text)
        case .flag:
            guard case .bool(let flag) = value else { throw InputError("\(key) must be true or false") }
            return .flag(flag)
        case .names(_, let commaSeparated):
            let texts: [String]
            switch value {
            case .string(let text): texts = [text]
            case .array(let elements):
                texts = try elements.map { element throws(InputError) in
                    guard case .string(let text) = element else { throw InputError("\(key) must be a string or an array of strings") }
                    return text
                }
            default: throw InputError("\(key) must be a string or an array of strings")
            }
            return .texts(commaSeparated ? texts.flatMap(splitAtCommas) : texts)
        case .coordinates(let count):
            let shape = count == 4 ? "[south, west, north, east]" : "[lat, lon]"
            guard case .array(let elements) = value, elements.count == count else {
                throw InputError("\(key) must be an array of \(count) numbers, \(shape)")
            }
            return .numbers(try elements.map { element throws(InputError) in
                guard case .number(let text) = element, let number = Double(text), number.isFinite else {
                    throw InputError("\(key) must be an array of \(count) numbers, \(shape)")
                }
                return number
            })
        }
    }

    /// A value given as text (a URL's or a flag's) in the shape of `parameter`'s kind.
    private static func textValue(_ text: String, of parameter: QueryParameter) throws(InputError) -> QueryParameter.Value {
        switch parameter.kind {
        case .text, .date, .choice, .money: return .text(text)
        case .whole, .halves, .kilometres: return .number(text)
        case .flag:
            switch text {
            case "true": return .flag(true)
            case "false": return .flag(false)
            default: throw InputError("\(parameter.key) must be true or false")
            }
        case .names(_, let commaSeparated): return .texts(commaSeparated ? splitAtCommas(text) : [text])
        case .coordinates(let count):
            return .numbers(try QueryParsing.coordinates(text, count: count, field: parameter.key))
        }
    }

    private static func splitAtCommas(_ text: String) -> [String] {
        text.split(separator: ",").map(String.init)
    }
}
