import StaySearch

extension InsideAirbnbLoader {
    /// Reads a calendar file (or a part of one) into the builder.
    /// - Returns: where the read stopped and the line after the last record read.
    func readCalendar(
        path: String, source: any ByteSource, fileIndex: Int, state: inout LoadState,
        handles: [Int64: IndexBuilder.ListingHandle], part: FilePart = FilePart()
    ) throws(DataError) -> (stoppedAt: Int?, nextLine: Int) {
        var lastID: Int64 = -1
        var lastIDText = RecentField()
        var lastHandle: IndexBuilder.ListingHandle?
        var loaded = 0
        var dates = DateCache()
        let stop = try forEachRecord(path: path, source: source, required: Self.requiredCalendarColumns, fileIndex: fileIndex,
                                     state: &state, part: part, columns: CalendarColumns.init(header:)) {
            column, record, state throws(DataError) in
            let line = record.line
            // Calendars list a listing's rows together: the same id text as the row before is the same id.
            let idBytes = record.bytes(at: column.listingID)
            if !lastIDText.matches(idBytes) {
                guard let id = FieldParsing.int64(idBytes) else {
                    return try reject(&state, fileIndex: fileIndex, line: line, .badID, "listing_id '\(FieldParsing.excerpt(idBytes))' is not a listing id")
                }
                lastIDText.remember(idBytes)
                if id != lastID {
                    lastID = id
                    lastHandle = handles[id]
                }
            }
            let id = lastID
            guard let handle = lastHandle else {
                return try reject(&state, fileIndex: fileIndex, line: line, .unknownListing,
                                  "calendar row for listing \(id), which is not among the loaded listings")
            }
            let dateBytes = record.bytes(at: column.date)
            guard let day = dates.day(dateBytes) else {
                return try reject(&state, fileIndex: fileIndex, line: line, .badDate,
                                  "listing \(id): date '\(FieldParsing.excerpt(dateBytes))' is not a date (YYYY-MM-DD)")
            }
            guard Self.calendarDates.contains(day) else {
                return try reject(&state, fileIndex: fileIndex, line: line, .badDate,
                                  "listing \(id): date \(day) is outside the years 2000–2100 that calendars cover")
            }
            let availableBytes = record.bytes(at: column.available)
            let isAvailable: Bool
            switch availableBytes.count == 1 ? availableBytes[0] : 0 {
            case UInt8(ascii: "t"): isAvailable = true
            case UInt8(ascii: "f"): isAvailable = false
            default:
                return try reject(&state, fileIndex: fileIndex, line: line, .badAvailability,
                                  "listing \(id) on \(day): available '\(FieldParsing.excerpt(availableBytes))' is not t or f")
            }
            var price: Int64 = -1
            if let position = column.price, !record.isEmpty(at: position) {
                guard let parsed = Money(parsingASCII: record.bytes(at: position)), parsed <= IndexBuilder.largestPrice else {
                    return try reject(&state, fileIndex: fileIndex, line: line, .badPrice,
                                      "listing \(id) on \(day): price '\(FieldParsing.excerpt(record.bytes(at: position)))' is not an amount such as $70.00 (up to $1,000,000,000.00)")
                }
                price = parsed.minorUnits
            }
            var minimum: Int32?
            var maximum: Int32?
            if let position = column.minimumNights, !record.isEmpty(at: position) {
                minimum = FieldParsing.count(record.bytes(at: position))
                if minimum == nil {
                    return try reject(&state, fileIndex: fileIndex, line: line, .badNumber,
                                      "listing \(id) on \(day): minimum_nights '\(FieldParsing.excerpt(record.bytes(at: position)))' is not a count")
                }
            }
            if let position = column.maximumNights, !record.isEmpty(at: position) {
                maximum = FieldParsing.count(record.bytes(at: position))
                if maximum == nil {
                    return try reject(&state, fileIndex: fileIndex, line: line, .badNumber,
                                      "listing \(id) on \(day): maximum_nights '\(FieldParsing.excerpt(record.bytes(at: position)))' is not a count")
                }
            }
            state.builder.addNight(to: handle, day: day, isAvailable: isAvailable, priceMinorUnits: price,
                                   minimumNights: minimum ?? -1, maximumNights: maximum ?? -1,
                                   origin: RecordOrigin(file: fileIndex, line: line))
            loaded += 1
        }
        state.report.files[fileIndex].loaded += loaded
        state.report.calendarRowsLoaded += loaded
        return stop
    }
}

/// Positions of the calendar columns the loader reads.
private struct CalendarColumns {
    let listingID, date, available: Int
    let price, minimumNights, maximumNights: Int?

    init(header: CSVHeader) {
        listingID = header.position(of: "listing_id")!
        date = header.position(of: "date")!
        available = header.position(of: "available")!
        price = header.position(of: "price")
        minimumNights = header.position(of: "minimum_nights")
        maximumNights = header.position(of: "maximum_nights")
    }
}
