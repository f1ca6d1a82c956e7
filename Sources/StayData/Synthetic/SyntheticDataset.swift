import StaySearch

#if canImport(Glibc)
import Glibc
#endif

/// Realistic synthetic listings and calendars, calibrated on the Antwerp and Albany samples of
/// Inside Airbnb, deterministic for a seed (each listing from its own seed, so any listing can be
/// made again alone).
///
/// Calibration (measured on the samples): room types 78 % entire home, 20 % private room, 1 % hotel,
/// 1 % shared; log-normal nightly prices (entire home μ 4.87, σ 0.8; private room μ 4.2, σ 0.6),
/// scaled by city and capacity; 15 % of listings without a listing price; 47 % of nights booked, in
/// runs of median 3 nights (free runs: median 5), 12 % of calendars fully booked and 4 % fully free;
/// minimum nights 1 (40 %), 2 (33 %), 3 (8 %) and a tail to 90; 16 % of listings without reviews.
/// Calendar prices: 80 % of listings keep one price all year (as in the samples), 15 % raise it in
/// high season (July–August, late December), 5 % also charge more on Friday and Saturday nights; a
/// quarter of listings ask for two nights for weekend check-ins. With ``Pricing/dynamic`` every listing
/// is priced instead as pricing tools do it (see ``DynamicPricing``); everything else stays the same.
/// With fees, listings also get the fees of ``SyntheticFees``, drawn from a stream of their own, so that
/// the same seed gives the same listings and calendars with fees or without.
public struct SyntheticDataset: Sendable {
    /// How calendar prices are made.
    public enum Pricing: String, Sendable, CaseIterable {
        /// As in the Inside Airbnb samples: most listings keep one price all year.
        case calibrated
        /// As professional hosts' pricing tools set them: a price that changes most days.
        case dynamic
    }

    /// The listings, in generation order.
    public let listings: [ListingRecord]
    /// The seed everything derives from.
    public let seed: UInt64
    /// The first calendar day (the scrape date).
    public let firstDay: Day
    /// Calendar length in days.
    public let dayCount: Int
    /// How calendar prices are made.
    public let pricing: Pricing
    /// Whether listings have fees (``SyntheticFees``).
    public let hasFees: Bool
    /// The currency of every price (``SyntheticCurrency``).
    public let currency: SyntheticCurrency
    /// The share of listings a later scrape of the same listings finds changed (0: the first scrape): their
    /// nights repriced by −10 % to +20 % and a week of them newly booked.
    public var changedShare = 0.0

    /// Generates `count` listings for `seed`.
    /// - Complexity: O(*n*); calendars are made on demand.
    public init(listingCount count: Int, seed: UInt64, firstDay: Day = Day(year: 2025, month: 6, day: 1)!, dayCount: Int = 365,
                pricing: Pricing = .calibrated, fees: Bool = false, currency: SyntheticCurrency = .usd) {
        self.seed = seed
        self.currency = currency
        self.pricing = pricing
        hasFees = fees
        self.firstDay = firstDay
        self.dayCount = dayCount
        listings = (0..<count).map { position in
            var listing = SyntheticDataset.listing(at: position, seed: seed, currency: currency)
            if fees {
                var random = SyntheticDataset.random(seed: seed, position: position, stream: 7)
                listing.fees = SyntheticFees.fees(of: listing, priceFactor: SyntheticCity.named(listing.region.city).priceFactor,
                                                  currency: currency, random: &random)
            }
            return listing
        }
    }

    /// Builds the index without storing a single night (nor an amenity string per listing).
    public func makeIndex() -> ListingIndex {
        IndexBuilder.build(listings: listings, firstDay: firstDay, dayCount: dayCount, calendarOfListing: { calendar(ofListingAt: $0) },
                           amenitiesOfListing: { amenities(ofListingAt: $0) })
    }

    /// The amenities of the listing at `position` (made on demand: ``listings`` hold none, so that a
    /// million listings do not keep thirty strings each).
    public func amenities(ofListingAt position: Int) -> [String] {
        var random = SyntheticDataset.random(seed: seed, position: position, stream: 5)
        return SyntheticDetails.amenities(random: &random)
    }

