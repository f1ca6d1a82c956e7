/// What one change does to one listing held whole, decided by the same code that applies it to a live
/// index: a system of record that keeps each listing's days can decide a change on its own copy and be
/// sure that every live index applying the change after it reaches the same verdict.
package enum ListingChangeOutcome {
    /// Applies `change` to `listing` (nil: no listing has the change's id) over the calendar span
    /// `firstDay ..< firstDay + dayCount`, as ``LiveIndex/apply(_:)`` would.
    /// - Returns: the listing afterwards (nil when the change removed it), or why the change is rejected.
    package static func applying(_ change: CalendarChange, to listing: EditableListing?, firstDay: Day,
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
