import PostgresNIO

/// The common write in one statement, prepared once per connection: a booking's nights closed in the
/// listing's row, the booking inserted (the exclusion constraint refusing an overlapping stay) and the
/// change logged; answers the log row's id.
struct BookingStatement: PostgresPreparedStatement {
    static let sql = """
        WITH closed AS (UPDATE listings SET night_open = $1 WHERE id = $2), \
        booked AS (INSERT INTO bookings (listing, stay, guests) \
        VALUES ($2, daterange(DATE '1970-01-01' + $3, DATE '1970-01-01' + $4, '[)'), $5)) \
        INSERT INTO change_log (change) VALUES ($6) RETURNING id
        """
    static let bindingDataTypes: [PostgresDataType] = [.boolArray, .int8, .int4, .int4, .int4, .text]
    typealias Row = Int64

    /// The listing's nights open after the booking, one a day of the calendar.
    let nightsOpen: [Bool]
    let listing: Int64
    /// Check-in and check-out, days since 1970-01-01.
    let checkIn: Int32
    let checkOut: Int32
    let guests: Int32?
    /// The change as sent, for the log.
    let line: String

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 6)
        bindings.append(nightsOpen)
        bindings.append(listing)
        bindings.append(checkIn)
        bindings.append(checkOut)
        bindings.append(guests)
        bindings.append(line)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self, context: .default) }
}
