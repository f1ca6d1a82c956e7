import Dispatch
import StaySearch

/// Loads Inside Airbnb folders (`listings.csv[.gz]` and `calendar.csv[.gz]`) into a ``ListingIndex``.
///
/// Columns are found by header name. Every record is either loaded or rejected with file, line and
/// reason; ``LoadReport`` accounts for all of them.
public struct InsideAirbnbLoader {
    /// Stop at the first record that cannot be loaded instead of counting it and going on.
    public var isStrict: Bool
    /// Called now and then while a file is read, with the file, bytes consumed, its size and records read.
    public var progress: ((_ path: String, _ bytesRead: Int, _ totalBytes: Int, _ records: Int) -> Void)?

    /// Read the calendars of several cities on several threads, and a large uncompressed calendar
    /// in two halves (never in strict mode, which stops at the first bad record in file order).
    /// The answer is the same either way.
    public var readsCalendarsConcurrently = true

    /// An uncompressed calendar file at least this large is read in two halves at once.
    public var splitSize = 32 << 20

    /// How many bytes the CSV reader takes from a file at a time.
    public var chunkSize = 1 << 22

    /// Creates a loader.
    public init(strict: Bool = false) {
        self.isStrict = strict
    }

    /// The dates a calendar row may have: one typo such as `0024-07-01` must not stretch every
    /// listing's calendar over two thousand years.
    public static let calendarDates = Day(year: 2000, month: 1, day: 1)!...Day(year: 2100, month: 12, day: 31)!

    /// Columns a listings file must have.
    public static let requiredListingColumns = ["id", "room_type", "accommodates", "neighbourhood_cleansed"]
    /// Columns a calendar file must have.
    public static let requiredCalendarColumns = ["listing_id", "date", "available"]

    /// Reads the folders and builds an index of everything that loads.
    /// - Throws: ``DataError`` when a file is missing, unreadable or lacks a required column, or
    ///   (strict) at the first rejected record.
    public func loadIndex(from folders: [DatasetFolder]) throws(DataError) -> (index: ListingIndex, report: LoadReport) {
        var sources: [CitySources] = []
        for folder in folders {
            let listingsPath = try Self.file(named: "listings", in: folder.path)
            let calendarPath = try Self.file(named: "calendar", in: folder.path)
            var city = CitySources(city: folder.city, listingsName: listingsPath, listings: { () throws(DataError) in try openByteSource(path: listingsPath) },
                                   calendarName: calendarPath, calendar: { () throws(DataError) in try openByteSource(path: calendarPath) })
            if !calendarPath.hasSuffix(".gz") { city.plainCalendarPath = calendarPath }
            sources.append(city)
        }
        return try loadIndex(from: sources)
    }

    /// The listings and calendar of one city as byte sources, opened when they are read.
    public struct CitySources {
        /// The city the listings belong to.
        public var city: String
        /// The listings' name in messages (a path).
        public var listingsName: String
        /// Opens the listings.
        public var listings: () throws(DataError) -> any ByteSource
        /// The calendar's name in messages (a path).
        public var calendarName: String
        /// Opens the calendar.
        public var calendar: () throws(DataError) -> any ByteSource
        /// The calendar's path when it is an uncompressed file that may be read in parts.
        public var plainCalendarPath: String?

        /// Creates the sources of one city.
        public init(city: String, listingsName: String, listings: @escaping () throws(DataError) -> any ByteSource,
                    calendarName: String, calendar: @escaping () throws(DataError) -> any ByteSource) {
            self.city = city
            self.listingsName = listingsName
            self.listings = listings
            self.calendarName = calendarName
            self.calendar = calendar
        }
    }

