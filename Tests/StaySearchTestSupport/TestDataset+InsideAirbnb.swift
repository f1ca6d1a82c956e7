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
                + "accommodates,price,minimum_nights,maximum_nights,number_of_reviews,review_scores_rating\n"
            for listing in cityListings {
                let fields = [
                    String(listing.id), "https://example.invalid/\(listing.id)", listing.name, listing.region.neighbourhood,
                    listing.region.neighbourhoodGroup, "\(listing.latitude)", "\(listing.longitude)", listing.roomType,
                    String(listing.accommodates), listing.price.map(Self.airbnbMoney) ?? "", String(listing.minimumNights),
                    String(listing.maximumNights), String(listing.reviewCount),
                    listing.ratingHundredths.map { "\($0 / 100).\($0 % 100 < 10 ? "0" : "")\($0 % 100)" } ?? "",
                ]
                text += fields.map(Self.csvField).joined(separator: ",") + "\r\n"
            }
            try text.write(toFile: "\(folder)/listings.csv", atomically: true, encoding: .utf8)
            var calendar = "listing_id,date,available,price,adjusted_price,minimum_nights,maximum_nights\n"
            for (id, night) in nights where ids.contains(id) {
                calendar += "\(id),\(night.day),\(night.isAvailable ? "t" : "f"),\(night.price.map { Self.csvField(Self.airbnbMoney($0)) } ?? ""),,"
                    + "\(night.minimumNights.map(String.init) ?? ""),\(night.maximumNights.map(String.init) ?? "")\n"
            }
            try calendar.write(toFile: "\(folder)/calendar.csv", atomically: true, encoding: .utf8)
            arguments.append("\(city)=\(folder)")
        }
        return arguments
    }

    /// `$1,350.00`, as Inside Airbnb writes money.
    static func airbnbMoney(_ money: Money) -> String { money.formatted() }

    static func csvField(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
