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
    /// `number_of_reviews_ltm`: reviews in the twelve months before the data was scraped (0 when unknown).
    public var recentReviewCount: Int32
    /// Latitude in degrees.
    public var latitude: Double
    /// Longitude in degrees.
    public var longitude: Double
    /// `bedrooms`, if known.
    public var bedrooms: Int?
    /// `beds`, if known.
    public var beds: Int?
    /// Bathrooms in halves (`1.5 baths` is 3), if known.
    public var bathroomHalves: Int?
    /// `property_type`, e.g. `Entire rental unit`; empty when unknown.
    public var propertyType: String
    /// The `amenities` strings, as listed.
    public var amenities: [String]
    /// `instant_bookable` is `t`.
    public var isInstantBookable: Bool
    /// `host_is_superhost` is `t`.
    public var isSuperhost: Bool
    /// What it charges beside its nights, or nil for nothing.
    public var fees: ListingFees?

    /// Creates a listing record.
    public init(
        id: Int64, name: String, region: RegionPath, roomType: String, accommodates: Int,
        price: Money?, minimumNights: Int32 = 1, maximumNights: Int32 = Int32.max,
        ratingHundredths: Int32? = nil, reviewCount: Int32 = 0, recentReviewCount: Int32 = 0, latitude: Double = 0, longitude: Double = 0,
        bedrooms: Int? = nil, beds: Int? = nil, bathroomHalves: Int? = nil, propertyType: String = "",
        amenities: [String] = [], isInstantBookable: Bool = false, isSuperhost: Bool = false, fees: ListingFees? = nil
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
        self.recentReviewCount = recentReviewCount
        self.latitude = latitude
        self.longitude = longitude
        self.bedrooms = bedrooms
        self.beds = beds
        self.bathroomHalves = bathroomHalves
        self.propertyType = propertyType
        self.amenities = amenities
        self.isInstantBookable = isInstantBookable
        self.isSuperhost = isSuperhost
        self.fees = fees?.isEmpty == false ? fees : nil
    }
}