    /// Reads the cities' listings and calendars from byte sources and builds an index of everything
    /// that loads.
    /// - Throws: as ``loadIndex(from:)-(DatasetFolder)``.
    public func loadIndex(from cities: [CitySources]) throws(DataError) -> (index: ListingIndex, report: LoadReport) {
        var state = LoadState()
        if isStrict || !readsCalendarsConcurrently {
            for city in cities {
                var handles: [Int64: IndexBuilder.ListingHandle] = [:]
                state.report.files.append(.init(path: city.listingsName))
                try readListings(path: city.listingsName, source: try city.listings(), city: city.city,
                                 fileIndex: state.report.files.count - 1, state: &state, handles: &handles)
                let calendar = try city.calendar()
                state.report.files.append(.init(path: city.calendarName))
                state.builder.reserveNights(Self.estimatedRows(of: calendar))
                _ = try readCalendar(path: city.calendarName, source: calendar, fileIndex: state.report.files.count - 1,
                                     state: &state, handles: handles)
            }
        } else {
            try readInParallel(cities, state: &state)
        }
        let (index, duplicates) = state.builder.build()
        for duplicate in duplicates {
            let fileIndex = Int(duplicate.origin >> 40)
            let line = Int(duplicate.origin & 0xFF_FFFF_FFFF)
            let detail = "listing \(duplicate.listingID) already has a calendar row for \(duplicate.day)"
            if isStrict { throw .rejectedRecord(path: state.report.files[fileIndex].path, line: line, reason: detail) }
            state.report.files[fileIndex].loaded -= 1
            state.report.calendarRowsLoaded -= 1
            state.report.reject(fileIndex: fileIndex, line: line, reason: .duplicateDate, detail: detail)
        }
        return (index, state.report)
    }

    /// Whether `folder` holds a listings and a calendar file.
    public static func hasFiles(in folder: String) -> Bool {
        (try? file(named: "listings", in: folder)) != nil && (try? file(named: "calendar", in: folder)) != nil
    }

    /// `NAME.csv` or `NAME.csv.gz` in `folder`.
    static func file(named name: String, in folder: String) throws(DataError) -> String {
        let base = folder.hasSuffix("/") ? folder + name : folder + "/" + name
        for candidate in [base + ".csv", base + ".csv.gz"] where fileExists(candidate) { return candidate }
        throw .missingFile(folder: folder, name: name)
    }

    /// About 45 bytes a calendar row, compressed about 12 to 1.
    private static func estimatedRows(of calendar: any ByteSource) -> Int {
        estimatedRows(bytes: (calendar as? FileByteSource)?.size ?? (calendar as? GzipByteSource)?.compressedSize.map { $0 * 12 } ?? 0)
    }

    /// The calendar rows in `bytes` of plain CSV, at about 45 bytes a row.
    private static func estimatedRows(bytes: Int) -> Int { bytes / 45 }

    /// Reads every city's listings in turn, then their calendars on as many threads as there are
    /// cores, each part into a builder of its own whose nights are appended in file order. A large
    /// uncompressed calendar is read in two parts: the first reads from the start up to the first
    /// record ending at or after a line break near the middle; the second from that line break.
    /// The second part counts only when the first really ended there (no quoted field spans it);
    /// otherwise the rest is read again after the first. Files, lines, rejections and their order
    /// come out as reading everything in turn would give them.
    private func readInParallel(_ cities: [CitySources], state: inout LoadState) throws(DataError) {
        var handlesOfCity: [[Int64: IndexBuilder.ListingHandle]] = []
        var listingRejections: [Range<Int>] = []
        for city in cities {
            var handles: [Int64: IndexBuilder.ListingHandle] = [:]
            state.report.files.append(.init(path: city.listingsName))
            state.report.files.append(.init(path: city.calendarName))
            let start = state.report.rejections.count
            try readListings(path: city.listingsName, source: try city.listings(), city: city.city,
                             fileIndex: state.report.files.count - 2, state: &state, handles: &handles)
            listingRejections.append(start..<state.report.rejections.count)
            handlesOfCity.append(handles)
        }
        var pieces: [CalendarPiece] = []
        for (number, city) in cities.enumerated() {
            if let path = city.plainCalendarPath, let split = Self.lineBreakNearMiddle(of: path, from: splitSize) {
                pieces.append(CalendarPiece(city: number, part: .head(split: split)))
                pieces.append(CalendarPiece(city: number, part: .tail(start: split.offset, path: path)))
            } else {
                pieces.append(CalendarPiece(city: number, part: .whole))
            }
        }
        let work = ParallelCalendars(loader: self, cities: cities, handles: handlesOfCity, files: state.report.files, pieces: pieces)
        DispatchQueue.concurrentPerform(iterations: pieces.count) { work.read(piece: $0) }

        // One allocation for every piece's nights, not one per doubling (fresh pages cost here).
        let entries = work.results.reduce(0) { total, result in
            guard case .success(let part)? = result?.state else { return total }
            return total + part.builder.storedNightEntries
        }
        state.builder.reserveNights(entries)
        var rejections: [Rejection] = []
        var next = 0
        for number in cities.indices {
            rejections += state.report.rejections[listingRejections[number]]
            let fileIndex = 2 * number + 1
            let piece = pieces[next]
            let result = work.results[next]!
            next += 1
            guard case .success(let first) = result.state else {
                if case .failure(let error) = result.state { throw error }
                continue
            }
            Self.merge(first, fileIndex: fileIndex, lineOffset: 0, into: &state, rejections: &rejections)
            guard case .head(let split) = piece.part else { continue }
            let tail = work.results[next]!
            next += 1
            let lineOffset = result.nextLine - 1
            if result.stoppedAt == split.offset {
                switch tail.state {
                case .success(let second):
                    Self.merge(second, fileIndex: fileIndex, lineOffset: lineOffset, into: &state, rejections: &rejections)
                case .failure(let error):
                    throw error
                }
            } else if let stoppedAt = result.stoppedAt, stoppedAt < split.size {
                // A quoted field spanned the line break: read the rest after where the first part ended.
                var rest = LoadState()
                rest.report.files = state.report.files
                rest.report.files[fileIndex] = .init(path: cities[number].calendarName)
                _ = try readCalendar(path: cities[number].calendarName,
                                     source: try FileByteSource(path: split.path, range: stoppedAt..<split.size),
                                     fileIndex: fileIndex, state: &rest, handles: handlesOfCity[number],
                                     part: FilePart(header: split.header))
                Self.merge(rest, fileIndex: fileIndex, lineOffset: lineOffset, into: &state, rejections: &rejections)
            }
        }
        state.report.rejections = Array(rejections.prefix(LoadReport.keptRejectionLimit))
    }

