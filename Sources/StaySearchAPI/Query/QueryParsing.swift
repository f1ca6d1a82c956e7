import StaySearch

/// Turning the text of one value into a query's value, with the error a person sees when it is not one.
package enum QueryParsing {
    /// Reads bathrooms such as `1.5` as halves (3).
    package static func bathroomHalves(_ text: String) throws(InputError) -> Int {
        guard let value = Double(trimmed(text)), value.isFinite, value >= 0,
              (value * 2).rounded() == value * 2, value < 1_000 else {
            throw InputError("bathrooms '\(text)' is not a number of halves such as 1 or 1.5")
        }
        return Int(value * 2)
    }

    /// Reads weekday names such as `fri`, `Saturday`.
    package static func weekdays(_ names: [String]) throws(QueryError) -> Set<Weekday> {
        var days: Set<Weekday> = []
        for name in names {
            guard let day = Weekday(name: name) else { throw .unknownWeekday(name) }
            days.insert(day)
        }
        return days
    }

    /// Reads facet names, each once, in the order given.
    package static func facets(_ names: [String]) throws(QueryError) -> [Facet] {
        var facets: [Facet] = []
        for name in names {
            let facet = try Facet(parsing: name)
            if !facets.contains(facet) { facets.append(facet) }
        }
        return facets
    }

    /// Reads a radius in kilometres.
    package static func kilometres(_ text: String) throws(InputError) -> Double {
        guard let value = Double(trimmed(text)), value.isFinite else {
            throw InputError("radius km '\(text)' is not a number of kilometres such as 2.5")
        }
        return value
    }

    /// Reads `count` numbers separated by commas: `SOUTH,WEST,NORTH,EAST` (4) or `LAT,LON` (2).
    package static func coordinates(_ text: String, count: Int, field: String) throws(InputError) -> [Double] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { Double(trimmed($0)) }.filter(\.isFinite)
        guard parts.count == count, numbers.count == count else {
            let shape = count == 4 ? "SOUTH,WEST,NORTH,EAST" : "LAT,LON"
            throw InputError("\(field) '\(text)' is not \(shape) in degrees, e.g. \(count == 4 ? "51.19,4.38,51.23,4.43" : "51.2172,4.4212")")
        }
        return numbers
    }

    /// Reads an ISO date for `field`.
    package static func day(_ text: String, field: String) throws(QueryError) -> Day {
        guard let day = Day(iso: text) else { throw .malformedDate(field: field, text: text) }
        return day
    }

    /// Reads an amount for `field`, exact to the cent.
    package static func money(_ text: String, field: String) throws(QueryError) -> Money {
        guard let money = Money(parsing: trimmed(text)) else { throw .malformedPrice(field: field, text: text) }
        return money
    }

    /// `text` without spaces or tabs at either end.
    package static func trimmed<Text: StringProtocol>(_ text: Text) -> String {
        var text = Substring(text)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
