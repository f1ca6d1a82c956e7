import StaySearch

/// The positions of the fee columns of Inside Airbnb's listings files of 2015–2020 (`cleaning_fee`,
/// `guests_included`, `extra_people`, `weekly_price`, `monthly_price`, `security_deposit`), and how a
/// record's fees are read from them.
struct FeeColumns {
    let cleaningFee, guestsIncluded, extraPeople, weeklyPrice, monthlyPrice, securityDeposit: Int?

    init(header: CSVHeader) {
        cleaningFee = header.position(of: "cleaning_fee")
        guestsIncluded = header.position(of: "guests_included")
        extraPeople = header.position(of: "extra_people")
        weeklyPrice = header.position(of: "weekly_price")
        monthlyPrice = header.position(of: "monthly_price")
        securityDeposit = header.position(of: "security_deposit")
    }

    /// Whether the file has none of the columns (every file since 2020).
    var isEmpty: Bool {
        [cleaningFee, guestsIncluded, extraPeople, weeklyPrice, monthlyPrice, securityDeposit].allSatisfy { $0 == nil }
    }

    /// The fees of `record` (a listing whose nightly price is `price`), or nil for none; and for each fee
    /// that does not parse, why (the listing loads without that fee).
    func fees(of record: CSVRecord, price: Money?) -> (fees: ListingFees?, problems: [String]) {
        guard !isEmpty else { return (nil, []) }
        var problems: [String] = []
        func bytes(_ position: Int?) -> UnsafeBufferPointer<UInt8> {
            position.map { record.bytes(at: $0) } ?? UnsafeBufferPointer(start: nil, count: 0)
        }
        func amount(_ name: String, _ position: Int?, largest: Money = ListingFees.largestAmount) -> Money? {
            let field = bytes(position)
            guard !field.isEmpty else { return nil }
            guard let value = Money(parsingASCII: field), value <= largest else {
                problems.append("\(name) '\(FieldParsing.excerpt(field))' is not an amount such as $70.00 (up to \(largest.formatted()))")
                return nil
            }
            return value
        }
        var fees = ListingFees()
        fees.cleaningFee = amount("cleaning_fee", cleaningFee)
        fees.extraGuestFee = amount("extra_people", extraPeople, largest: ListingFees.largestExtraGuestFee)
        fees.securityDeposit = amount("security_deposit", securityDeposit)
        let included = bytes(guestsIncluded)
        if !included.isEmpty {
            if let count = FieldParsing.count(included) {
                fees.guestsIncluded = max(1, min(Int(count), ListingFees.largestGuestsIncluded))
            } else {
                problems.append("guests_included '\(FieldParsing.excerpt(included))' is not a count")
            }
        }
        for (name, position, nights) in [("weekly_price", weeklyPrice, 7), ("monthly_price", monthlyPrice, 30)] {
            guard let stayPrice = amount(name, position), let price else { continue }
            let full = price.minorUnits * Int64(nights)
            guard full > 0 else { continue }
            let basisPoints = (full - stayPrice.minorUnits) * 10_000 / full
            guard basisPoints <= Int64(ListingFees.largestDiscount) else {
                problems.append("\(name) '\(FieldParsing.excerpt(bytes(position)))' is a discount of over 99 % on \(nights) nights at \(price.formatted())")
                continue
            }
            let discount = max(0, Int(basisPoints))
            if nights == 7 { fees.weeklyDiscountBasisPoints = discount } else { fees.monthlyDiscountBasisPoints = discount }
        }
        return (fees.isEmpty ? nil : fees, problems)
    }
}