    /// Adds what a part of a calendar file loaded, its lines counted from `lineOffset` + 1.
    private static func merge(
        _ part: LoadState, fileIndex: Int, lineOffset: Int, into state: inout LoadState, rejections: inout [Rejection]
    ) {
        let summary = part.report.files[fileIndex]
        state.report.files[fileIndex].recordsRead += summary.recordsRead
        state.report.files[fileIndex].loaded += summary.loaded
        state.report.files[fileIndex].rejectedByReason.merge(summary.rejectedByReason, uniquingKeysWith: +)
        state.report.calendarRowsLoaded += part.report.calendarRowsLoaded
        rejections += part.report.rejections.map { rejection in
            var shifted = rejection
            shifted.line += lineOffset
            return shifted
        }
        state.builder.appendNights(of: part.builder, shiftingOriginsBy: UInt64(lineOffset))
    }

    /// Where a file of at least `minimumSize` bytes may be split: just after the first line break
    /// at or after its middle, with its header; nil for a smaller file or one without such a break.
    private static func lineBreakNearMiddle(of path: String, from minimumSize: Int) -> Split? {
        guard let file = try? FileByteSource(path: path), file.size >= minimumSize, file.size >= 2 else { return nil }
        let middle = file.size / 2
        guard let window = try? FileByteSource(path: path, range: middle..<min(file.size, middle + (1 << 20))) else { return nil }
        var bytes = [UInt8](repeating: 0, count: 1 << 20)
        let count = (try? bytes.withUnsafeMutableBytes { try window.read(into: $0) }) ?? 0
        guard let newline = bytes[0..<count].firstIndex(of: UInt8(ascii: "\n")), middle + newline + 1 < file.size else { return nil }
        guard let header = try? InsideAirbnbLoader().header(ofFile: path) else { return nil }
        return Split(path: path, offset: middle + newline + 1, size: file.size, header: header)
    }

    /// A place to split a calendar file.
    struct Split {
        let path: String
        /// The first byte of the second part.
        let offset: Int
        /// The file's size.
        let size: Int
        /// The file's header, for the second part.
        let header: CSVHeader
    }

    /// One unit of calendar reading: a city's whole calendar or one of its two parts.
    struct CalendarPiece {
        enum Part {
            case whole
            case head(split: Split)
            case tail(start: Int, path: String)
        }

        let city: Int
        let part: Part
    }

    /// What reading one piece gave.
    private struct PieceResult {
        var state: Result<LoadState, DataError>
        var stoppedAt: Int?
        var nextLine = 1
    }

