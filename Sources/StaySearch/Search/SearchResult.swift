/// The answer to a ``SearchQuery``: how many listings match, one page of them, and the histogram.
public struct SearchResult: Sendable, Equatable {
    /// Every listing that matches all filters (not just the page).
    public var total: Int
    /// The number of nights, when the query has dates.
    public var nights: Int?
    /// The requested page of matches, in the requested order.
    public var matches: [ListingMatch]
    /// Nightly prices of every listing that matches all filters but the price range.
    public var histogram: PriceHistogram
    /// The counts of the query's facets, in its order.
    public var facets: [FacetCounts]

    /// Creates a result.
    public init(total: Int, nights: Int?, matches: [ListingMatch], histogram: PriceHistogram, facets: [FacetCounts] = []) {
        self.total = total
        self.nights = nights
        self.matches = matches
        self.histogram = histogram
        self.facets = facets
    }
}

/// One listing in a page of results, with its price for the query's stay.
public struct ListingMatch: Sendable, Equatable {
    /// The listing's row in the index.
    public var row: Int
    /// The listing's id.
    public var id: Int64
    /// The listing's title.
    public var name: String
    /// City, neighbourhood group (empty when none) and neighbourhood.
    public var region: RegionPath
    /// The `room_type` value.
    public var roomType: String
    /// Guests it takes.
    public var accommodates: Int
    /// The stay's total ÷ nights rounded half up to the cent; without dates, the price without dates.
    public var nightlyPrice: Money
    /// The stay's exact total; `nil` without dates.
    public var totalPrice: Money?
    /// `review_scores_rating` in hundredths, if it has one.
    public var ratingHundredths: Int32?
    /// `number_of_reviews`.
    public var reviewCount: Int32
    /// Latitude in degrees.
    public var latitude: Double
    /// Longitude in degrees.
    public var longitude: Double
    /// The great-circle distance from the query's `near` point in kilometres, when it has one.
    public var distanceKilometres: Double?
    /// The stay's dates when the query's dates are flexible (each listing's cheapest stay); else nil.
    public var checkIn: Day?
    public var checkOut: Day?
}
