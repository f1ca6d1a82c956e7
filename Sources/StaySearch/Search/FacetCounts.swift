/// The counts of one facet: its values with how many matching listings have each, most first (ties:
/// value ascending, names compared folded, then as spelled), at most the query's `facetLimit`.
public struct FacetCounts: Sendable, Equatable {
    /// A facet value: a name as the data spells it, a count (bedrooms), or yes/no.
    public enum Value: Sendable, Equatable, Comparable {
        case text(String)
        case number(Int)
        case flag(Bool)

        public static func < (lhs: Value, rhs: Value) -> Bool {
            switch (lhs, rhs) {
            case let (.text(a), .text(b)): return a < b
            case let (.number(a), .number(b)): return a < b
            case let (.flag(a), .flag(b)): return !a && b
            default: return false
            }
        }
    }

    /// One value and its count.
    public struct Entry: Sendable, Equatable {
        public var value: Value
        public var count: Int

        public init(value: Value, count: Int) {
            self.value = value
            self.count = count
        }
    }

    /// The facet counted.
    public var facet: Facet
    /// Its values, most first.
    public var entries: [Entry]

    /// The entries of `counted` (values with a count above 0), ordered and cut to `limit`. Names of equal counts
    /// go by their folded form (``TextFolding``, the form a facet groups them by), then by spelling: which
    /// spelling of a name the data showed first never changes which of two tied names is kept.
    public init(facet: Facet, counted: [Entry], limit: Int) {
        self.facet = facet
        let keyed = counted.filter { $0.count > 0 }.map { entry -> (entry: Entry, folded: String) in
            if case let .text(name) = entry.value { return (entry, TextFolding.fold(name)) }
            return (entry, "")
        }
        entries = Array(keyed.sorted { a, b in
            if a.entry.count != b.entry.count { return a.entry.count > b.entry.count }
            return a.folded != b.folded ? a.folded < b.folded : a.entry.value < b.entry.value
        }.prefix(limit).map(\.entry))
    }

    /// The entries of `counted`, already in the order ties go (as the public initializer would order equal
    /// counts), ordered by count and cut to `limit`: nothing folded while a query is answered.
    init(facet: Facet, tieOrdered counted: [Entry], limit: Int) {
        self.facet = facet
        entries = counted.enumerated().filter { $0.element.count > 0 }
            .sorted { a, b in a.element.count != b.element.count ? a.element.count > b.element.count : a.offset < b.offset }
            .prefix(limit).map(\.element)
    }
}