    /// The calendar pieces of several cities, read concurrently; each result written by one thread only.
    private final class ParallelCalendars: @unchecked Sendable {
        let loader: InsideAirbnbLoader
        let cities: [CitySources]
        let handles: [[Int64: IndexBuilder.ListingHandle]]
        let files: [LoadReport.FileSummary]
        let pieces: [CalendarPiece]
        var results: [PieceResult?]
        let progressLock = ProgressLock()

        init(loader: InsideAirbnbLoader, cities: [CitySources], handles: [[Int64: IndexBuilder.ListingHandle]],
             files: [LoadReport.FileSummary], pieces: [CalendarPiece]) {
            self.loader = loader
            self.cities = cities
            self.handles = handles
            self.files = files
            self.pieces = pieces
            results = Array(repeating: nil, count: pieces.count)
        }

        func read(piece position: Int) {
            var loader = self.loader
            if let progress = loader.progress {
                let lock = progressLock
                loader.progress = { path, bytes, total, records in lock.run { progress(path, bytes, total, records) } }
            }
            let piece = pieces[position]
            let city = cities[piece.city]
            let fileIndex = 2 * piece.city + 1
            var state = LoadState()
            state.report.files = files
            var stop: (stoppedAt: Int?, nextLine: Int) = (nil, 1)
            let result = Result { () throws(DataError) -> LoadState in
                switch piece.part {
                case .whole:
                    let calendar = try city.calendar()
                    state.builder.reserveNights(InsideAirbnbLoader.estimatedRows(of: calendar))
                    stop = try loader.readCalendar(path: city.calendarName, source: calendar, fileIndex: fileIndex,
                                                   state: &state, handles: handles[piece.city])
                case .head(let split):
                    state.builder.reserveNights(InsideAirbnbLoader.estimatedRows(bytes: split.offset))
                    stop = try loader.readCalendar(path: city.calendarName, source: try FileByteSource(path: split.path),
                                                   fileIndex: fileIndex, state: &state, handles: handles[piece.city],
                                                   part: FilePart(stopOffset: split.offset))
                case .tail(let start, let path):
                    guard case .head(let split) = pieces[position - 1].part else { return state }
                    let source = try FileByteSource(path: path, range: start..<split.size)
                    state.builder.reserveNights(InsideAirbnbLoader.estimatedRows(bytes: split.size - start))
                    stop = try loader.readCalendar(path: city.calendarName, source: source, fileIndex: fileIndex,
                                                   state: &state, handles: handles[piece.city],
                                                   part: FilePart(header: split.header))
                }
                return state
            }
            let outcome = PieceResult(state: result, stoppedAt: stop.stoppedAt, nextLine: stop.nextLine)
            results.withUnsafeMutableBufferPointer { $0[position] = outcome }
        }
    }

    private struct LoadState {
        var builder = IndexBuilder()
        var report = LoadReport()
        var listingLines: [Int64: String] = [:]
    }

    private func reject(
        _ state: inout LoadState, fileIndex: Int, line: Int, _ reason: Rejection.Reason, _ detail: String
    ) throws(DataError) {
        if isStrict { throw .rejectedRecord(path: state.report.files[fileIndex].path, line: line, reason: detail) }
        state.report.reject(fileIndex: fileIndex, line: line, reason: reason, detail: detail)
    }

