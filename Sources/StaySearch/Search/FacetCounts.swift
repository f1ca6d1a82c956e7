/// The counts of one facet: its values with how many matching listings have each, most first (ties:
/// value ascending), at most the query's `facetLimit`.
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

    /// The entries of `counted` (values with a count above 0), ordered and cut to `limit`.
    public init(facet: Facet, counted: [Entry], limit: Int) {
        self.facet = facet
        entries = Array(counted.filter { $0.count > 0 }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.value < $1.value }
            .prefix(limit))
    }
}
