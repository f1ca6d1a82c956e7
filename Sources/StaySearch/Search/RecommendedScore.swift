/// The score of the `recommended` order (docs/query-semantics.md, "Recommended order"), in thousandths of
/// a point, higher first; equal scores go by id. Every part is integer arithmetic, so that the order is the
/// same on every machine and the brute-force reference can compute it independently.
///
/// | part | points | from |
/// |---|---|---|
/// | rating | 0 – 50 | the rating shrunk toward the city's mean by review count: (r·n + C·10) / (n + 10) out of 5 |
/// | recent reviews | 0 – 20 | 20 · L / (L + 12), L reviews in the last twelve months |
/// | superhost | 10 | the host is a superhost |
/// | price | −20 – 20 | 20 · (M − v) / M, M the median price of the query's matches, v the listing's |
/// | nearness | 0 – 20 | 20 · 1 km / (1 km + d), only when the query has a point or a box |
public enum RecommendedScore {
    /// The reviews a city's mean counts as (the prior's weight).
    public static let priorReviews: Int64 = 10
    /// Reviews in the last twelve months at which that part gives half its points.
    public static let halfRecentReviews: Int64 = 12
    /// The most the price part gives (thousandths): 20 points.
    public static let pricePoints: Int64 = 20_000
    /// The most nearness gives (thousandths): 20 points.
    public static let nearnessPoints: Int64 = 20_000
    /// The distance in metres at which nearness gives half its points.
    public static let halfDistanceMetres: Int64 = 1_000

    /// Rating, recent reviews and superhost: what a listing earns whatever the query.
    /// - Parameters:
    ///   - ratingHundredths: the listing's rating (0–500), or nil without one (it then counts no reviews).
    ///   - cityMeanHundredths: the mean rating of the city's rated listings (floor), 0 when none is rated.
    public static func quality(ratingHundredths: Int64?, reviews: Int64, recentReviews: Int64, isSuperhost: Bool,
                               cityMeanHundredths: Int64) -> Int64 {
        let n = ratingHundredths == nil ? 0 : max(0, reviews)
        let shrunk = ((ratingHundredths ?? 0) * n + cityMeanHundredths * priorReviews) * 100 / (n + priorReviews)
        let recent = max(0, recentReviews)
        return shrunk + 20_000 * recent / (recent + halfRecentReviews) + (isSuperhost ? 10_000 : 0)
    }

    /// The price part: `value` (a stay's total, or a price without dates) against `median`, from −20 to 20
    /// points (division truncates toward zero); 0 when the median is not positive.
    @inline(__always)
    public static func price(value: Int64, median: Int64) -> Int64 {
        guard median > 0 else { return 0 }
        return min(pricePoints, max(-pricePoints, pricePoints * (median - value) / median))
    }

    /// The nearness part for a listing `metres` (whole) from the searched centre.
    @inline(__always)
    public static func nearness(metres: Int64) -> Int64 {
        nearnessPoints * halfDistanceMetres / (halfDistanceMetres + max(0, metres))
    }

    /// The centre nearness is measured from: the query's `near` point, else the middle of its box (across
    /// the antimeridian when the box crosses it), else none.
    public static func centre(of query: SearchQuery) -> GeoPoint? {
        if let near = query.near { return near }
        guard let box = query.boundingBox else { return nil }
        var longitude = (box.west + box.east) / 2
        if box.crossesAntimeridian { longitude += longitude > 0 ? -180 : 180 }
        return GeoPoint(latitude: (box.south + box.north) / 2, longitude: longitude)
    }
}