    private func readListings(
        path: String, source: any ByteSource, city: String, fileIndex: Int, state: inout LoadState,
        handles: inout [Int64: IndexBuilder.ListingHandle]
    ) throws(DataError) {
        try forEachRecord(path: path, source: source, required: Self.requiredListingColumns, fileIndex: fileIndex, state: &state) {
            header, record, state throws(DataError) in
            let column = ListingColumns(header: header)
            func text(_ position: Int?) -> String { position.map { record.string(at: $0).trimmingSpaces } ?? "" }
            func bytes(_ position: Int?) -> UnsafeBufferPointer<UInt8> {
                position.map { record.bytes(at: $0) } ?? UnsafeBufferPointer(start: nil, count: 0)
            }
            let line = record.line
            guard let id = FieldParsing.int64(bytes(column.id)), id >= 0 else {
                return try reject(&state, fileIndex: fileIndex, line: line, .badID, "id '\(FieldParsing.excerpt(bytes(column.id)))' is not a listing id")
            }
            let roomType = text(column.roomType)
            guard !roomType.isEmpty else {
                return try reject(&state, fileIndex: fileIndex, line: line, .badRoomType, "listing \(id): room_type is empty")
            }
            guard let accommodates = FieldParsing.count(bytes(column.accommodates)) else {
                return try reject(&state, fileIndex: fileIndex, line: line, .badNumber,
                                  "listing \(id): accommodates '\(FieldParsing.excerpt(bytes(column.accommodates)))' is not a count")
            }
            var price: Money?
            if !bytes(column.price).isEmpty {
                guard let parsed = Money(parsingASCII: bytes(column.price)), parsed <= IndexBuilder.largestPrice else {
                    return try reject(&state, fileIndex: fileIndex, line: line, .badPrice,
                                      "listing \(id): price '\(FieldParsing.excerpt(bytes(column.price)))' is not an amount such as $70.00 (up to $21,474,836.47)")
                }
                price = parsed
            }
            var numbers: [Int32] = []
            for (name, position, fallback) in [("minimum_nights", column.minimumNights, Int32(1)),
                                               ("maximum_nights", column.maximumNights, Int32.max),
                                               ("number_of_reviews", column.reviewCount, Int32(0))] {
                let field = bytes(position)
                if field.isEmpty { numbers.append(fallback); continue }
                guard let value = FieldParsing.count(field) else {
                    return try reject(&state, fileIndex: fileIndex, line: line, .badNumber,
                                      "listing \(id): \(name) '\(FieldParsing.excerpt(field))' is not a count")
                }
                numbers.append(value)
            }
            var rating: Int32?
            if !bytes(column.rating).isEmpty {
                guard let parsed = FieldParsing.hundredths(bytes(column.rating)) else {
                    return try reject(&state, fileIndex: fileIndex, line: line, .badNumber,
                                      "listing \(id): review_scores_rating '\(FieldParsing.excerpt(bytes(column.rating)))' is not a number")
                }
                rating = parsed
            }
            var coordinates: [Double] = []
            for (name, position, limit) in [("latitude", column.latitude, 90.0), ("longitude", column.longitude, 180.0)] {
                if position == nil || bytes(position).isEmpty { coordinates.append(0); continue }
                guard let value = FieldParsing.double(bytes(position)), abs(value) <= limit else {
                    return try reject(&state, fileIndex: fileIndex, line: line, .badNumber,
                                      "listing \(id): \(name) '\(FieldParsing.excerpt(bytes(position)))' is not a number from -\(Int(limit)) to \(Int(limit))")
                }
                coordinates.append(value)
            }
            let listing = ListingRecord(
                id: id, name: text(column.name),
                region: RegionPath(city: city, neighbourhoodGroup: text(column.neighbourhoodGroup), neighbourhood: text(column.neighbourhood)),
                roomType: roomType, accommodates: Int(accommodates), price: price,
                minimumNights: numbers[0], maximumNights: numbers[1], ratingHundredths: rating,
                reviewCount: numbers[2], latitude: coordinates[0], longitude: coordinates[1])
            if let first = state.listingLines[id] {
                return try reject(&state, fileIndex: fileIndex, line: line, .duplicateListing,
                                  "duplicate listing id \(id) (first seen at \(first))")
            }
            let handle: IndexBuilder.ListingHandle
            do {
                handle = try state.builder.addListing(listing)
            } catch let error as IndexBuilderError {
                return try reject(&state, fileIndex: fileIndex, line: line, .other, error.description)
            } catch {
                return try reject(&state, fileIndex: fileIndex, line: line, .other, "\(error)")
            }
            handles[id] = handle
            state.listingLines[id] = "\(path):\(line)"
            state.report.files[fileIndex].loaded += 1
            state.report.listingsLoaded += 1
        }
    }

