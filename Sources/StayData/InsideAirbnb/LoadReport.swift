/// What a load read, kept and left out, file by file: for every file, records read = loaded + rejected.
public struct LoadReport: Sendable, Equatable {
    /// The counts of one file.
    public struct FileSummary: Sendable, Equatable {
        /// The file's path.
        public var path: String
        /// Records read, not counting the header.
        public var recordsRead = 0
        /// Records that made it into the index.
        public var loaded = 0
        /// Records left out, by reason.
        public var rejectedByReason: [String: Int] = [:]

        /// Records left out.
        public var rejected: Int { rejectedByReason.values.reduce(0, +) }
    }

    /// One file per entry, in the order read.
    public var files: [FileSummary] = []
    /// The first rejections, with file, line and reason (at most ``keptRejectionLimit``).
    public var rejections: [Rejection] = []
    /// How many rejections are kept with their line.
    public static let keptRejectionLimit = 1_000

    /// Listings loaded, over all files.
    public var listingsLoaded = 0
    /// Calendar rows loaded, over all files.
    public var calendarRowsLoaded = 0
    /// Listings loaded with fees (from their columns or a `fees.csv`).
    public var listingsWithFees = 0

    /// Fields left out of records that were loaded (a malformed amenities list: the listing loads
    /// without amenities), with the first of them by file and line.
    public var rejectedFieldCount = 0
    public var fieldRejections: [Rejection] = []

    /// Files read beside the data that could not be used (a malformed `neighbourhoods.geojson`): the
    /// load goes on without them.
    public var warnings: [String] = []

    /// Records left out, over all files.
    public var rejectedCount: Int { files.reduce(0) { $0 + $1.rejected } }
    /// Records read, over all files.
    public var recordsRead: Int { files.reduce(0) { $0 + $1.recordsRead } }

    mutating func rejectField(fileIndex: Int, line: Int, reason: Rejection.Reason, detail: String) {
        rejectField(path: files[fileIndex].path, line: line, reason: reason, detail: detail)
    }

    mutating func rejectField(path: String, line: Int, reason: Rejection.Reason, detail: String) {
        rejectedFieldCount += 1
        if fieldRejections.count < LoadReport.keptRejectionLimit {
            fieldRejections.append(Rejection(path: path, line: line, reason: reason, detail: detail))
        }
    }

    mutating func reject(fileIndex: Int, line: Int, reason: Rejection.Reason, detail: String) {
        files[fileIndex].rejectedByReason[reason.rawValue, default: 0] += 1
        if rejections.count < LoadReport.keptRejectionLimit {
            rejections.append(Rejection(path: files[fileIndex].path, line: line, reason: reason, detail: detail))
        }
    }
}

/// A record left out of an index, and why.
public struct Rejection: Sendable, Equatable, CustomStringConvertible {
    /// The kinds of reasons, for counting.
    public enum Reason: String, Sendable {
        case malformedCSV = "malformed CSV"
        case fieldCount = "wrong number of fields"
        case badID = "id does not parse"
        case duplicateListing = "duplicate listing id"
        case badRoomType = "room_type is empty"
        case badNumber = "a number does not parse"
        case badPrice = "price does not parse"
        case badDate = "date does not parse"
        case badAvailability = "available is not t or f"
        case unknownListing = "calendar row for an unknown listing"
        case duplicateDate = "duplicate calendar date"
        case other = "cannot be indexed"
        case malformedAmenities = "amenities is not a list of names"
        case badFee = "a fee does not parse"
        case feesForUnknownListing = "fees for an unknown listing"
    }

    /// The file.
    public var path: String
    /// The line the record starts on.
    public var line: Int
    /// The kind of reason.
    public var reason: Reason
    /// The reason with the offending value.
    public var detail: String

    /// `path:line: detail`.
    public var description: String { "\(path):\(line): \(detail)" }
}
