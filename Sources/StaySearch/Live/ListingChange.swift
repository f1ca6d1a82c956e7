/// A `listing` change (docs/query-semantics.md, "Live changes"): the fields it sets on a listing, or, for an id the index does
/// not have, the new listing. A field left `nil` keeps its value; the fields that may be unknown take an
/// inner `nil` to clear them (`price: .some(nil)` removes the listing's own price).
///
/// The calendar does not follow the listing's fields: nights keep their prices and stay rules (change them
/// with `price` and `rules`). Only nights without any price (the listing had none) take a new listing
/// price, closed until an `availability` or `cancel` opens them; days without a calendar row take the
/// listing's own stay rules when a `price` gives them one.
public struct ListingChange: Sendable, Equatable {
    public var id: Int64
    public var name: String?
    /// The region: a part left `nil` keeps its value (a new listing needs a city and a neighbourhood).
    public var city: String?
    public var neighbourhoodGroup: String?
    public var neighbourhood: String?
    public var roomType: String?
    public var accommodates: Int?
    public var price: Money??
    public var minimumNights: Int32?
    public var maximumNights: Int32?
    public var ratingHundredths: Int32??
    public var reviewCount: Int32?
    public var recentReviewCount: Int32?
    public var latitude: Double?
    public var longitude: Double?
    public var bedrooms: Int??
    public var beds: Int??
    public var bathroomHalves: Int??
    public var propertyType: String?
    public var amenities: [String]?
    public var isInstantBookable: Bool?
    public var isSuperhost: Bool?
    /// The listing's fees (``ListingFees``), part by part: an amount's inner `nil` removes it; a listing left
    /// with no fee has none.
    public var cleaningFee: Money??
    public var guestsIncluded: Int?
    public var extraGuestFee: Money??
    public var weeklyDiscountBasisPoints: Int?
    public var monthlyDiscountBasisPoints: Int?
    public var securityDeposit: Money??

    /// A change of listing `id` that sets nothing yet.
    public init(id: Int64) { self.id = id }

    /// `record` with this change's fields set.
    public func applied(to record: ListingRecord) -> ListingRecord {
        var record = record
        if let name { record.name = name }
        if let city { record.region.city = city }
        if let neighbourhoodGroup { record.region.neighbourhoodGroup = neighbourhoodGroup }
        if let neighbourhood { record.region.neighbourhood = neighbourhood }
        if let roomType { record.roomType = roomType }
        if let accommodates { record.accommodates = accommodates }
        if let price { record.price = price }
        if let minimumNights { record.minimumNights = minimumNights }
        if let maximumNights { record.maximumNights = maximumNights }
        if let ratingHundredths { record.ratingHundredths = ratingHundredths }
        if let reviewCount { record.reviewCount = reviewCount }
        if let recentReviewCount { record.recentReviewCount = recentReviewCount }
        if let latitude { record.latitude = latitude }
        if let longitude { record.longitude = longitude }
        if let bedrooms { record.bedrooms = bedrooms }
        if let beds { record.beds = beds }
        if let bathroomHalves { record.bathroomHalves = bathroomHalves }
        if let propertyType { record.propertyType = propertyType }
        if let amenities { record.amenities = amenities }
        if let isInstantBookable { record.isInstantBookable = isInstantBookable }
        if let isSuperhost { record.isSuperhost = isSuperhost }
        if setsFees {
            var fees = record.fees ?? ListingFees()
            if let cleaningFee { fees.cleaningFee = cleaningFee }
            if let guestsIncluded { fees.guestsIncluded = guestsIncluded }
            if let extraGuestFee { fees.extraGuestFee = extraGuestFee }
            if let weeklyDiscountBasisPoints { fees.weeklyDiscountBasisPoints = weeklyDiscountBasisPoints }
            if let monthlyDiscountBasisPoints { fees.monthlyDiscountBasisPoints = monthlyDiscountBasisPoints }
            if let securityDeposit { fees.securityDeposit = securityDeposit }
            record.fees = fees.isEmpty ? nil : fees
        }
        return record
    }

