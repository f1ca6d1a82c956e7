import PostgresNIO

/// The statement that locks a listing's row for the rest of the transaction and reads it whole
/// (``ListingRow/columnList``), prepared once per connection.
struct ListingLockStatement: PostgresPreparedStatement {
    static let sql = "SELECT \(ListingRow.columnList) FROM listings WHERE id = $1 FOR UPDATE"
    typealias Row = PostgresRow

    let id: Int64

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(id)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}
