/// Why a live change was rejected; a rejected change changes nothing.
public enum ChangeError: Error, Equatable, CustomStringConvertible {
    case unknownListing(Int64)
    case noNights(from: Day, to: Day)
    case outsideIndexCalendar(from: Day, to: Day, first: Day, end: Day)
    case notBookable(id: Int64, reasons: [String])
    case nightCannotOpen(day: Day, status: NightStatus)
    case invalidStayRule(minimum: Int32, maximum: Int32)
    case invalidField(String)
    case newListingIncomplete(id: Int64, missing: [String])
    case nightsBeforeToday(from: Day, today: Day)

    /// One line that says what is wrong.
    public var description: String {
        switch self {
        case let .unknownListing(id):
            return "no listing with id \(id)"
        case let .noNights(from, to):
            return "the nights from \(from) to \(to) are none; the end must be after the start"
        case let .outsideIndexCalendar(from, to, first, end):
            return "the nights from \(from) to \(to) leave the index's calendar (\(first) to \(end), end exclusive)"
        case let .notBookable(id, reasons):
            return "listing \(id) cannot be booked for that stay: \(reasons.joined(separator: "; "))"
        case let .nightCannotOpen(day, status):
            return "the night of \(day) cannot become available: it is \(status == .unpriced ? "unpriced" : status.rawValue)"
        case let .invalidStayRule(minimum, maximum):
            return "minimum_nights \(minimum) and maximum_nights \(maximum) allow no stay (the minimum must be at least 1 and not above the maximum)"
        case let .invalidField(reason):
            return reason
        case let .nightsBeforeToday(from, today):
            return "the nights from \(from) start before today (\(today)): past nights cannot be changed"
        case let .newListingIncomplete(id, missing):
            return "listing \(id) is new and needs \(missing.joined(separator: ", ")) to be added"
        }
    }
}
