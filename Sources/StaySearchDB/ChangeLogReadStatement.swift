import PostgresNIO

/// A follower's read of the change log, prepared once per connection: the next rows after a position, in
/// position order, with the database's clock.
struct ChangeLogReadStatement: PostgresPreparedStatement {
    static let sql = """
        SELECT position, id, change, extract(epoch FROM committed_at)::float8, extract(epoch FROM clock_timestamp())::float8 \
        FROM change_log WHERE position > $1 ORDER BY position LIMIT $2
        """
    typealias Row = (Int64, Int64, String, Double, Double)

    let after: Int64
    let limit: Int64

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(after)
        bindings.append(limit)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self, context: .default) }
}
