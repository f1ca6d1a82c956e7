import StaySearch

/// The listing details of generated listings (bedrooms, beds, bathrooms, property type, amenities,
/// instant book, superhost), calibrated on the Antwerp and Albany samples and drawn from a random stream
/// of their own, so that everything else about a listing is the same as without them.
///
/// Calibration: amenities held per mille of listings as in the samples (Smoke alarm 930, Wifi 918, …),
/// plus a long tail of brand and speed variants (the samples have ~1,400 distinct strings, half of them on
/// one listing); property types by room type; 2 % of bedrooms, 13 % of beds and bathrooms unknown; 39 %
/// instant bookable, 26 % superhosts; reviews in the last twelve months a share of all reviews.
enum SyntheticDetails {
    /// Fills the details of `listing` but its amenities (see ``amenities(random:)``) from `random`.
    static func fill(_ listing: inout ListingRecord, random: inout SplitMix64) {
        let guests = listing.accommodates
        let isEntire = listing.roomType == "Entire home/apt"
        let bedrooms = isEntire ? max(0, min(8, guests / 2 + Int(random.next() % 3) - 1)) : 1
        listing.bedrooms = random.chance(0.02) ? nil : bedrooms
        listing.beds = random.chance(0.13) ? nil : max(1, min(12, (guests + 1) / 2 + Int(random.next() % 2)))
        listing.bathroomHalves = random.chance(0.13) ? nil
            : [1, 2, 2, 2, 2, 3, 3, 4, 5, 6][Int(random.next() % 10)] + (isEntire && guests > 6 ? 2 : 0)
        let types = propertyTypes[listing.roomType] ?? propertyTypes["Hotel room"]!
        listing.propertyType = types[random.pick(weights: types.indices.map { 1 / Double($0 + 1) })]
        listing.isInstantBookable = random.chance(0.39)
        listing.isSuperhost = random.chance(0.26)
        // Reviews in the last twelve months: the samples' share of all reviews is 0 for a quarter of
        // reviewed listings, about half at the median, all of them for the newest quarter.
        let share = [0, 0, 15, 30, 46, 60, 80, 100, 100, 100][Int(random.next() % 10)]
        listing.recentReviewCount = Int32(Int64(listing.reviewCount) * Int64(share) / 100)
    }

    /// The amenities of a listing, from a random stream of their own (the strings are shared, not made
    /// per listing).
    static func amenities(random: inout SplitMix64) -> [String] {
        var amenities: [String] = []
        for (name, perMille) in common where random.next() % 1000 < perMille { amenities.append(name) }
        for _ in 0..<Int(random.next() % 7) { amenities.append(variants[Int(random.next() % UInt64(variants.count))]) }
        if random.chance(0.1) { amenities.append(fastWifi[Int(random.next() % UInt64(fastWifi.count))]) }
        return amenities
    }

    /// Brand variants such as `Samsung refrigerator` (1,000 of them), made once.
    private static let variants = brands.flatMap { brand in items.map { "\(brand) \($0)" } }
    private static let fastWifi = [50, 100, 200, 300, 500, 1000].map { "Fast wifi – \($0) Mbps" }

    private static let propertyTypes: [String: [String]] = [
        "Entire home/apt": ["Entire rental unit", "Entire condo", "Entire home", "Entire loft", "Entire townhouse",
                            "Entire serviced apartment", "Entire guesthouse", "Entire guest suite", "Entire villa", "Tiny home"],
        "Private room": ["Private room in home", "Private room in rental unit", "Private room in townhouse",
                         "Private room in guesthouse", "Private room in bed and breakfast", "Private room in condo",
                         "Room in hotel", "Private room"],
        "Hotel room": ["Room in aparthotel", "Room in boutique hotel", "Room in hotel"],
        "Shared room": ["Shared room in rental unit", "Shared room in condo", "Shared room in hostel", "Shared room in guesthouse"],
    ]

    /// The samples' most common amenities and how many listings in a thousand have each.
    private static let common: [(String, UInt64)] = [
        ("Smoke alarm", 930), ("Wifi", 918), ("Kitchen", 910), ("Hot water", 802), ("Dishes and silverware", 768),
        ("Essentials", 758), ("Hangers", 728), ("Refrigerator", 723), ("Cooking basics", 717), ("Bed linens", 712),
        ("Fire extinguisher", 702), ("Hair dryer", 700), ("Dedicated workspace", 626), ("Shampoo", 582), ("Microwave", 571),
        ("Heating", 559), ("First aid kit", 559), ("Carbon monoxide alarm", 528), ("Dining table", 526), ("Iron", 522),
        ("Hot water kettle", 516), ("Cleaning products", 511), ("Wine glasses", 491), ("Oven", 481), ("Self check-in", 471),
        ("TV", 457), ("Long term stays allowed", 451), ("Freezer", 446), ("Shower gel", 433), ("Coffee", 433),
        ("Extra pillows and blankets", 427), ("Body soap", 412), ("Dishwasher", 389), ("Coffee maker", 386),
        ("Private entrance", 384), ("Washer", 351), ("Stove", 345), ("Room-darkening shades", 345), ("Laundromat nearby", 340),
        ("Lockbox", 277), ("Central heating", 276), ("Luggage dropoff allowed", 276), ("Baking sheet", 275),
        ("Host greets you", 246), ("Toaster", 245), ("Clothing storage", 235), ("Bathtub", 235), ("Conditioner", 228),
        ("Outdoor dining area", 218), ("Exterior security cameras on property", 218), ("Drying rack for clothing", 210),
        ("Elevator", 197), ("Books and reading material", 197), ("Private patio or balcony", 194), ("Outdoor furniture", 184),
        ("Mini fridge", 181), ("Free parking on premises", 169), ("Pets allowed", 162), ("Air conditioning", 161), ("Dryer", 153),
        ("Free street parking", 150), ("Crib", 90), ("Gym", 45), ("Pool", 30), ("Hot tub", 20), ("EV charger", 15),
    ]
    private static let brands = ["Samsung", "Bosch", "Siemens", "Miele", "LG", "Philips", "Nespresso", "Smeg", "AEG",
                                 "Whirlpool", "Dolce Gusto", "Senseo", "Liebherr", "Beko", "Electrolux", "Sony", "Rituals",
                                 "Dove", "L'Occitane", "Sonos", "Bose", "Marshall", "IKEA", "Zanussi", "Indesit"]
    private static let items = ["refrigerator", "oven", "stainless steel oven", "induction stove", "gas stove", "coffee machine",
                                "espresso machine", "sound system", "Bluetooth sound system", "shampoo", "body soap",
                                "conditioner", "dishwasher", "washer", "dryer", "microwave", "TV with Netflix",
                                "55 inch HDTV with Netflix", "toaster", "kettle", "hair dryer", "mini fridge", "freezer",
                                "electric stove", "convection oven", "wine cooler", "air fryer", "blender", "rice cooker",
                                "bread maker", "waffle iron", "stereo", "radio", "record player", "game console", "iron",
                                "fan", "portable heater", "heated towel rack", "dehumidifier"]
}
