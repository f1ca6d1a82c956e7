/// One key a route takes besides a search's: a listing calendar's months, the region suggestions' prefix and
/// limit, a replica read's change-log position, a picture's language and currency. Its bounds are written
/// once, here: the routes read their keys through ``read(_:allowed:)`` and the OpenAPI document shows the
/// same bounds.
package struct RouteParameter: Sendable {
    /// The shape of a value.
    package enum Kind: Sendable {
        /// Text, matching `pattern` (a regular expression the OpenAPI document shows) when there is one.
        case text(pattern: String?, shape: String?)
        /// A whole number within these bounds.
        case whole(ClosedRange<Int>)
        /// One of fixed names.
        case choice([String])
    }

    package let key: String
    package let kind: Kind
    package let help: String

    package init(_ key: String, _ kind: Kind, _ help: String) {
        self.key = key
        self.kind = kind
        self.help = help
    }

    /// The value of `text` checked against this key's kind.
    package func check(_ text: String) throws(InputError) {
        switch kind {
        case let .text(pattern, shape):
            guard let pattern else { return }
            let regex = try? Regex(pattern)
            guard let regex, (try? regex.wholeMatch(in: text)) != nil else {
                throw InputError("\(key) must be \(shape ?? "of the form \(pattern)") (got '\(text)')")
            }
        case let .whole(range):
            guard let number = Int(text), range.contains(number) else {
                throw InputError("\(key) must be a whole number from \(range.lowerBound) to \(range.upperBound) (got '\(text)')")
            }
        case let .choice(names):
            guard names.contains(text) else { throw InputError("\(key) must be one of \(names.joined(separator: ", ")) (got '\(text)')") }
        }
    }

    /// The values of `items`, each key at most once and checked against its parameter among `allowed`.
    /// - Throws: ``InputError``: a key not among `allowed` (``ErrorCode/unknownParameter``), a key twice or a
    ///   value out of its bounds.
    package static func read(_ items: [(key: String, value: String)], allowed: [RouteParameter]) throws(InputError) -> [String: String] {
        var values: [String: String] = [:]
        for (key, text) in items {
            guard let parameter = allowed.first(where: { $0.key == key }) else {
                throw InputError("unknown key '\(key)'; keys are \(allowed.map(\.key).joined(separator: ", "))", code: .unknownParameter)
            }
            guard values[key] == nil else { throw InputError("key '\(key)' appears twice") }
            try parameter.check(text)
            values[key] = text
        }
        return values
    }
}
