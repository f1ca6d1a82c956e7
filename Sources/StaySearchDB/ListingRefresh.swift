import Foundation
import StaySearch

/// One listing made as a new scrape says (`db refresh`), as one change-log entry: its fields when they
/// changed, and its days from the first that changed to the last. A replica applies an entry as the
/// changes it stands for (``changes``: a `listing` change and a `days` change), in one group under its
/// index's write lock, so that no search sees the listing half refreshed; the database decides its new row with the same changes and the
/// engine's own code (``ListingChangeOutcome``), so that both reach the same listing.
///
/// Its line: `{"refresh":ID,"fields":{…},"from":"YYYY-MM-DD","prices":[…],"open":"0110…","minimum":[…],"maximum":[…]}`
/// — prices as stored (minor units; −1 no price; −2 a day the scrape has no calendar row for, left as it
/// is), `open` one digit a day.
package struct ListingRefresh: Codable, Equatable {
    /// The listing's id.
    var refresh: Int64
    /// Every field of the listing, when one changed or the listing is new.
    var fields: Fields?
    /// The first day of `prices`, `open`, `minimum` and `maximum` (ISO), when days changed.
    var from: String?
    var prices: [Int64]?
    var open: String?
    var minimum: [Int32]?
    var maximum: [Int32]?

    /// A listing's fields as an entry carries them.
    struct Fields: Codable, Equatable {
        var name: String
        var city: String
        var neighbourhood_group: String
        var neighbourhood: String
        var room_type: String
        var accommodates: Int
        var price: Int64?
        var minimum_nights: Int32
        var maximum_nights: Int32
        var rating: Int32?
        var reviews: Int32
        var recent_reviews: Int32
        var latitude: Double
        var longitude: Double
        var bedrooms: Int?
        var beds: Int?
        var bathroom_halves: Int?
        var property_type: String
        var amenities: [String]
        var instant_bookable: Bool
        var superhost: Bool
        /// The fees as the `fees` column keeps them (absent: none).
        var fees: [Int64]?

        init(_ r: ListingRecord) {
            name = r.name
            city = r.region.city
            neighbourhood_group = r.region.neighbourhoodGroup
            neighbourhood = r.region.neighbourhood
            room_type = r.roomType
            accommodates = r.accommodates
            price = r.price?.minorUnits
            minimum_nights = r.minimumNights
            maximum_nights = r.maximumNights
            rating = r.ratingHundredths
            reviews = r.reviewCount
            recent_reviews = r.recentReviewCount
            latitude = r.latitude
            longitude = r.longitude
            bedrooms = r.bedrooms
            beds = r.beds
            bathroom_halves = r.bathroomHalves
            property_type = r.propertyType
            amenities = r.amenities
            instant_bookable = r.isInstantBookable
            superhost = r.isSuperhost
            fees = ListingRow.feeValues(r.fees)
        }

        /// The `listing` change that sets every field (clearing those unknown).
        func change(id: Int64) -> ListingChange {
            var change = ListingChange(id: id)
            change.name = name
            change.city = city
            change.neighbourhoodGroup = neighbourhood_group
            change.neighbourhood = neighbourhood
            change.roomType = room_type
            change.accommodates = accommodates
            change.price = .some(price.map { Money(minorUnits: $0) })
            change.minimumNights = minimum_nights
            change.maximumNights = maximum_nights
            change.ratingHundredths = .some(rating)
            change.reviewCount = reviews
            change.recentReviewCount = recent_reviews
            change.latitude = latitude
            change.longitude = longitude
            change.bedrooms = .some(bedrooms)
            change.beds = .some(beds)
            change.bathroomHalves = .some(bathroom_halves)
            change.propertyType = property_type
            change.amenities = amenities
            change.isInstantBookable = instant_bookable
            change.isSuperhost = superhost
            change.setFees(ListingRow.fees(fees))
            return change
        }
    }

    /// The entry that takes `current` (nil: a new listing) to `target` over the calendar from `firstDay`,
    /// comparing the days from offset `fromDay` on; nil when nothing differs.
    package static func entry(from current: EditableListing?, to target: EditableListing, firstDay: Day, fromDay: Int) -> ListingRefresh? {
        var entry = ListingRefresh(refresh: target.record.id)
        if current?.record != target.record { entry.fields = Fields(target.record) }
        let count = target.prices.count
        func differs(_ day: Int) -> Bool {
            guard let current else { return target.prices[day] != ListingIndex.noCalendarRow }
            return current.prices[day] != target.prices[day] || current.bookable[day] != target.bookable[day]
                || (target.prices[day] != ListingIndex.noCalendarRow && current.rules[day] != target.rules[day])
        }
        let days = max(0, fromDay)..<count
        if let first = days.first(where: differs), let last = days.last(where: differs) {
            let span = first...last
            entry.from = firstDay.advanced(by: first).description
            entry.prices = Array(target.prices[span])
            entry.open = String(target.bookable[span].map { $0 ? "1" : "0" })
            entry.minimum = target.rules[span].map { Int32(StayRule(packed: $0).minimumNights) }
            entry.maximum = target.rules[span].map { Int32(StayRule(packed: $0).maximumNights) }
        }
        return entry.fields == nil && entry.from == nil ? nil : entry
    }

    /// The changes this entry stands for, in order: the fields (a `listing` change), then the days (one
    /// `days` change; the days the scrape has no row for marked to be left as they are).
    package var changes: [CalendarChange] {
        var changes: [CalendarChange] = []
        if let fields { changes.append(.listing(fields.change(id: refresh))) }
        guard let from = from.flatMap(Day.init(iso:)), let prices, let open, let minimum, let maximum,
              open.utf8.count == prices.count, minimum.count == prices.count, maximum.count == prices.count else { return changes }
        let rules = zip(minimum, maximum).map { StayRule(minimumNights: $0, maximumNights: $1).packed }
        changes.append(.days(ListingDays(id: refresh, from: from, prices: prices, open: open.utf8.map { $0 == UInt8(ascii: "1") }, rules: rules)))
        return changes
    }

    /// The entry's line.
    package var line: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // (An entry always encodes: its values are strings, integers and finite coordinates.)
        let data = (try? encoder.encode(self)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// The entry in a change-log line, when it is one (no client can write one: a change line has an `op`).
    package init?(line: String) {
        guard line.hasPrefix("{\"fields\":") || line.hasPrefix("{\"from\":") || line.hasPrefix("{\"refresh\":"),
              let entry = try? JSONDecoder().decode(ListingRefresh.self, from: Data(line.utf8)) else { return nil }
        self = entry
    }

    init(refresh: Int64) { self.refresh = refresh }
}
