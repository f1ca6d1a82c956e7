/// What one change does to one listing held whole, decided by the same code that applies it to a live
/// index: a system of record that keeps each listing's days can decide a change on its own copy and be
/// sure that every live index applying the change after it reaches the same verdict.
package enum ListingChangeOutcome {
    /// Applies `change` to `listing` (nil: no listing has the change's id) over the calendar span
    /// `firstDay ..< firstDay + dayCount`, as ``LiveIndex/apply(_:)`` would.
    /// - Returns: the listing afterwards (nil when the change removed it), or why the change is rejected.
    package static func applying(_ change: CalendarChange, to listing: EditableListing?, firstDay: Day,
                                 dayCount: Int) -> Result<EditableListing?, ChangeError> {
        if case .listing = change { return applyingInAnIndex(change, to: listing, firstDay: firstDay, dayCount: dayCount) }
        guard var listing else { return .failure(.unknownListing(change.id)) }
        do throws(ChangeError) {
            // The checks and steps of a live index's listing held in its overlay (``LiveIndex``), in its order.
            let days = try LiveIndex.days(of: change, firstDay: firstDay, dayCount: dayCount)
            switch change {
            case let .book(id, checkIn, _, guests):
                guard listing.canBook(days: days, guests: guests ?? 0) else {
                    throw .notBookable(id: id, reasons: listing.problems(days: days, checkIn: checkIn, guests: guests ?? 0).map(\.description))
                }
                for day in days { listing.bookable[day] = false }
            case .cancel, .availability(_, _, _, true):
                for day in days where listing.status(ofDay: day) != .available && listing.status(ofDay: day) != .booked {
                    throw .nightCannotOpen(day: firstDay.advanced(by: day), status: listing.status(ofDay: day))
                }
                for day in days { listing.bookable[day] = true }
            case .availability(_, _, _, false):
                for day in days { listing.bookable[day] = false }
            case let .price(_, _, _, price):
                try LiveIndex.checkValues(of: change)
                listing.setPrice(price, days: days)
            case let .rules(_, _, _, minimum, maximum):
                try LiveIndex.checkValues(of: change)
                listing.setRules(minimumNights: minimum, maximumNights: maximum, days: days)
            case .remove:
                return .success(nil)
            case let .days(set):
                if let problem = set.problem(listingPrice: listing.record.price) { throw problem }
                listing.setDays(set, first: days.lowerBound)
            case .listing:
                break
            }
        } catch {
            return .failure(error)
        }
        return .success(listing)
    }

    /// A `listing` change, applied to the listing alone in a one-row live index (its checks of the new
    /// fields are the live index's own).
    private static func applyingInAnIndex(_ change: CalendarChange, to listing: EditableListing?, firstDay: Day,
                                          dayCount: Int) -> Result<EditableListing?, ChangeError> {
        let records = listing.map { [$0.record] } ?? []
        let index = IndexBuilder.build(listings: records, firstDay: firstDay, dayCount: dayCount, listingAt: { _ in listing! })
        let live = LiveIndex(index)
        do throws(ChangeError) {
            try live.apply(change)
        } catch {
            return .failure(error)
        }
        return .success(live.withIndex { whole in whole.count == 0 ? nil : EditableListing(row: 0, of: whole) })
    }
}