    private static func random(seed: UInt64, position: Int, stream: UInt64) -> SplitMix64 {
        var mixer = SplitMix64(seed: seed ^ (UInt64(position) &* 0xD1B5_4A32_D192_ED03) ^ (stream &* 0x8CB9_2BA7_2F3D_8DD7))
        return SplitMix64(seed: mixer.next())
    }

    static func listing(at position: Int, seed: UInt64, currency: SyntheticCurrency = .usd) -> ListingRecord {
        var random = random(seed: seed, position: position, stream: 1)
        let city = SyntheticCity.all[random.pick(weights: SyntheticCity.all.map(\.weight))]
        let group = city.groups[random.pick(weights: city.groups.indices.map { 1 / Double($0 + 1) })]
        let neighbourhood = group.neighbourhoods[random.pick(weights: group.neighbourhoods.indices.map { 1 / Double($0 + 1) })]
        // Ids like Inside Airbnb's: older 8-digit ones and newer 19-digit ones, unique by position.
        let id = random.chance(0.4) ? Int64(10_000_000 + position) : 1_000_000_000_000_000_000 + Int64(position) * 1_000 + Int64(position % 997)

        let roomType = ["Entire home/apt", "Private room", "Hotel room", "Shared room"][random.pick(weights: [78, 20, 1, 1])]
        let accommodates: Int
        switch roomType {
        case "Entire home/apt": accommodates = [2, 3, 4, 5, 6, 8, 10, 12, 16][random.pick(weights: [40, 8, 28, 5, 10, 5, 2, 1, 1])]
        case "Private room": accommodates = [1, 2, 3, 4][random.pick(weights: [25, 65, 6, 4])]
        case "Shared room": accommodates = [1, 2, 4][random.pick(weights: [50, 30, 20])]
        default: accommodates = 2
        }
        let (mu, sigma): (Double, Double) = switch roomType {
        case "Entire home/apt": (4.87, 0.8)
        case "Private room": (4.2, 0.6)
        case "Hotel room": (4.94, 0.3)
        default: (4.0, 0.5)
        }
        let logPrice = mu + sigma * random.normal() + 0.15 * log(Double(accommodates) / 2)
        let dollars = max(10, Int64((exp(logPrice) * city.priceFactor).rounded()))
        let price: Money? = random.chance(0.85) ? Money(minorUnits: currency.minorUnits(ofDollars: Double(dollars), step: currency.hostStep)) : nil

        let minimum: Int32 = [1, 2, 3, 4, 5, 7, 14, 28, 30, 90][random.pick(weights: [40, 33, 8, 2, 3, 3, 1, 2, 2, 2])]
        let maximum: Int32 = [365, 1125, 30, 90, 28, 60, 180, 14, 7][random.pick(weights: [35, 27, 8, 6, 4, 5, 5, 5, 5])]
        let rating: Int32? = random.chance(0.16) ? nil
            : random.chance(0.24) ? 500 : Int32(max(100, (500 - abs(random.normal()) * 35).rounded()))
        let reviews: Int32 = rating == nil || random.chance(0.02) ? 0 : Int32(min(2_000, (-45 * log(max(random.unit(), 1e-9))).rounded() + 1))
        let adjectives = ["Cosy", "Bright", "Quiet", "Spacious", "Charming", "Modern", "Sunny", "Stylish", "Lovely", "Central"]
        let kinds = roomType == "Entire home/apt" ? ["flat", "studio", "loft", "apartment", "house"]
            : roomType == "Private room" ? ["room", "double room", "bedroom"] : roomType == "Hotel room" ? ["hotel room"] : ["shared room"]
        let name = "\(adjectives[Int(random.next() % UInt64(adjectives.count))]) \(kinds[Int(random.next() % UInt64(kinds.count))]) in \(neighbourhood)"
        let latitude = ((city.latitude + random.normal() * 0.03) * 1e7).rounded() / 1e7
        let longitude = ((city.longitude + random.normal() * 0.045) * 1e7).rounded() / 1e7
        var listing = ListingRecord(
            id: id, name: name, region: RegionPath(city: city.name, neighbourhoodGroup: group.name, neighbourhood: neighbourhood),
            roomType: roomType, accommodates: accommodates, price: price, minimumNights: minimum, maximumNights: maximum,
            ratingHundredths: rating, reviewCount: reviews, latitude: latitude, longitude: longitude)
        var detailRandom = SyntheticDataset.random(seed: seed, position: position, stream: 4)
        SyntheticDetails.fill(&listing, random: &detailRandom)
        return listing
    }

