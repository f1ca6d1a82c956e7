/// Why data could not be read, with the file (and line) to look at.
public enum DataError: Error, Equatable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case cannotRead(path: String, reason: String)
    case missingFile(folder: String, name: String)
    case missingColumns(path: String, columns: [String])
    /// The folder's only listings file is Inside Airbnb's summary (18 columns, no capacity).
    case summaryListings(path: String)
    case emptyFile(path: String)
    case rejectedRecord(path: String, line: Int, reason: String)
    case badDatasetArgument(String)
    case badIndex(path: String, reason: String)
    case cannotWrite(path: String, reason: String)
    case malformedFile(path: String, reason: String)
    /// A today whose window would run past ``Day/latest`` (a wrong flag, not bad data: exit 64).
    case todayTooLate(String)

    /// One line that says what failed and where.
    public var description: String {
        switch self {
        case let .cannotOpen(path, reason): return "\(path): cannot open: \(reason)"
        case let .cannotRead(path, reason): return "\(path): cannot read: \(reason)"
        case let .missingFile(folder, name):
            return "\(folder): no \(name).csv or \(name).csv.gz here; an Inside Airbnb folder holds listings and calendar files"
        case let .missingColumns(path, columns):
            return "\(path):1: missing column\(columns.count == 1 ? "" : "s") \(columns.joined(separator: ", ")) in the header"
        case let .summaryListings(path):
            return "\(path): this is Inside Airbnb's summary listings file (18 columns, no capacity, amenities or stay rules); "
                + "download the detailed listings.csv.gz of the same city and date (\"Detailed Listings data\") into this folder"
        case let .emptyFile(path): return "\(path): the file is empty (no header line)"
        case let .rejectedRecord(path, line, reason): return "\(path):\(line): \(reason)"
        case let .badDatasetArgument(text): return "'\(text)' is not a dataset; use DIR or CITY=DIR"
        case let .badIndex(path, reason): return "\(path): not a usable index: \(reason)"
        case let .cannotWrite(path, reason): return "\(path): cannot write: \(reason)"
        case let .malformedFile(path, reason): return "\(path): \(reason)"
        case let .todayTooLate(reason): return reason
        }
    }
}
