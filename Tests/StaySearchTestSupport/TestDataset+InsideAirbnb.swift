import Foundation
import StaySearch

extension TestDataset {
    /// Writes the data set as Inside Airbnb folders, one per city, under `directory`.
    /// - Returns: `CITY=DIR` arguments for `--data`.
    public func writeInsideAirbnb(to directory: String) throws -> [String] {
        var arguments: [String] = []
        let cities = Array(Set(listings.map(\.region.city))).sorted()
        for (number, city) in cities.enumerated() {
            let folder = "\(directory)/city\(number)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let cityListings = listings.filter { $0.region.city == city }
            let ids = Set(cityListings.map(\.id))
            var text = "id,listing_url,name,neighbourhood_cleansed,neighbourhood_group_cleansed,latitude,longitude,room_type,"
                + "accommodates,price,minimum_nights,maximum_nights,number_of_reviews,number_of_reviews_ltm,review_scores_rating,"
                + "property_type,bathrooms,bathrooms_text,bedrooms,beds,amenities,instant_bookable,host_is_superhost\n"
            for listing in cityListings {
                let fields = [
                    String(listing.id), "https://example.invalid/\(listing.id)", listing.name, listing.region.neighbourhood,
                    listing.region.neighbourhoodGroup, "\(listing.latitude)", "\(listing.longitude)", listing.roomType,
                    String(listing.accommodates), listing.price.map(Self.airbnbMoney) ?? "", String(listing.minimumNights),
                    String(listing.maximumNights), String(listing.reviewCount), String(listing.recentReviewCount),
                    listing.ratingHundredths.map { "\($0 / 100).\($0 % 100 < 10 ? "0" : "")\($0 % 100)" } ?? "",
                ] + Self.detailFields(listing)
                text += fields.map(Self.csvField).joined(separator: ",") + "\r\n"
            }
            try text.write(toFile: "\(folder)/listings.csv", atomically: true, encoding: .utf8)
            var calendar = "listing_id,date,available,price,adjusted_price,minimum_nights,maximum_nights\n"
            for (id, night) in nights where ids.contains(id) {
                calendar += "\(id),\(night.day),\(night.isAvailable ? "t" : "f"),\(night.price.map { Self.csvField(Self.airbnbMoney($0)) } ?? ""),,"
                    + "\(night.minimumNights.map(String.init) ?? ""),\(night.maximumNights.map(String.init) ?? "")\n"
            }
            try calendar.write(toFile: "\(folder)/calendar.csv", atomically: true, encoding: .utf8)
            // Fees (a listing change may set them) in a fees.csv beside the listings.
            let withFees = cityListings.compactMap { listing in listing.fees.map { (listing.id, $0) } }
            if !withFees.isEmpty {
                var fees = "listing_id,cleaning_fee,guests_included,extra_guest_fee,weekly_discount,monthly_discount\n"
                for (id, fee) in withFees {
                    fees += [String(id), fee.cleaningFee.map(Self.airbnbMoney) ?? "", String(fee.guestsIncluded),
                             fee.extraGuestFee.map(Self.airbnbMoney) ?? "", PlatformFees.percentText(fee.weeklyDiscountBasisPoints) + "%",
                             PlatformFees.percentText(fee.monthlyDiscountBasisPoints) + "%"].map(Self.csvField).joined(separator: ",") + "\n"
                }
                try fees.write(toFile: "\(folder)/fees.csv", atomically: true, encoding: .utf8)
            }
            arguments.append("\(city)=\(folder)")
        }
        return arguments
    }

    /// The detail columns, bathrooms in the forms real files use: a number in `bathrooms`, or only text
    /// (`1.5 shared baths`, `Shared half-bath`); amenities as a JSON list with `\u` escapes.
    static func detailFields(_ listing: ListingRecord) -> [String] {
        var bathrooms = "", text = ""
        if let halves = listing.bathroomHalves {
            let number = halves % 2 == 0 ? "\(halves / 2)" : "\(halves / 2).5"
            switch listing.id % 3 {
            case 0: bathrooms = halves % 2 == 0 ? "\(halves / 2).0" : number
            case 1: text = halves == 1 ? "Shared half-bath" : "\(number) shared baths"
            default: text = halves == 1 ? "Half-bath" : "\(number) baths"
            }
        }
        let amenities = "[" + listing.amenities.map { name in
            "\"" + name.unicodeScalars.map { scalar in
                scalar == "\"" ? "\\\"" : scalar.isASCII ? String(scalar) : String(format: "\\u%04x", scalar.value)
            }.joined() + "\""
        }.joined(separator: ", ") + "]"
        return [listing.propertyType, bathrooms, text, listing.bedrooms.map(String.init) ?? "", listing.beds.map(String.init) ?? "",
                amenities, listing.isInstantBookable ? "t" : "f", listing.isSuperhost ? "t" : ""]
    }

    /// The same data set with its listings in the order ``writeInsideAirbnb(to:)`` writes them (cities by
    /// name), which is the order a load reads them: facet names show as first spelled in that order.
    public var inFileOrder: TestDataset {
        let cities = Array(Set(listings.map(\.region.city))).sorted()
        return TestDataset(listings: cities.flatMap { city in listings.filter { $0.region.city == city } }, nights: nights)
    }

    /// `$1,350.00`, as Inside Airbnb writes money.
    static func airbnbMoney(_ money: Money) -> String { money.formatted() }

    static func csvField(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
