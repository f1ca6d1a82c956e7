/// Why a query cannot be answered, with a message a person can act on.
public enum QueryError: Error, Equatable, CustomStringConvertible {
    case emptyRegion
    case unknownRegion(String, suggestions: [String])
    case unknownRoomType(String, known: [String])
    case unknownSort(String)
    case checkInMissing
    case checkOutMissing
    case checkOutNotAfterCheckIn(checkIn: Day, checkOut: Day)
    case malformedDate(field: String, text: String)
    case malformedPrice(field: String, text: String)
    case tooFewAdults(Int)
    case tooManyGuests(Int)
    case negative(field: String, value: Int)
    case infantsOutOfRange(Int)
    case minimumPriceAboveMaximum(Money, Money)
    case outOfRange(field: String, value: Int, range: ClosedRange<Int>)
    case histogramBoundsInverted(Money, Money)

    /// One line that says what is wrong and how to put it right.
    public var description: String {
        switch self {
        case .emptyRegion:
            return "region is empty; name a city, neighbourhood group or neighbourhood (see 'staysearch regions')"
        case let .unknownRegion(name, suggestions):
            let hint = suggestions.isEmpty ? "" : "; did you mean \(suggestions.map { "'\($0)'" }.joined(separator: ", "))?"
            return "unknown region '\(name)'\(hint)"
        case let .unknownRoomType(name, known):
            return "unknown room type '\(name)'; use one of: \(known.map { "'\($0)'" }.joined(separator: ", "))"
        case let .unknownSort(name):
            return "unknown sort '\(name)'; use one of: \(SortOrder.allCases.map(\.rawValue).joined(separator: ", "))"
        case .checkInMissing:
            return "checkout given without checkin; give both dates or neither"
        case .checkOutMissing:
            return "checkin given without checkout; give both dates or neither"
        case let .checkOutNotAfterCheckIn(checkIn, checkOut):
            return "checkout \(checkOut) must be after checkin \(checkIn) (at least one night)"
        case let .malformedDate(field, text):
            return "\(field) '\(text)' is not a date; use YYYY-MM-DD, e.g. 2024-07-12"
        case let .malformedPrice(field, text):
            return "\(field) '\(text)' is not a price; use a number of at most two decimals that is 0 or more, e.g. 120 or 99.50"
        case let .tooFewAdults(count):
            return "adults must be at least 1 (got \(count))"
        case let .tooManyGuests(count):
            return "\(count) guests is more than any listing takes"
        case let .negative(field, value):
            return "\(field) must be 0 or more (got \(value))"
        case let .infantsOutOfRange(count):
            return "infants must be from 0 to 5 (got \(count))"
        case let .minimumPriceAboveMaximum(minimum, maximum):
            return "min price \(minimum.decimalText) is above max price \(maximum.decimalText)"
        case let .outOfRange(field, value, range):
            return "\(field) must be from \(range.lowerBound) to \(range.upperBound) (got \(value))"
        case let .histogramBoundsInverted(minimum, maximum):
            return "hist max \(maximum.decimalText) must be above hist min \(minimum.decimalText)"
        }
    }
}
