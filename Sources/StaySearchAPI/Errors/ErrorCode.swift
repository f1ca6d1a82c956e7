/// Every error the API answers with, by a stable name a program can branch on: the `code` of an error answer.
/// Each has one HTTP status and one ``ErrorKind``; the OpenAPI document and docs/errors.md list them all
/// (docs/errors.md is made from this table and checked by a test).
package enum ErrorCode: String, CaseIterable, Sendable {
    case invalidParameter = "invalid_parameter"
    case unknownParameter = "unknown_parameter"
    case unknownRegion = "unknown_region"
    case checkInBeforeToday = "check_in_before_today"
    case datesOutsideCalendar = "dates_outside_calendar"
    case invalidListingID = "invalid_listing_id"
    case quoteTooLong = "quote_too_long"
    case invalidPosition = "invalid_position"
    case positionWithoutFollow = "position_without_follow"
    case invalidChange = "invalid_change"
    case nightsOutsideCalendar = "nights_outside_calendar"
    case nightsBeforeToday = "nights_before_today"
    case invalidStayRule = "invalid_stay_rule"
    case listingIncomplete = "listing_incomplete"
    case changesNeedSavedIndex = "changes_need_saved_index"
    case missingWriteKey = "missing_write_key"
    case invalidWriteKey = "invalid_write_key"
    case writesDisabled = "writes_disabled"
    case listingNotFound = "listing_not_found"
    case routeNotFound = "route_not_found"
    case methodNotAllowed = "method_not_allowed"
    case nightsNotAvailable = "nights_not_available"
    case bodyTooLarge = "body_too_large"
    case databaseUnreachable = "database_unreachable"
    case positionNotReached = "position_not_reached"
    case replicaNotReady = "replica_not_ready"
    case internalError = "internal_error"

    /// The HTTP status answered with this code.
    package var status: Int {
        switch self {
        case .invalidParameter, .unknownParameter, .unknownRegion, .checkInBeforeToday, .datesOutsideCalendar, .nightsBeforeToday, .invalidListingID, .quoteTooLong, .invalidPosition,
             .positionWithoutFollow, .invalidChange, .nightsOutsideCalendar, .invalidStayRule, .listingIncomplete,
             .changesNeedSavedIndex:
            return 400
        case .missingWriteKey: return 401
        case .invalidWriteKey, .writesDisabled: return 403
        case .listingNotFound, .routeNotFound: return 404
        case .methodNotAllowed: return 405
        case .nightsNotAvailable: return 409
        case .bodyTooLarge: return 413
        case .internalError: return 500
        case .databaseUnreachable, .positionNotReached, .replicaNotReady: return 503
        }
    }

    /// What a client should make of it.
    package var kind: ErrorKind {
        switch status {
        case 401, 403: return .auth
        case 500: return .internal
        case 503: return .system
        default: return .invalidRequest
        }
    }

    /// One sentence for the docs: when this code is answered.
    package var summary: String {
        switch self {
        case .invalidParameter: return "A key's value cannot be read or is out of its range, or keys contradict each other (checkout before checkin, a radius without near)."
        case .unknownParameter: return "The request names a key the route does not take; the message lists the keys it takes."
        case .unknownRegion: return "The region names no city, neighbourhood group or neighbourhood of the index; the message suggests close names."
        case .checkInBeforeToday: return "The check-in (or a window's last check-in) is before today: a stay starts today or later."
        case .datesOutsideCalendar: return "No stay of the query lies within the days the data's calendars cover; the message gives those days."
        case .nightsBeforeToday: return "A change touches nights before today: past nights are not changed."
        case .invalidListingID: return "The listing id in the path is not a whole number."
        case .quoteTooLong: return "A listing's quote would cover more nights than the server quotes at once."
        case .invalidPosition: return "min_position is not a change-log position (a whole number)."
        case .positionWithoutFollow: return "min_position was sent to a server that follows no database (serve without --follow)."
        case .invalidChange: return "A change line cannot be read: not a JSON object, an unknown op or key, a value of the wrong shape."
        case .nightsOutsideCalendar: return "A change's nights are none, or leave the days the index's calendars cover."
        case .invalidStayRule: return "A rules change allows no stay (a minimum of 0, or above the maximum)."
        case .listingIncomplete: return "A change adds a listing without the fields a new listing needs."
        case .changesNeedSavedIndex: return "Changes were sent to a server of CSV folders (serve --data): they need a saved index to be journalled beside."
        case .missingWriteKey: return "A write without the header Authorization: Bearer KEY."
        case .invalidWriteKey: return "A write whose key is not one of the server's."
        case .writesDisabled: return "A write to a server started without --write-key-file: it takes none."
        case .listingNotFound: return "No listing has that id."
        case .routeNotFound: return "No route has that path."
        case .methodNotAllowed: return "The path is served, with other methods (the Allow header lists them)."
        case .nightsNotAvailable: return "The listing's calendar refuses the change: a night booked, blocked or unpriced, a stay rule, too many guests, or a stay overlapping a booking."
        case .bodyTooLarge: return "The request body is over 10 MiB."
        case .databaseUnreachable: return "The database that decides writes cannot be reached or did not answer in time; a write may have been made (a booking sent again is refused if it was)."
        case .positionNotReached: return "This replica has not applied the changes up to min_position within 5 s; ask again or ask another replica."
        case .replicaNotReady: return "GET /healthz on a replica that has stopped following or is further behind the change log than --max-lag."
        case .internalError: return "Something went wrong inside the server; the message says only that, the server's log has the details."
        }
    }
}
