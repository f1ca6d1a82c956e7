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
    case unknownPropertyType(String, suggestions: [String])
    case unknownAmenity(String, suggestions: [String])
    case invalidCoordinate(field: String, value: Double)
    case boxSouthAboveNorth(south: Double, north: Double)
    case invalidRadius(Double)
    case radiusWithoutCentre
    case distanceSortWithoutCentre
    case invalidBathrooms(Double)
    case unknownFacet(String)
    case flexibleDaysWithoutDates
    case weekdaysWithoutWindow
    case windowWithExactDates
    case windowIncomplete(missing: String)
    case windowInverted(from: Day, to: Day)
    case windowTooLong(days: Int)
    case noCheckInOnWeekdays(from: Day, to: Day, weekdays: [String])
    case unknownWeekday(String)
    case checkInBeforeToday(checkIn: Day, today: Day)
    case outsideCalendar(checkIn: Day, checkOut: Day, first: Day, last: Day)
    /// A stay of the query would check in before ``Day/earliest`` or check out after ``Day/latest``.
    case beyondDateBounds(nights: Int)

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
        case let .unknownPropertyType(name, suggestions):
            return "unknown property type '\(name)'\(QueryError.hint(suggestions, list: "staysearch property-types"))"
        case let .unknownAmenity(name, suggestions):
            return "unknown amenity '\(name)'\(QueryError.hint(suggestions, list: "staysearch amenities --prefix …"))"
        case let .invalidCoordinate(field, value):
            let limit = field.contains("lon") || field.contains("west") || field.contains("east") ? 180 : 90
            return "\(field) \(value) is not a coordinate from -\(limit) to \(limit) degrees"
        case let .boxSouthAboveNorth(south, north):
            return "bbox south \(south) is above north \(north); give SOUTH,WEST,NORTH,EAST"
        case let .invalidRadius(radius):
            return "radius km must be a number above 0 and at most 20,038 (got \(radius))"
        case .radiusWithoutCentre:
            return "radius km given without near; give near LAT,LON as well"
        case .distanceSortWithoutCentre:
            return "sort distance needs near LAT,LON"
        case let .unknownFacet(name):
            return "unknown facet '\(name)'; use any of: \(Facet.allCases.map(\.rawValue).joined(separator: ", "))"
        case .flexibleDaysWithoutDates:
            return "flexible days needs checkin and checkout (the stay that may move)"
        case .weekdaysWithoutWindow:
            return "checkin weekdays needs a window: checkin from, checkin to and nights"
        case .windowWithExactDates:
            return "give either checkin and checkout (with flexible days) or a window (checkin from, checkin to, nights), not both"
        case let .windowIncomplete(missing):
            return "a check-in window needs checkin from, checkin to and nights; \(missing) is missing"
        case let .windowInverted(from, to):
            return "checkin to \(to) is before checkin from \(from)"
        case let .windowTooLong(days):
            return "a check-in window may have at most \(SearchQuery.largestWindow) days (got \(days))"
        case let .noCheckInOnWeekdays(from, to, weekdays):
            return "no day from \(from) to \(to) is a \(weekdays.joined(separator: " or ")); widen the window or the weekdays"
        case let .checkInBeforeToday(checkIn, today):
            return "check-in \(checkIn) is before today (\(today)): a stay starts today or later"
        case let .outsideCalendar(checkIn, checkOut, first, last):
            return "no stay from \(checkIn) to \(checkOut) is within the data's calendars, which cover the nights of \(first) to \(last)"
        case let .beyondDateBounds(nights):
            return "a stay must lie from \(Day.earliest) to \(Day.latest), the dates staysearch takes: one of \(nights) "
                + "night\(nights == 1 ? "" : "s") checks in by \(Day.latest.advanced(by: -nights)) at the latest"
        case let .unknownWeekday(name):
            return "unknown weekday '\(name)'; use mon, tue, wed, thu, fri, sat, sun"
        case let .invalidBathrooms(value):
            return "bathrooms must be 0 or more in halves, e.g. 1 or 1.5 (got \(value))"
        }
    }

    private static func hint(_ suggestions: [String], list: String) -> String {
        suggestions.isEmpty ? "; see '\(list)'" : "; did you mean \(suggestions.map { "'\($0)'" }.joined(separator: ", "))?"
    }
}