    private func readCalendar(
        path: String, source: any ByteSource, fileIndex: Int, state: inout LoadState,
        handles: [Int64: IndexBuilder.ListingHandle], part: FilePart = FilePart()
    ) throws(DataError) -> (stoppedAt: Int?, nextLine: Int) {
        var lastID: Int64 = -1
        var lastIDText = RecentField()
        var lastHandle: IndexBuilder.ListingHandle?
        var columns: CalendarColumns?
        var loaded = 0
        var dates = DateCache()
        let stop = try forEachRecord(path: path, source: source, required: Self.requiredCalendarColumns, fileIndex: fileIndex,
                                     state: &state, part: part) {
            header, record, state throws(DataError) in
            let column = columns ?? CalendarColumns(header: header)
            columns = column
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
                                      "listing \(id) on \(day): price '\(FieldParsing.excerpt(record.bytes(at: position)))' is not an amount such as $70.00 (up to $21,474,836.47)")
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
                                   origin: UInt64(fileIndex) << 40 | UInt64(line))
            loaded += 1
        }
        state.report.files[fileIndex].loaded += loaded
        state.report.calendarRowsLoaded += loaded
        return stop
    }

    /// Reads the header, checks required columns, then hands each well-formed record with the right
    /// number of fields to `body`; rejects the rest.
    @discardableResult
    private func forEachRecord(
        path: String, source: any ByteSource, required: [String], fileIndex: Int, state: inout LoadState,
        part: FilePart = FilePart(), _ body: (CSVHeader, CSVRecord, inout LoadState) throws(DataError) -> Void
    ) throws(DataError) -> (stoppedAt: Int?, nextLine: Int) {
        let reader = CSVReader(source: source, chunkSize: chunkSize)
        reader.stopOffset = part.stopOffset
        var header: CSVHeader? = part.header
        var records = 0
        do {
            try reader.forEachRecord { record in
                guard let header else {
                    let parsed = CSVHeader(record: record)
                    let missing = parsed.missing(required)
                    guard missing.isEmpty else { throw DataError.missingColumns(path: path, columns: missing) }
                    header = parsed
                    return
                }
                records += 1
                if records & 0xFFFF == 0 {
                    let size = (source as? FileByteSource)?.size ?? (source as? GzipByteSource)?.compressedSize ?? 0
                    progress?(path, reader.bytesConsumed, size, records)
                }
                if let malformation = record.malformation {
                    return try reject(&state, fileIndex: fileIndex, line: record.line, .malformedCSV, malformation)
                }
                guard record.count == header.names.count else {
                    return try reject(&state, fileIndex: fileIndex, line: record.line, .fieldCount,
                                      "\(record.count) fields where the header has \(header.names.count)")
                }
                try body(header, record, &state)
            }
        } catch let error as DataError {
            state.report.files[fileIndex].recordsRead += records
            throw error
        } catch {
            throw .cannotRead(path: path, reason: "\(error)")
        }
        state.report.files[fileIndex].recordsRead += records
        guard header != nil else { throw .emptyFile(path: path) }
        return (reader.stoppedAt, reader.nextLine)
    }

    /// Which part of a file a read covers: from its start (reading the header) up to the first
    /// record that ends at or after `stopOffset`, or, with `header` known, a source that starts
    /// at a record boundary further on.
    struct FilePart {
        var header: CSVHeader?
        var stopOffset = Int.max
    }

    /// The header of the CSV file at `path` (its first record).
    private func header(ofFile path: String) throws(DataError) -> CSVHeader? {
        let reader = CSVReader(source: try FileByteSource(path: path), chunkSize: 1 << 16)
        reader.stopOffset = 0
        var header: CSVHeader?
        do {
            try reader.forEachRecord { record in header = CSVHeader(record: record) }
        } catch let error as DataError {
            throw error
        } catch {
            throw .cannotRead(path: path, reason: "\(error)")
        }
        return header
    }
}

/// Positions of the listing columns the loader reads.
private struct ListingColumns {
    let id, roomType, accommodates, neighbourhood: Int
    let name, neighbourhoodGroup, price, minimumNights, maximumNights, reviewCount, rating, latitude, longitude: Int?

    init(header: CSVHeader) {
        id = header.position(of: "id")!
        roomType = header.position(of: "room_type")!
        accommodates = header.position(of: "accommodates")!
        neighbourhood = header.position(of: "neighbourhood_cleansed")!
        name = header.position(of: "name")
        neighbourhoodGroup = header.position(of: "neighbourhood_group_cleansed")
        price = header.position(of: "price")
        minimumNights = header.position(of: "minimum_nights")
        maximumNights = header.position(of: "maximum_nights")
        reviewCount = header.position(of: "number_of_reviews")
        rating = header.position(of: "review_scores_rating")
        latitude = header.position(of: "latitude")
        longitude = header.position(of: "longitude")
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
