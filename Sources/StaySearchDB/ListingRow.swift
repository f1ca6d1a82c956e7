import NIOCore
import PostgresNIO
import StaySearch

/// A listing as a row of the `listings` table (``DatabaseSchema``): its fields and its days.
package enum ListingRow {
    /// The columns, in the order every statement here names them.
    package static let columns = [
        "id", "name", "city", "neighbourhood_group", "neighbourhood", "room_type", "accommodates", "price_minor",
        "minimum_nights", "maximum_nights", "rating_hundredths", "reviews", "latitude", "longitude", "bedrooms", "beds",
        "bathroom_halves", "property_type", "amenities", "instant_bookable", "superhost",
        "night_prices", "night_open", "night_minimum", "night_maximum", "recent_reviews", "fees",
    ]

    /// A listing's fees as the `fees` column keeps them: cleaning fee, guests included, extra-guest fee, weekly
    /// and monthly discounts (basis points) and security deposit (amounts in minor units, −1 for none); NULL
    /// for a listing without fees.
    package static func feeValues(_ fees: ListingFees?) -> [Int64]? {
        guard let fees else { return nil }
        return [fees.cleaningFee?.minorUnits ?? -1, Int64(fees.guestsIncluded), fees.extraGuestFee?.minorUnits ?? -1,
                Int64(fees.weeklyDiscountBasisPoints), Int64(fees.monthlyDiscountBasisPoints), fees.securityDeposit?.minorUnits ?? -1]
    }

    /// The fees of a `fees` column's values (nil for NULL, or values that are not six).
    package static func fees(_ values: [Int64]?) -> ListingFees? {
        guard let values, values.count == 6 else { return nil }
        func amount(_ value: Int64) -> Money? { value < 0 ? nil : Money(minorUnits: value) }
        let fees = ListingFees(cleaningFee: amount(values[0]), guestsIncluded: Int(clamping: max(1, values[1])),
                               extraGuestFee: amount(values[2]), weeklyDiscountBasisPoints: Int(clamping: values[3]),
                               monthlyDiscountBasisPoints: Int(clamping: values[4]), securityDeposit: amount(values[5]))
        return fees.isEmpty ? nil : fees
    }

    /// The columns joined for a SELECT.
    static let columnList = columns.joined(separator: ", ")

    /// The columns joined for a SELECT of the days from offset `first` on (the days' arrays sliced).
    static func columnList(fromDay first: Int) -> String {
        guard first > 0 else { return columnList }
        return columns.map { $0.hasPrefix("night_") ? "\($0)[\(first + 1):]" : $0 }.joined(separator: ", ")
    }

    /// The listing in `row` (selected with ``columnList``), checked against a span of `dayCount` days.
    static func listing(from row: PostgresRow, dayCount: Int) throws -> EditableListing {
        let cells = row.makeRandomAccess()
        func value<T: PostgresDecodable>(_ index: Int, _ type: T.Type) throws -> T { try cells[index].decode(T.self, context: .default) }
        let id = try value(0, Int64.self)
        var record = ListingRecord(
            id: id, name: try value(1, String.self),
            region: RegionPath(city: try value(2, String.self), neighbourhoodGroup: try value(3, String.self), neighbourhood: try value(4, String.self)),
            roomType: try value(5, String.self), accommodates: Int(try value(6, Int32.self)),
            price: try value(7, Int64?.self).map { Money(minorUnits: $0) },
            minimumNights: try value(8, Int32.self), maximumNights: try value(9, Int32.self),
            ratingHundredths: try value(10, Int32?.self), reviewCount: try value(11, Int32.self),
            latitude: try value(12, Double.self), longitude: try value(13, Double.self),
            bedrooms: try value(14, Int32?.self).map(Int.init), beds: try value(15, Int32?.self).map(Int.init),
            bathroomHalves: try value(16, Int32?.self).map(Int.init), propertyType: try value(17, String.self),
            amenities: try value(18, [String].self), isInstantBookable: try value(19, Bool.self), isSuperhost: try value(20, Bool.self))
        record.recentReviewCount = try value(25, Int32.self)
        record.fees = fees(try value(26, [Int64]?.self))
        // The days' arrays read straight from PostgreSQL's binary array format (the generic decoder costs a
        // call per element: most of a snapshot's time).
        func int32s(_ index: Int) throws -> [Int32] {
            if cells[index].format == .binary, let values = binaryArray(cells[index].bytes, width: 4) {
                return values.map { Int32(truncatingIfNeeded: $0) }
            }
            return try value(index, [Int32].self)
        }
        // Prices are 64-bit (`bigint[]`); a database made before wide prices has 32-bit ones until it is migrated.
        func int64s(_ index: Int) throws -> [Int64] {
            if cells[index].format == .binary, let values = binaryArray(cells[index].bytes, width: 8) {
                return values.map { Int64(bitPattern: $0) }
            }
            if cells[index].format == .binary, let values = binaryArray(cells[index].bytes, width: 4) {
                return values.map { Int64(Int32(truncatingIfNeeded: $0)) }
            }
            return try value(index, [Int64].self)
        }
        let prices = try int64s(21), minimum = try int32s(23), maximum = try int32s(24)
        let open: [Bool]
        if cells[22].format == .binary, let values = binaryArray(cells[22].bytes, width: 1) {
            open = values.map { $0 != 0 }
        } else {
            open = try value(22, [Bool].self)
        }
        // A listing's arrays may be shorter than the calendar (a window that rolled on since they were written):
        // its later days have no calendar row.
        guard prices.count <= dayCount, open.count <= dayCount, minimum.count <= dayCount, maximum.count <= dayCount,
              minimum.count == maximum.count else {
            throw DatabaseError.notReady("listing \(id) has \(prices.count) days in the database, the calendar \(dayCount)")
        }
        let own = StayRule(minimumNights: record.minimumNights, maximumNights: record.maximumNights).packed
        let rules = zip(minimum, maximum).map { StayRule(minimumNights: $0, maximumNights: $1).packed }
            + repeatElement(own, count: dayCount - minimum.count)
        return EditableListing(record: record, prices: prices + repeatElement(Int64(ListingIndex.noCalendarRow), count: dayCount - prices.count),
                               bookable: open + repeatElement(false, count: dayCount - open.count), rules: rules)
    }

    /// The elements of a one-dimensional array without nulls in PostgreSQL's binary format, each `width`
    /// bytes (big-endian, read as an unsigned integer); nil for anything else (then the generic decoder reads it).
    private static func binaryArray(_ buffer: ByteBuffer?, width: Int) -> [UInt64]? {
        guard var buffer else { return nil }
        guard let dimensions = buffer.readInteger(as: Int32.self), let hasNulls = buffer.readInteger(as: Int32.self),
              buffer.readInteger(as: UInt32.self) != nil, hasNulls == 0 else { return nil }
        if dimensions == 0 { return [] }
        guard dimensions == 1, let count = buffer.readInteger(as: Int32.self), count >= 0, buffer.readInteger(as: Int32.self) != nil,
              buffer.readableBytes == Int(count) * (4 + width) else { return nil }
        return buffer.withUnsafeReadableBytes { raw -> [UInt64]? in
            var values = [UInt64](repeating: 0, count: Int(count))
            var offset = 0
            for index in 0..<Int(count) {
                guard UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) == width else { return nil }
                offset += 4
                switch width {
                case 8: values[index] = UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                case 4: values[index] = UInt64(UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                default: values[index] = UInt64(raw[offset])
                }
                offset += width
            }
            return values
        }
    }

    /// The statement that adds `listing`, from a scrape (`db refresh`) or not (a `listing` change).
    static func insert(_ listing: EditableListing, scraped: Bool = false) -> PostgresQuery {
        let r = listing.record
        let (minimum, maximum) = rules(of: listing)
        return """
            INSERT INTO listings (\(unescaped: columnList), scraped) VALUES (\(r.id), \(r.name), \(r.region.city), \
            \(r.region.neighbourhoodGroup), \(r.region.neighbourhood), \(r.roomType), \(Int32(clamping: r.accommodates)), \
            \(r.price?.minorUnits), \(r.minimumNights), \(r.maximumNights), \(r.ratingHundredths), \(r.reviewCount), \
            \(r.latitude), \(r.longitude), \(r.bedrooms.map { Int32(clamping: $0) }), \(r.beds.map { Int32(clamping: $0) }), \
            \(r.bathroomHalves.map { Int32(clamping: $0) }), \(r.propertyType), \(r.amenities), \(r.isInstantBookable), \
            \(r.isSuperhost), \(listing.prices), \(listing.bookable), \(minimum), \(maximum), \(r.recentReviewCount), \
            \(feeValues(r.fees)), \(scraped))
            """
    }

    /// The statement that sets the columns of a listing that differ between `before` and `after` (a booking
    /// writes `night_open` alone; unchanged arrays keep their stored, compressed values), or nil when none do.
    static func update(from before: EditableListing, to after: EditableListing) -> PostgresQuery? {
        let id = after.record.id
        guard before.record == after.record else { return update(after) }
        let (oldMinimum, oldMaximum) = rules(of: before)
        let (minimum, maximum) = rules(of: after)
        switch (before.prices == after.prices, before.bookable == after.bookable, oldMinimum == minimum && oldMaximum == maximum) {
        case (true, true, true): return nil
        case (true, false, true): return "UPDATE listings SET night_open = \(after.bookable) WHERE id = \(id)"
        case (false, _, true):
            return "UPDATE listings SET night_prices = \(after.prices), night_open = \(after.bookable) WHERE id = \(id)"
        case (true, true, false):
            return "UPDATE listings SET night_minimum = \(minimum), night_maximum = \(maximum) WHERE id = \(id)"
        default: return update(after)
        }
    }

    /// The statement that sets every column of listing `listing.record.id`.
    static func update(_ listing: EditableListing) -> PostgresQuery {
        let r = listing.record
        let (minimum, maximum) = rules(of: listing)
        return """
            UPDATE listings SET name = \(r.name), city = \(r.region.city), neighbourhood_group = \(r.region.neighbourhoodGroup), \
            neighbourhood = \(r.region.neighbourhood), room_type = \(r.roomType), accommodates = \(Int32(clamping: r.accommodates)), \
            price_minor = \(r.price?.minorUnits), minimum_nights = \(r.minimumNights), maximum_nights = \(r.maximumNights), \
            rating_hundredths = \(r.ratingHundredths), reviews = \(r.reviewCount), latitude = \(r.latitude), \
            longitude = \(r.longitude), bedrooms = \(r.bedrooms.map { Int32(clamping: $0) }), beds = \(r.beds.map { Int32(clamping: $0) }), \
            bathroom_halves = \(r.bathroomHalves.map { Int32(clamping: $0) }), property_type = \(r.propertyType), \
            amenities = \(r.amenities), instant_bookable = \(r.isInstantBookable), superhost = \(r.isSuperhost), \
            night_prices = \(listing.prices), night_open = \(listing.bookable), night_minimum = \(minimum), \
            night_maximum = \(maximum), recent_reviews = \(r.recentReviewCount), fees = \(feeValues(r.fees)) WHERE id = \(r.id)
            """
    }

    /// `listing` as one line of `COPY listings FROM STDIN` in text format, appended to `line`.
    package static func appendCopyLine(_ listing: EditableListing, to line: inout [UInt8]) {
        let r = listing.record
        var first = true
        func separate() {
            if !first { line.append(0x09) }
            first = false
        }
        func text(_ value: String) {
            separate()
            appendEscaped(value, to: &line)
        }
        func number<T: BinaryInteger>(_ value: T?) {
            separate()
            if let value { line.append(contentsOf: String(value).utf8) } else { line.append(contentsOf: "\\N".utf8) }
        }
        func real(_ value: Double) {
            separate()
            line.append(contentsOf: value.description.utf8)
        }
        func flag(_ value: Bool) {
            separate()
            line.append(value ? UInt8(ascii: "t") : UInt8(ascii: "f"))
        }
        func array<S: Sequence>(_ values: S, _ element: (S.Element) -> String) {
            separate()
            line.append(UInt8(ascii: "{"))
            var firstElement = true
            for value in values {
                if !firstElement { line.append(UInt8(ascii: ",")) }
                firstElement = false
                line.append(contentsOf: element(value).utf8)
            }
            line.append(UInt8(ascii: "}"))
        }
        number(r.id)
        text(r.name)
        text(r.region.city)
        text(r.region.neighbourhoodGroup)
        text(r.region.neighbourhood)
        text(r.roomType)
        number(Int32(clamping: r.accommodates))
        number(r.price?.minorUnits)
        number(r.minimumNights)
        number(r.maximumNights)
        number(r.ratingHundredths)
        number(r.reviewCount)
        real(r.latitude)
        real(r.longitude)
        number(r.bedrooms)
        number(r.beds)
        number(r.bathroomHalves)
        text(r.propertyType)
        // An array literal's elements quoted (backslash and quote escaped), then the whole field escaped for COPY.
        separate()
        var literal = "{"
        for (position, name) in r.amenities.enumerated() {
            if position > 0 { literal += "," }
            literal += "\"" + name.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") + "\""
        }
        appendEscaped(literal + "}", to: &line)
        flag(r.isInstantBookable)
        flag(r.isSuperhost)
        array(listing.prices) { String($0) }
        array(listing.bookable) { $0 ? "t" : "f" }
        array(listing.rules) { String(StayRule(packed: $0).minimumNights) }
        array(listing.rules) { String(StayRule(packed: $0).maximumNights) }
        number(r.recentReviewCount)
        if let fees = feeValues(r.fees) {
            array(fees) { String($0) }
        } else {
            number(Int64?.none)
        }
        line.append(0x0A)
    }

    /// The stay rules as the two arrays the table keeps.
    private static func rules(of listing: EditableListing) -> ([Int32], [Int32]) {
        (listing.rules.map { Int32(StayRule(packed: $0).minimumNights) }, listing.rules.map { Int32(StayRule(packed: $0).maximumNights) })
    }

    /// `text` escaped for COPY's text format: backslash, tab, newline and carriage return.
    private static func appendEscaped(_ text: String, to line: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): line.append(contentsOf: [0x5C, 0x5C])
            case 0x09: line.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x0A: line.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: line.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            default: line.append(byte)
            }
        }
    }
}

extension String {
    /// This string with every `target` replaced by `replacement` (no Foundation).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard contains(target) else { return self }
        return split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
