/// What a live index adds to the search of its frozen index: which of the frozen rows are still visible
/// (the others were removed or changed), and an overlay index of the listings that were changed or added,
/// searched as rows past the frozen index's own.
package struct LiveParts {
    /// `wordsPerDay` words: bit *r* set when frozen row *r* is visible; nil when all are.
    package var visibleRows: UnsafePointer<UInt64>?
    /// The changed and added listings, indexed over the same calendar span; nil when there are none.
    package var overlay: ListingIndex?
    /// Which names of the frozen rows still have a visible listing; nil when every row is visible.
    package var frozenNames: FrozenNameCounts?

    package init(visibleRows: UnsafePointer<UInt64>?, overlay: ListingIndex?, frozenNames: FrozenNameCounts? = nil) {
        self.visibleRows = visibleRows
        self.overlay = overlay
        self.frozenNames = frozenNames
    }
}
