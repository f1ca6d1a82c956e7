import StaySearch

/// The listing screen and the stay quote as text and JSON.
package enum ListingFormatting {
    package static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// The listing's title on one line.
    package static func title(_ listing: ListingRecord) -> String {
        listing.name.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: "")
    }

    /// The listing screen as text on `clock`'s today (which prices a listing without a price of its own), its
    /// calendar line the window from today on; prices, dates and words in `style`.
    package static func details(index: ListingIndex, row: Int, clock: StayClock? = nil, style: DisplayStyle = .standard) -> String {
        let clock = clock ?? StayClock(today: nil, first: index.firstDay, dayCount: index.dayCount)
        let today = clock.today
        if style.language == .korean { return koreanDetails(index: index, row: row, clock: clock, style: style) }
        let listing = index.listing(atRow: row)
        var lines = [title(listing)]
        lines.append("id \(listing.id) · \(listing.region.components.joined(separator: " / ")) · \(listing.roomType) · "
            + "up to \(listing.accommodates) guests")
        let priceText: String
        if let (price, source) = index.priceWithoutDates(ofRow: row, today: today) {
            priceText = style.money(price) + " a night (" + (source == .listing ? "listing price" : "first priced calendar night") + ")"
        } else {
            priceText = "no price"
        }
        lines.append("price \(priceText) · rating "
            + (listing.ratingHundredths.map(ResultFormatting.ratingText) ?? "none") + " (\(listing.reviewCount) reviews) · "
            + "\(ResultFormatting.coordinate(listing.latitude)), \(ResultFormatting.coordinate(listing.longitude))")
        if let (first, last, days) = window(of: clock) {
            lines.append("calendar \(first) … \(last) · \(index.bookableNights(ofRow: row, from: first, count: days)) of the first \(days) nights free")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The window the listing screen's calendar line shows: from today (or the calendars' first day, if later)
    /// to the last night the data covers, and how many of its first nights it counts (at most 30); nil when it
    /// has no night.
    static func window(of clock: StayClock) -> (first: Day, last: Day, days: Int)? {
        let first = clock.firstOpen
        let days = min(30, first.distance(to: clock.end))
        return days > 0 ? (first, clock.last, days) : nil
    }

    /// ``details(index:row:clock:style:)`` in Korean.
    static func koreanDetails(index: ListingIndex, row: Int, clock: StayClock, style: DisplayStyle) -> String {
        let today = clock.today
        let listing = index.listing(atRow: row)
        var lines = [title(listing)]
        lines.append("id \(listing.id) · \(listing.region.components.joined(separator: " / ")) · \(listing.roomType) · "
            + "최대 \(listing.accommodates)명")
        let priceText: String
        if let (price, source) = index.priceWithoutDates(ofRow: row, today: today) {
            priceText = "1박 " + style.money(price) + " (" + (source == .listing ? "숙소 요금" : "달력의 첫 요금") + ")"
        } else {
            priceText = "없음"
        }
        lines.append("요금 \(priceText) · 평점 "
            + (listing.ratingHundredths.map(ResultFormatting.ratingText) ?? "없음") + " (후기 \(listing.reviewCount)개) · "
            + "\(ResultFormatting.coordinate(listing.latitude)), \(ResultFormatting.coordinate(listing.longitude))")
        if let (first, last, days) = window(of: clock) {
            lines.append("달력 \(first) … \(last) · 처음 \(days)박 중 \(index.bookableNights(ofRow: row, from: first, count: days))박 예약 가능")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The stay quote as text; prices, dates and words in `style`.
    package static func quote(_ quote: StayQuote, guests: Int, infants: Int, style: DisplayStyle = .standard) -> String {
        if style.language == .korean { return koreanQuote(quote, guests: guests, infants: infants, style: style) }
        let count = quote.nights.count
        var lines: [String] = []
        let first = quote.nights.first!.day, end = quote.nights.last!.day.advanced(by: 1)
        lines.append("Stay \(first) → \(end), \(count) night\(count == 1 ? "" : "s"), \(guests) guest\(guests == 1 ? "" : "s")"
            + (infants > 0 ? " and \(infants) infant\(infants == 1 ? "" : "s")" : "") + ":")
        for night in quote.nights {
            let price = night.price.map { style.money($0) } ?? "-"
            lines.append("  \(weekdays[night.day.weekdayFromMonday]) \(night.day)  \(String(repeating: " ", count: max(0, 10 - price.count)))\(price)  \(night.status.rawValue)")
        }
        if let total = quote.total, let average = quote.averageNightlyPrice {
            if let trip = quote.trip { lines.append(contentsOf: tripLines(trip, nights: count, deposit: quote.securityDeposit, style: style)) }
            lines.append("  total \(style.money(total)) · average \(style.money(average)) a night")
        } else {
            lines.append("  no total: not every night has a price")
        }
        if quote.isBookable {
            lines.append("  can be booked")
        } else {
            lines.append("  cannot be booked:")
            lines.append(contentsOf: quote.problems.map { "  - \($0)" })
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The lines of a trip price as a booking screen shows them, amounts aligned: the nights, each fee, the
    /// trip price and, with a tax, the total with taxes. A stay with no fee and no tax shows none.
    static func tripLines(_ trip: TripPrice, nights: Int, deposit: Money?, style: DisplayStyle) -> [String] {
        var rows: [(String, String)] = []
        let average = Money.average(of: trip.nightlySubtotal, over: Int64(nights))
        rows.append(("\(style.money(average)) × \(nights) night\(nights == 1 ? "" : "s")", style.money(Money(minorUnits: trip.nightlySubtotal))))
        if let discount = trip.discount {
            rows.append(("\(discount.kind == .weekly ? "Weekly" : "Monthly") discount (\(PlatformFees.percentText(discount.basisPoints)) %)",
                         "−" + style.money(Money(minorUnits: discount.amount))))
        }
        if let extra = trip.extraGuests {
            rows.append(("Extra guests (\(extra.guests) × \(style.money(Money(minorUnits: extra.feePerNight))) × \(nights))",
                         style.money(Money(minorUnits: extra.amount))))
        }
        if trip.cleaningFee > 0 { rows.append(("Cleaning fee", style.money(Money(minorUnits: trip.cleaningFee)))) }
        if trip.serviceFeeBasisPoints > 0 {
            rows.append(("Service fee (\(PlatformFees.percentText(trip.serviceFeeBasisPoints)) %)", style.money(Money(minorUnits: trip.serviceFee))))
        }
        guard rows.count > 1 || trip.taxBasisPoints > 0 || deposit != nil else { return [] }
        rows.append(("Trip price (all fees, before taxes)", style.money(Money(minorUnits: trip.tripPrice))))
        if trip.taxBasisPoints > 0 {
            rows.append(("Taxes (\(PlatformFees.percentText(trip.taxBasisPoints)) %)", style.money(Money(minorUnits: trip.taxes))))
            rows.append(("Total with taxes", style.money(Money(minorUnits: trip.totalWithTaxes))))
        }
        if let deposit { rows.append(("Security deposit (not charged)", style.money(deposit))) }
        return aligned(rows)
    }

    /// ``tripLines(_:nights:deposit:style:)`` in Korean.
    static func koreanTripLines(_ trip: TripPrice, nights: Int, deposit: Money?, style: DisplayStyle) -> [String] {
        var rows: [(String, String)] = []
        let average = Money.average(of: trip.nightlySubtotal, over: Int64(nights))
        rows.append(("1박 요금 \(style.money(average)) × \(nights)박", style.money(Money(minorUnits: trip.nightlySubtotal))))
        if let discount = trip.discount {
            rows.append(("장기 숙박 할인 (\(discount.kind == .weekly ? "주" : "월") \(PlatformFees.percentText(discount.basisPoints))%)",
                         "−" + style.money(Money(minorUnits: discount.amount))))
        }
        if let extra = trip.extraGuests {
            rows.append(("추가 인원 요금 (\(extra.guests)명 × \(style.money(Money(minorUnits: extra.feePerNight))) × \(nights)박)",
                         style.money(Money(minorUnits: extra.amount))))
        }
        if trip.cleaningFee > 0 { rows.append(("청소비", style.money(Money(minorUnits: trip.cleaningFee)))) }
        if trip.serviceFeeBasisPoints > 0 {
            rows.append(("서비스 수수료 (\(PlatformFees.percentText(trip.serviceFeeBasisPoints))%)", style.money(Money(minorUnits: trip.serviceFee))))
        }
        guard rows.count > 1 || trip.taxBasisPoints > 0 || deposit != nil else { return [] }
        rows.append(("숙박 요금 합계 (수수료 포함, 세금 별도)", style.money(Money(minorUnits: trip.tripPrice))))
        if trip.taxBasisPoints > 0 {
            rows.append(("숙박세 (\(PlatformFees.percentText(trip.taxBasisPoints))%)", style.money(Money(minorUnits: trip.taxes))))
            rows.append(("총 합계 (세금 포함)", style.money(Money(minorUnits: trip.totalWithTaxes))))
        }
        if let deposit { rows.append(("보증금 (청구되지 않음)", style.money(deposit))) }
        return aligned(rows)
    }

    /// `label   amount` rows, the amounts right-aligned in one column (Hangul and other wide letters taking
    /// two columns of a terminal).
    private static func aligned(_ rows: [(String, String)]) -> [String] {
        let labelWidth = rows.map { columns($0.0) }.max() ?? 0, amountWidth = rows.map { columns($0.1) }.max() ?? 0
        return rows.map { label, amount in
            "  \(label)\(String(repeating: " ", count: labelWidth - columns(label) + 2))"
                + "\(String(repeating: " ", count: amountWidth - columns(amount)))\(amount)"
        }
    }

    /// The terminal columns `text` takes: two for East Asian wide letters (Hangul, CJK, full-width forms), one otherwise.
    static func columns(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { width, scalar in
            let value = scalar.value
            let wide = (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value) || (0xAC00...0xD7A3).contains(value)
                || (0xF900...0xFAFF).contains(value) || (0xFF00...0xFF60).contains(value) || (0xFFE0...0xFFE6).contains(value)
            return width + (wide ? 2 : 1)
        }
    }

    /// ``quote(_:guests:infants:style:)`` in Korean.
    static func koreanQuote(_ quote: StayQuote, guests: Int, infants: Int, style: DisplayStyle) -> String {
        let count = quote.nights.count
        let first = quote.nights.first!.day, end = quote.nights.last!.day.advanced(by: 1)
        var lines = ["숙박 \(style.shortDate(first)) → \(style.shortDate(end)), \(count)박, 게스트 \(guests)명"
            + (infants > 0 ? ", 유아 \(infants)명" : "") + ":"]
        let statuses: [NightStatus: String] = [
            .available: "예약 가능", .booked: "예약됨", .unpriced: "가격 없음", .noCalendarRow: "달력 행 없음", .outsideCalendar: "달력 밖", .past: "지난 날",
        ]
        for night in quote.nights {
            let price = night.price.map { style.money($0) } ?? "-"
            let day = "\(style.shortDate(night.day)) (\(style.weekdayName(night.day.weekdayFromMonday)))"
            lines.append("  \(day)  \(String(repeating: " ", count: max(0, 10 - price.count)))\(price)  \(statuses[night.status]!)")
        }
        if let total = quote.total, let average = quote.averageNightlyPrice {
            if let trip = quote.trip {
                lines.append(contentsOf: koreanTripLines(trip, nights: count, deposit: quote.securityDeposit, style: style))
            }
            lines.append("  총액 \(style.money(total)) · 1박 평균 \(style.money(average))")
        } else {
            lines.append("  총액 없음: 가격이 없는 밤이 있습니다")
        }
        if quote.isBookable {
            lines.append("  예약할 수 있습니다")
        } else {
            lines.append("  예약할 수 없습니다:")
            lines.append(contentsOf: quote.problems.map { "  - \($0)" })
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The listing object of docs/query-semantics.md: the fields of a search result (for the stay when there is a quote whose
    /// every night is priced, else the price without dates on `today`), and with a quote its nights and verdict.
    package static func json(index: ListingIndex, row: Int, quote: StayQuote?, today: Day? = nil) -> String {
        let listing = index.listing(atRow: row)
        let stayPriced = quote?.total != nil
        var json = JSONWriter()
        ResultFormatting.listingObject(
            &json, id: listing.id, name: listing.name, region: listing.region, roomType: listing.roomType,
            accommodates: listing.accommodates,
            nightlyPrice: stayPriced ? quote?.averageNightlyPrice : index.priceWithoutDates(ofRow: row, today: today)?.price,
            totalPrice: stayPriced ? quote?.total : nil, ratingHundredths: listing.ratingHundredths,
            reviewCount: listing.reviewCount, latitude: listing.latitude, longitude: listing.longitude
        ) { json in
            guard let quote, let first = quote.nights.first, let last = quote.nights.last else { return }
            json.key("quote")
            json.beginObject()
            json.field("checkin", string: first.day.description)
            json.field("checkout", string: last.day.advanced(by: 1).description)
            json.key("nights")
            json.beginArray()
            for night in quote.nights { nightObject(&json, night) }
            json.endArray()
            json.field("total_price", number: quote.total?.decimalText)
            json.field("nightly_price", number: quote.averageNightlyPrice?.decimalText)
            if let trip = quote.trip { tripFields(&json, trip, deposit: quote.securityDeposit) }
            json.field("bookable", bool: quote.isBookable)
            json.key("reasons")
            json.beginArray()
            for problem in quote.problems { json.string(problem.description) }
            json.endArray()
            json.endObject()
        }
        return json.text
    }

    /// The quote's lines of a trip price (docs/query-semantics.md, "The trip price"): `nightly_subtotal`,
    /// `length_of_stay_discount`, `extra_guests`, `cleaning_fee`, `service_fee`, `trip_price`, `taxes`,
    /// `total_with_taxes`, `security_deposit`.
    package static func tripFields(_ json: inout JSONWriter, _ trip: TripPrice, deposit: Money?) {
        func amount(_ minorUnits: Int64) -> String { Money(minorUnits: minorUnits).decimalText }
        json.field("nightly_subtotal", number: amount(trip.nightlySubtotal))
        json.key("length_of_stay_discount")
        if let discount = trip.discount {
            json.beginObject()
            json.field("kind", string: discount.kind.rawValue)
            json.field("percent", number: PlatformFees.percentText(discount.basisPoints))
            json.field("amount", number: amount(discount.amount))
            json.endObject()
        } else {
            json.number(nil)
        }
        json.key("extra_guests")
        if let extra = trip.extraGuests {
            json.beginObject()
            json.field("guests", number: extra.guests)
            json.field("fee_per_night", number: amount(extra.feePerNight))
            json.field("amount", number: amount(extra.amount))
            json.endObject()
        } else {
            json.number(nil)
        }
        json.field("cleaning_fee", number: amount(trip.cleaningFee))
        json.key("service_fee")
        json.beginObject()
        json.field("percent", number: PlatformFees.percentText(trip.serviceFeeBasisPoints))
        json.field("amount", number: amount(trip.serviceFee))
        json.endObject()
        json.field("trip_price", number: amount(trip.tripPrice))
        json.key("taxes")
        json.beginObject()
        json.field("percent", number: PlatformFees.percentText(trip.taxBasisPoints))
        json.field("amount", number: amount(trip.taxes))
        json.endObject()
        json.field("total_with_taxes", number: amount(trip.totalWithTaxes))
        json.field("security_deposit", number: deposit?.decimalText)
    }

    /// `{"date": "2024-07-12", "price": 175.00, "available": true, "status": "available"}`.
    package static func nightObject(_ json: inout JSONWriter, _ night: ListingNight) {
        json.beginObject()
        json.field("date", string: night.day.description)
        json.field("price", number: night.price?.decimalText)
        json.field("available", bool: night.status == .available)
        json.field("status", string: night.status.rawValue)
        json.endObject()
    }
}
