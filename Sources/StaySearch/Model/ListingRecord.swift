/// One listing as read from a source, before it is indexed.
///
/// Everything the engine filters, sorts or shows about a listing; the calendar comes separately as
/// ``CalendarNight`` values.
public struct ListingRecord: Sendable, Equatable {
    /// The listing's id (Inside Airbnb ids reach 19 digits).
    public var id: Int64
    /// The listing's title.
    public var name: String
    /// Where it is: city, optional neighbourhood group, neighbourhood.
    public var region: RegionPath
    /// The `room_type` value, e.g. `Entire home/apt`.
    public var roomType: String
    /// How many guests (adults and children) it takes.
    public var accommodates: Int
    /// The listing's own nightly price, if it has one.
    public var price: Money?
    /// The listing's minimum stay, used where the calendar has no row for the check-in date.
    public var minimumNights: Int32
    /// The listing's maximum stay, used where the calendar has no row for the check-in date.
    public var maximumNights: Int32
    /// `review_scores_rating` in hundredths (4.85 is 485), if it has one.
    public var ratingHundredths: Int32?
    /// `number_of_reviews`.
    public var reviewCount: Int32
    /// Latitude in degrees.
    public var latitude: Double
    /// Longitude in degrees.
    public var longitude: Double

    /// Creates a listing record.
    public init(
        id: Int64, name: String, region: RegionPath, roomType: String, accommodates: Int,
        price: Money?, minimumNights: Int32 = 1, maximumNights: Int32 = Int32.max,
        ratingHundredths: Int32? = nil, reviewCount: Int32 = 0, latitude: Double = 0, longitude: Double = 0
    ) {
        self.id = id
        self.name = name
        self.region = region
        self.roomType = roomType
        self.accommodates = accommodates
        self.price = price
        self.minimumNights = minimumNights
        self.maximumNights = maximumNights
        self.ratingHundredths = ratingHundredths
        self.reviewCount = reviewCount
        self.latitude = latitude
        self.longitude = longitude
    }
}