    /// Whether the change sets any part of the listing's fees.
    public var setsFees: Bool {
        cleaningFee != nil || guestsIncluded != nil || extraGuestFee != nil || weeklyDiscountBasisPoints != nil
            || monthlyDiscountBasisPoints != nil || securityDeposit != nil
    }

    /// Sets every part of the listing's fees to `fees`'s (none for nil).
    public mutating func setFees(_ fees: ListingFees?) {
        cleaningFee = .some(fees?.cleaningFee)
        guestsIncluded = fees?.guestsIncluded ?? 1
        extraGuestFee = .some(fees?.extraGuestFee)
        weeklyDiscountBasisPoints = fees?.weeklyDiscountBasisPoints ?? 0
        monthlyDiscountBasisPoints = fees?.monthlyDiscountBasisPoints ?? 0
        securityDeposit = .some(fees?.securityDeposit)
    }

    /// The listing this change adds, when its id is new.
    /// - Throws: ``ChangeError/newListingIncomplete(id:missing:)`` when a field a listing needs is not given.
    public func newListing() throws(ChangeError) -> ListingRecord {
        var missing: [String] = []
        if name == nil { missing.append("name") }
        if city?.isEmpty ?? true { missing.append("city") }
        if neighbourhood?.isEmpty ?? true { missing.append("neighbourhood") }
        if roomType?.isEmpty ?? true { missing.append("room_type") }
        if accommodates == nil { missing.append("accommodates") }
        guard missing.isEmpty else { throw .newListingIncomplete(id: id, missing: missing) }
        let empty = ListingRecord(id: id, name: "", region: RegionPath(city: "", neighbourhood: ""), roomType: "",
                                  accommodates: 0, price: nil)
        return applied(to: empty)
    }

    /// Why the fields cannot be set, if they cannot: a stay rule below one night or a maximum below the
    /// minimum (with `record`'s values for those not given), an accommodates out of 0–10,000.
    public func problem(with record: ListingRecord?) -> ChangeError? {
        let minimum = minimumNights ?? record?.minimumNights ?? 1
        let maximum = maximumNights ?? record?.maximumNights ?? Int32.max
        if minimum < 1 || maximum < minimum { return .invalidStayRule(minimum: minimum, maximum: maximum) }
        if let accommodates, accommodates < 0 || accommodates > 10_000 { return .invalidField("accommodates must be from 0 to 10000") }
        if case let price?? = price, price.minorUnits < 0 || price > IndexBuilder.largestPrice {
            return .invalidField("price must be from 0 to \(IndexBuilder.largestPrice.decimalText)")
        }
        for (name, amount, largest) in [("cleaning_fee", cleaningFee, ListingFees.largestAmount),
                                        ("extra_guest_fee", extraGuestFee, ListingFees.largestExtraGuestFee),
                                        ("security_deposit", securityDeposit, ListingFees.largestAmount)] {
            if case let amount?? = amount, amount.minorUnits < 0 || amount > largest {
                return .invalidField("\(name) must be from 0 to \(largest.decimalText)")
            }
        }
        if let guestsIncluded, !(1...ListingFees.largestGuestsIncluded).contains(guestsIncluded) {
            return .invalidField("guests_included must be from 1 to \(ListingFees.largestGuestsIncluded)")
        }
        for (name, discount) in [("weekly_discount", weeklyDiscountBasisPoints), ("monthly_discount", monthlyDiscountBasisPoints)] {
            if let discount, !(0...ListingFees.largestDiscount).contains(discount) {
                return .invalidField("\(name) must be a percentage from 0 to 99")
            }
        }
        if let latitude, !(-90...90).contains(latitude) { return .invalidField("latitude must be from -90 to 90") }
        if let longitude, !(-180...180).contains(longitude) { return .invalidField("longitude must be from -180 to 180") }
        return nil
    }
}
