/// A row competing for a place on the results page: smaller ranks come first.
package struct RankedRow: Comparable {
    /// The sort key; see ``SortOrder``.
    var key: Int64
    /// The listing id, which breaks ties.
    package var id: Int64
    /// The row in the index.
    var row: Int32
    /// The row's price for the query (total, or price without dates).
    var value: Int64
    /// The stay's check-in as a day offset (the chosen one for flexible dates; 0 without dates).
    var checkIn: Int32 = 0

    /// A row with its sort key, id, price for the query and check-in offset.
    package init(key: Int64, id: Int64, row: Int32, value: Int64, checkIn: Int32 = 0) {
        self.key = key
        self.id = id
        self.row = row
        self.value = value
        self.checkIn = checkIn
    }

    package static func < (lhs: RankedRow, rhs: RankedRow) -> Bool {
        lhs.key != rhs.key ? lhs.key < rhs.key : lhs.id < rhs.id
    }

    package static func == (lhs: RankedRow, rhs: RankedRow) -> Bool {
        lhs.key == rhs.key && lhs.id == rhs.id
    }
}
