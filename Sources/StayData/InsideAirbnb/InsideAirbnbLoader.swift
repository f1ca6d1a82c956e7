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

    /// Where the calendars read are kept until the index is built, and its table of day-by-day prices is
    /// laid out (see ``SpillStore``): the index then maps that table from the file, which must outlive
    /// it. Nil keeps everything in memory.
    public var spill: SpillFile?

    /// The pieces the builders spill in: bytes of sealed nights, and dense rows, at a time (tests make
    /// them small, to spill many).
    package var spillPieces = (fragmentBytes: 1 << 22, denseRows: 4_096)

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
            let listingsPath = try Self.listingsFile(in: folder.path)
            let calendarPath = try Self.file(named: "calendar", in: folder.path)
            var city = CitySources(city: folder.city, listingsName: listingsPath, listings: { () throws(DataError) in try openByteSource(path: listingsPath) },
                                   calendarName: calendarPath, calendar: { () throws(DataError) in try openByteSource(path: calendarPath) })
            if !calendarPath.hasSuffix(".gz") { city.plainCalendarPath = calendarPath }
            let shapes = (folder.path.hasSuffix("/") ? folder.path : folder.path + "/") + NeighbourhoodFile.name
            if fileExists(shapes) { city.neighbourhoodsPath = shapes }
            let aliases = (folder.path.hasSuffix("/") ? folder.path : folder.path + "/") + RegionAliasFile.name
            if fileExists(aliases) { city.aliasesPath = aliases }
            let fees = (folder.path.hasSuffix("/") ? folder.path : folder.path + "/") + FeesFile.name
            if fileExists(fees) { city.feesPath = fees }
            sources.append(city)
        }
        return try loadIndex(from: sources)
    }

    /// Reads the cities' listings and calendars from byte sources and builds an index of everything
    /// that loads.
    /// - Throws: as ``loadIndex(from:)-(DatasetFolder)``.
    public func loadIndex(from cities: [CitySources]) throws(DataError) -> (index: ListingIndex, report: LoadReport) {
        var state = LoadState(spillingTo: spill, pieces: spillPieces)
        if isStrict || !readsCalendarsConcurrently {
            for city in cities {
                var handles: [Int64: IndexBuilder.ListingHandle] = [:]
                state.report.files.append(.init(path: city.listingsName))
                try readListings(path: city.listingsName, source: try city.listings(), city: city.city, feesPath: city.feesPath,
                                 fileIndex: state.report.files.count - 1, state: &state, handles: &handles)
                let calendar = try city.calendar()
                state.report.files.append(.init(path: city.calendarName))
                _ = try readCalendar(path: city.calendarName, source: calendar, fileIndex: state.report.files.count - 1,
                                     state: &state, handles: handles)
            }
        } else {
            try readInParallel(cities, state: &state)
        }
        for city in cities {
            guard let path = city.neighbourhoodsPath else { continue }
            do throws(DataError) {
                state.builder.addNeighbourhoods(try NeighbourhoodFile.read(path: path, city: city.city))
            } catch {
                if isStrict { throw error }
                state.report.warnings.append("\(error.description); the map shows no neighbourhood boundaries for \(city.city)")
            }
        }
        var aliasLines: [(alias: RegionAlias, path: String, line: Int)] = []
        for city in cities {
            guard let path = city.aliasesPath else { continue }
            let (aliases, warnings) = try RegionAliasFile.read(path: path, city: city.city)
            if isStrict, let first = warnings.first { throw .malformedFile(path: path, reason: first) }
            state.report.warnings += warnings
            state.builder.addAliases(aliases.map(\.alias))
            aliasLines += aliases.map { ($0.alias, path, $0.line) }
        }
        // The builder is handed over, so that its nights are freed as the index takes them in.
        let builder = state.builder
        state.builder = IndexBuilder()
        state.listingOrigins = ChunkedArray()   // only reading needs them
        let index: ListingIndex, duplicates: [DuplicateNight]
        if let spill {
            do throws(IndexBuilderError) {
                (index, duplicates) = try (consume builder).buildUsingStore()
            } catch {
                throw spill.failure ?? .cannotWrite(path: "a temporary file", reason: error.description)
            }
        } else {
            (index, duplicates) = builder.build()
        }
        for entry in aliasLines where index.regions.nodes(of: entry.alias).isEmpty {
            let reason = "'\(entry.alias.region)' is not a region of \(entry.alias.city); the alias '\(entry.alias.alias)' is left out"
            if isStrict { throw .rejectedRecord(path: entry.path, line: entry.line, reason: reason) }
            state.report.warnings.append("\(entry.path):\(entry.line): \(reason)")
        }
        for duplicate in duplicates {
            let (fileIndex, line) = (duplicate.origin.file, duplicate.origin.line)
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

    /// Counts a rejected record in the report, or in strict mode stops the load with it.
    func reject(
        _ state: inout LoadState, fileIndex: Int, line: Int, _ reason: Rejection.Reason, _ detail: String
    ) throws(DataError) {
        if isStrict { throw .rejectedRecord(path: state.report.files[fileIndex].path, line: line, reason: detail) }
        state.report.reject(fileIndex: fileIndex, line: line, reason: reason, detail: detail)
    }
}