    /// The calendar of the listing at `position`: one night per day of the span, in date order.
    public func calendar(ofListingAt position: Int) -> [CalendarNight] {
        let listing = listings[position]
        var random = SyntheticDataset.random(seed: seed, position: position, stream: 2)
        // Calendar prices usually differ a little from the listing's own.
        let unlisted = exp(4.6 + 0.7 * random.normal())
        let listed = listing.price?.minorUnits ?? (currency == .usd ? Int64((unlisted * 100).rounded())
                                                   : currency.minorUnits(ofDollars: unlisted, step: currency.hostStep))
        let step = currency.hostStep
        let base = random.chance(0.6) ? Int64((Double(listed / 100) * (0.85 + 0.3 * random.unit()) / Double(step)).rounded()) * step * 100 : listed
        let priceShape = random.pick(weights: [80, 15, 5])           // constant, seasonal, seasonal + weekend
        let weekendMinimum = random.chance(0.25)
        let occupancy = random.pick(weights: [12, 4, 84])             // fully booked, fully free, runs
        var booked = random.chance(0.47)
        // Dynamic prices draw from a stream of their own, so occupancy and stay rules stay as calibrated.
        var priceRandom = SyntheticDataset.random(seed: seed, position: position, stream: 3)
        let cityNumber = SyntheticCity.all.firstIndex { $0.name == listing.region.city } ?? 0
        let dynamic = pricing == .dynamic
            ? DynamicPricing(city: SyntheticCity.all[cityNumber], cityNumber: cityNumber, seed: seed, dayCount: dayCount,
                             random: &priceRandom)
            : nil
        // A later scrape: a listing it finds changed (a stream of its own, so that the rest stays as it was).
        var changeRandom = SyntheticDataset.random(seed: seed, position: position, stream: 6)
        let isChanged = changedShare > 0 && changeRandom.unit() < changedShare
        let factor: Int64 = isChanged ? 90 + Int64(changeRandom.next() % 31) : 100
        let bookedFrom = Int(changeRandom.next() % UInt64(max(1, dayCount - 7)))
        let newlyBooked = isChanged ? bookedFrom..<bookedFrom + 7 : 0..<0
        var runLeft = 0
        var nights: [CalendarNight] = []
        nights.reserveCapacity(dayCount)
        for offset in 0..<dayCount {
            let day = firstDay.advanced(by: offset)
            if runLeft == 0 {
                booked.toggle()
                let median = booked ? 3.0 : 5.0
                runLeft = random.chance(0.15) ? 14 + Int(random.next() % 60)
                    : max(1, Int((median * -log(max(random.unit(), 1e-9)) / 0.69).rounded()))
            }
            runLeft -= 1
            let isAvailable = (occupancy == 0 ? false : occupancy == 1 ? true : !booked) && !newlyBooked.contains(offset)
            var price = base
            if let dynamic {
                price = dynamic.price(base: base, day: day, offset: offset, random: &priceRandom, currency: currency)
            } else if priceShape >= 1 {
                let (_, month, date) = day.components
                if month == 7 || month == 8 { price = price * 13 / 10 } else if month == 12, date >= 20 { price = price * 12 / 10 }
            }
            let weekday = day.weekdayFromMonday
            if dynamic == nil, priceShape == 2, weekday == 4 || weekday == 5 { price = price * 6 / 5 }
            let minimum = weekendMinimum && (weekday == 4 || weekday == 5) ? max(listing.minimumNights, 2) : listing.minimumNights
            price = price * factor / 100
            nights.append(CalendarNight(day: day, isAvailable: isAvailable, price: Money(minorUnits: price / 100 * 100),
                                        minimumNights: minimum, maximumNights: listing.maximumNights))
        }
        return nights
    }
}
