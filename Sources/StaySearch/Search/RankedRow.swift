/// A row competing for a place on the results page: smaller ranks come first.
struct RankedRow: Comparable {
    /// The sort key; see ``SortOrder``.
    var key: Int64
    /// The listing id, which breaks ties.
    var id: Int64
    /// The row in the index.
    var row: Int32
    /// The row's price for the query (total, or price without dates).
    var value: Int64
    /// The stay's check-in as a day offset (the chosen one for flexible dates; 0 without dates).
    var checkIn: Int32 = 0

    static func < (lhs: RankedRow, rhs: RankedRow) -> Bool {
        lhs.key != rhs.key ? lhs.key < rhs.key : lhs.id < rhs.id
    }

    static func == (lhs: RankedRow, rhs: RankedRow) -> Bool {
        lhs.key == rhs.key && lhs.id == rhs.id
    }
}
