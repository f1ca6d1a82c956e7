/// How results are ordered. Remaining ties are broken by id, ascending.
public enum SortOrder: String, CaseIterable, Sendable {
    /// Nightly price, lowest first (the default).
    case price
    /// Nightly price, highest first.
    case priceDescending = "price-desc"
    /// `review_scores_rating`, highest first, listings without one last; then more reviews first.
    case rating
    /// `number_of_reviews`, most first.
    case reviews
    /// Great-circle distance from the query's `near` point, nearest first (needs `near`).
    case distance
    /// The ``RecommendedScore`` of each match, highest first: rating shrunk toward the city's mean, recent
    /// reviews, superhost, price against the matches' median, nearness to the searched point or box.
    case recommended

    /// Parses a sort name as the CLI and JSON spell it.
    /// - Throws: ``QueryError/unknownSort(_:)``.
    public init(parsing name: String) throws(QueryError) {
        guard let order = SortOrder(rawValue: name) else { throw .unknownSort(name) }
        self = order
    }
}
