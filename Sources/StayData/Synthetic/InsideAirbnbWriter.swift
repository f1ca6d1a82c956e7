import StaySearch

#if canImport(Glibc)
import Glibc
#endif

/// Writes listings and calendars as Inside Airbnb CSV files (`listings.csv`, `calendar.csv`), one
/// folder per city, so that other tools can load exactly the data an index was made of.
public enum InsideAirbnbWriter {
    /// The listing columns written: the ones staysearch reads, and a few that real files have too.
    static let listingColumns = [
        "id", "listing_url", "name", "neighbourhood_cleansed", "neighbourhood_group_cleansed", "latitude", "longitude",
        "property_type", "room_type", "accommodates", "price", "minimum_nights", "maximum_nights", "number_of_reviews",
        "review_scores_rating", "host_is_superhost", "bathrooms", "bathrooms_text", "bedrooms", "beds", "amenities",
        "instant_bookable",
    ]

    /// Writes `dataset` under `directory`, one folder per city (named by the city, folded to ASCII).
    /// - Returns: the `CITY=DIR` arguments that load the folders again.
    /// - Throws: ``DataError/cannotWrite(path:reason:)``.
    public static func write(_ dataset: SyntheticDataset, to directory: String) throws(DataError) -> [String] {
        var positionsByCity: [String: [Int]] = [:]
        for (position, listing) in dataset.listings.enumerated() { positionsByCity[listing.region.city, default: []].append(position) }
        try FileDescriptor.makeFolder(directory)
        var arguments: [String] = []
        for city in positionsByCity.keys.sorted() {
            let folder = directory + "/" + TextFolding.fold(city).replacingSpaces
            try FileDescriptor.makeFolder(folder)
            var listings = try BufferedFile(path: folder + "/listings.csv")
            listings.append(listingColumns.joined(separator: ",") + "\n")
            var calendar = try BufferedFile(path: folder + "/calendar.csv")
            calendar.append("listing_id,date,available,price,adjusted_price,minimum_nights,maximum_nights\n")
            for position in positionsByCity[city]! {
                let listing = dataset.listings[position]
                let rating = listing.ratingHundredths.map { "\($0 / 100).\($0 % 100 < 10 ? "0" : "")\($0 % 100)" } ?? ""
                let bathrooms = listing.bathroomHalves.map { "\($0 / 2).\($0 % 2 * 5)" } ?? ""
                var fields: [String] = [String(listing.id), "https://www.airbnb.com/rooms/\(listing.id)", listing.name]
                fields += [listing.region.neighbourhood, listing.region.neighbourhoodGroup, "\(listing.latitude)", "\(listing.longitude)"]
                fields += [listing.propertyType, listing.roomType, String(listing.accommodates), listing.price?.formatted() ?? ""]
                fields += [String(listing.minimumNights), String(listing.maximumNights), String(listing.reviewCount), rating]
                fields += [listing.isSuperhost ? "t" : "f", bathrooms, bathroomsText(listing.bathroomHalves)]
                fields += [listing.bedrooms.map(String.init) ?? "", listing.beds.map(String.init) ?? ""]
                fields += [jsonList(dataset.amenities(ofListingAt: position)), listing.isInstantBookable ? "t" : "f"]
                listings.append(fields.map(csvField).joined(separator: ",") + "\n")
                let id = String(listing.id)
                for night in dataset.calendar(ofListingAt: position) {
                    calendar.append(id)
                    calendar.append(",")
                    calendar.append(night.day.description)
                    calendar.append(night.isAvailable ? ",t," : ",f,")
                    if let price = night.price { calendar.append(csvField(price.formatted())) }
                    calendar.append(",,")
                    if let minimum = night.minimumNights { calendar.append(String(minimum)) }
                    calendar.append(",")
                    if let maximum = night.maximumNights { calendar.append(String(maximum)) }
                    calendar.append("\n")
                    try calendar.flushIfFull()
                }
                try listings.flushIfFull()
            }
            try listings.close()
            try calendar.close()
            arguments.append("\(city)=\(folder)")
        }
        return arguments
    }

    /// `bathrooms_text` as Inside Airbnb writes it: `1 bath`, `1.5 baths`, `Half-bath`.
    static func bathroomsText(_ halves: Int?) -> String {
        guard let halves else { return "" }
        if halves == 1 { return "Half-bath" }
        let number = halves % 2 == 0 ? "\(halves / 2)" : "\(halves / 2).5"
        return halves == 2 ? "1 bath" : "\(number) baths"
    }

    /// A JSON list of strings, non-ASCII letters escaped as `\uXXXX` the way Inside Airbnb writes them.
    static func jsonList(_ strings: [String]) -> String {
        var text = "["
        for (position, string) in strings.enumerated() {
            if position > 0 { text += ", " }
            text += "\""
            for unit in string.utf16 {
                switch unit {
                case 0x22: text += "\\\""
                case 0x5C: text += "\\\\"
                case 0x20..<0x7F: text.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
                default: text += "\\u" + String(repeating: "0", count: 4 - String(unit, radix: 16).count) + String(unit, radix: 16)
                }
            }
            text += "\""
        }
        return text + "]"
    }

    static func csvField(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}

/// A file written through a large buffer.
private struct BufferedFile {
    let file: FileDescriptor
    var buffer: [UInt8] = []

    init(path: String) throws(DataError) {
        file = try FileDescriptor.create(path)
        buffer.reserveCapacity(1 << 22)
    }

    mutating func append(_ text: String) { buffer.append(contentsOf: text.utf8) }

    mutating func flushIfFull() throws(DataError) {
        if buffer.count >= 1 << 22 { try flush() }
    }

    mutating func flush() throws(DataError) {
        try file.writeAll(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    mutating func close() throws(DataError) {
        try flush()
        file.close()
    }
}

extension String {
    var replacingSpaces: String { String(map { $0 == " " || $0 == "/" ? "-" : $0 }) }
}
