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
        "number_of_reviews_ltm", "review_scores_rating", "host_is_superhost", "bathrooms", "bathrooms_text", "bedrooms", "beds", "amenities",
        "instant_bookable",
    ]

    /// Writes `dataset` under `directory`, one folder per city (named by the city, folded to ASCII).
    /// - Parameter gzipLevel: write `listings.csv.gz` and `calendar.csv.gz` at this zlib level (1–9),
    ///   compressed on threads of their own, instead of plain CSV.
    /// - Returns: the `CITY=DIR` arguments that load the folders again.
    /// - Throws: ``DataError/cannotWrite(path:reason:)``.
    public static func write(_ dataset: SyntheticDataset, to directory: String, gzipLevel: Int32? = nil) throws(DataError) -> [String] {
        var positionsByCity: [String: [Int]] = [:]
        for (position, listing) in dataset.listings.enumerated() { positionsByCity[listing.region.city, default: []].append(position) }
        try FileDescriptor.makeFolder(directory)
        var arguments: [String] = []
        for city in positionsByCity.keys.sorted() {
            let folder = directory + "/" + TextFolding.fold(city).replacingSpaces
            try FileDescriptor.makeFolder(folder)
            let suffix = gzipLevel == nil ? ".csv" : ".csv.gz"
            var listings = try BufferedFile(path: folder + "/listings" + suffix, gzipLevel: gzipLevel)
            listings.append(listingColumns.joined(separator: ",") + "\n")
            var calendar = try BufferedFile(path: folder + "/calendar" + suffix, gzipLevel: gzipLevel)
            calendar.append("listing_id,date,available,price,adjusted_price,minimum_nights,maximum_nights\n")
            var dates = DateText()
            for position in positionsByCity[city]! {
                let listing = dataset.listings[position]
                let rating = listing.ratingHundredths.map { "\($0 / 100).\($0 % 100 < 10 ? "0" : "")\($0 % 100)" } ?? ""
                let bathrooms = listing.bathroomHalves.map { "\($0 / 2).\($0 % 2 * 5)" } ?? ""
                var fields: [String] = [String(listing.id), "https://www.airbnb.com/rooms/\(listing.id)", listing.name]
                fields += [listing.region.neighbourhood, listing.region.neighbourhoodGroup, "\(listing.latitude)", "\(listing.longitude)"]
                fields += [listing.propertyType, listing.roomType, String(listing.accommodates), listing.price?.formatted() ?? ""]
                fields += [String(listing.minimumNights), String(listing.maximumNights), String(listing.reviewCount),
                           String(listing.recentReviewCount), rating]
                fields += [listing.isSuperhost ? "t" : "f", bathrooms, bathroomsText(listing.bathroomHalves)]
                fields += [listing.bedrooms.map(String.init) ?? "", listing.beds.map(String.init) ?? ""]
                fields += [jsonList(dataset.amenities(ofListingAt: position)), listing.isInstantBookable ? "t" : "f"]
                listings.append(fields.map(csvField).joined(separator: ",") + "\n")
                // Calendar rows byte by byte: 365 a listing, billions for the largest sets.
                let id = Array(String(listing.id).utf8)
                for night in dataset.calendar(ofListingAt: position) {
                    calendar.buffer.append(contentsOf: id)
                    calendar.buffer.append(UInt8(ascii: ","))
                    dates.append(night.day, to: &calendar.buffer)
                    calendar.buffer.append(contentsOf: night.isAvailable ? Self.availableText : Self.unavailableText)
                    if let price = night.price { appendPriceField(price, to: &calendar.buffer) }
                    calendar.buffer.append(UInt8(ascii: ","))
                    calendar.buffer.append(UInt8(ascii: ","))
                    if let minimum = night.minimumNights { appendDecimal(Int64(minimum), to: &calendar.buffer) }
                    calendar.buffer.append(UInt8(ascii: ","))
                    if let maximum = night.maximumNights { appendDecimal(Int64(maximum), to: &calendar.buffer) }
                    calendar.buffer.append(UInt8(ascii: "\n"))
                }
                try calendar.flushIfFull()
                try listings.flushIfFull()
            }
            try listings.close()
            try calendar.close()
            if dataset.hasFees { try writeFees(of: positionsByCity[city]!.map { dataset.listings[$0] }, to: folder + "/" + FeesFile.name) }
            arguments.append("\(city)=\(folder)")
        }
        return arguments
    }

    /// Writes the fees of `listings` (those that have any) as a `fees.csv` at `path`.
    private static func writeFees(of listings: [ListingRecord], to path: String) throws(DataError) {
        var file = try BufferedFile(path: path, gzipLevel: nil)
        file.append("listing_id,cleaning_fee,guests_included,extra_guest_fee,weekly_discount,monthly_discount\n")
        func percent(_ basisPoints: Int) -> String {
            let hundredths = basisPoints % 100
            return basisPoints == 0 ? "" : "\(basisPoints / 100)" + (hundredths == 0 ? "" : hundredths < 10 ? ".0\(hundredths)" : ".\(hundredths)") + "%"
        }
        for listing in listings {
            guard let fees = listing.fees else { continue }
            let fields = [String(listing.id), fees.cleaningFee?.formatted() ?? "", String(fees.guestsIncluded),
                          fees.extraGuestFee?.formatted() ?? "", percent(fees.weeklyDiscountBasisPoints),
                          percent(fees.monthlyDiscountBasisPoints)]
            file.append(fields.map(csvField).joined(separator: ",") + "\n")
            try file.flushIfFull()
        }
        try file.close()
    }

    private static let availableText = Array(",t,".utf8)
    private static let unavailableText = Array(",f,".utf8)

    /// A price as the `price` field of a calendar row: `$1,234.00`, quoted when it has a comma
    /// (what `csvField(price.formatted())` gives, without making strings).
    package static func appendPriceField(_ price: Money, to bytes: inout [UInt8]) {
        guard price.minorUnits >= 0 else {
            bytes.append(contentsOf: csvField(price.formatted()).utf8)
            return
        }
        let units = price.minorUnits / 100, cents = price.minorUnits % 100
        let quoted = units >= 1000
        if quoted { bytes.append(UInt8(ascii: "\"")) }
        bytes.append(UInt8(ascii: "$"))
        var groups: [Int64] = []
        var rest = units
        repeat {
            groups.append(rest % 1000)
            rest /= 1000
        } while rest > 0
        appendDecimal(groups.last!, to: &bytes)
        for group in groups.dropLast().reversed() {
            bytes.append(UInt8(ascii: ","))
            bytes.append(UInt8(ascii: "0") + UInt8(group / 100))
            bytes.append(UInt8(ascii: "0") + UInt8(group / 10 % 10))
            bytes.append(UInt8(ascii: "0") + UInt8(group % 10))
        }
        bytes.append(UInt8(ascii: "."))
        bytes.append(UInt8(ascii: "0") + UInt8(cents / 10))
        bytes.append(UInt8(ascii: "0") + UInt8(cents % 10))
        if quoted { bytes.append(UInt8(ascii: "\"")) }
    }

    /// `value` in decimal digits.
    package static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
        guard value >= 0 else {
            bytes.append(contentsOf: String(value).utf8)
            return
        }
        if value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { digits in
            while rest > 0 {
                digits[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            for position in stride(from: count - 1, through: 0, by: -1) { bytes.append(digits[position]) }
        }
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

    package static func csvField(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}

/// A file written through a large buffer, plain or gzipped.
private struct BufferedFile {
    private let file: FileDescriptor?
    private let gzip: GzipFileWriter?
    var buffer: [UInt8] = []

    init(path: String, gzipLevel: Int32?) throws(DataError) {
        if let gzipLevel {
            gzip = try GzipFileWriter(path: path, level: gzipLevel)
            file = nil
        } else {
            file = try FileDescriptor.create(path)
            gzip = nil
        }
        buffer.reserveCapacity(1 << 22)
    }

    mutating func append(_ text: String) { buffer.append(contentsOf: text.utf8) }

    mutating func flushIfFull() throws(DataError) {
        if buffer.count >= 1 << 22 { try flush() }
    }

    mutating func flush() throws(DataError) {
        if let gzip {
            // The buffer goes to the compressing thread; a new one is filled meanwhile.
            try gzip.write(buffer)
            buffer = []
            buffer.reserveCapacity(1 << 22 + (1 << 16))
        } else {
            try file!.writeAll(buffer)
            buffer.removeAll(keepingCapacity: true)
        }
    }

    mutating func close() throws(DataError) {
        try flush()
        if let gzip { try gzip.close() } else { file!.close() }
    }
}

/// Calendar dates as text, each made once: a set's calendars all cover the same days.
private struct DateText {
    private var firstDay: Int32 = 0
    private var texts: [[UInt8]] = []

    mutating func append(_ day: Day, to bytes: inout [UInt8]) {
        let offset = Int(day.daysSinceEpoch) - Int(firstDay)
        if offset >= 0, offset < texts.count {
            bytes.append(contentsOf: texts[offset])
            return
        }
        if texts.isEmpty || offset < 0 || offset > 4_000 {
            // A new span (or the first): start it at this day.
            firstDay = day.daysSinceEpoch
            texts = []
        }
        while texts.count <= Int(day.daysSinceEpoch - firstDay) {
            texts.append(Array(Day(daysSinceEpoch: firstDay + Int32(texts.count)).description.utf8))
        }
        bytes.append(contentsOf: texts[Int(day.daysSinceEpoch - firstDay)])
    }
}

extension String {
    var replacingSpaces: String { String(map { $0 == " " || $0 == "/" ? "-" : $0 }) }
}
