import StayData
import StaySearch

/// An error as the API answers it: a stable ``ErrorCode`` and a message for people. Its JSON is
/// `{"error": MESSAGE, "message": MESSAGE, "code": CODE, "type": KIND}` — `error` kept for clients that read
/// only the message — with the code's HTTP status.
package struct APIError: Error, Sendable, Equatable {
    package var code: ErrorCode
    package var message: String

    package init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The answer to an internal failure: it says only that something went wrong (the caller logs the details).
    package static let internalError = APIError(.internalError, "something went wrong on the server; its log has the details")

    /// The error of a request that could not be answered: a query, a flag or a line that is not right, or a
    /// change the index refuses. Errors of other kinds are internal: their text is shown only when
    /// `revealing` (the command line, whose user is the operator), else ``internalError``'s message.
    package init(_ error: any Error, revealing: Bool = false) {
        switch error {
        case let error as APIError: self = error
        case let error as InputError: self.init(error.code, error.message)
        case let error as QueryError:
            switch error {
            case .unknownRegion: self.init(.unknownRegion, error.description)
            case .checkInBeforeToday: self.init(.checkInBeforeToday, error.description)
            case .outsideCalendar: self.init(.datesOutsideCalendar, error.description)
            default: self.init(.invalidParameter, error.description)
            }
        case let error as ChangeError: self.init(error)
        case let error as DataError: self.init(.invalidParameter, error.description)
        case let error as StyleError: self.init(.invalidParameter, error.description)
        case let failure as CommandFailure where revealing: self.init(.internalError, failure.message)
        default: self = revealing ? APIError(.internalError, "\(error)") : .internalError
        }
    }

    /// The error of a change the listing's state refuses.
    package init(_ error: ChangeError) {
        let code: ErrorCode
        switch error {
        case .unknownListing: code = .listingNotFound
        case .noNights, .outsideIndexCalendar: code = .nightsOutsideCalendar
        case .nightsBeforeToday: code = .nightsBeforeToday
        case .notBookable, .nightCannotOpen: code = .nightsNotAvailable
        case .invalidStayRule: code = .invalidStayRule
        case .invalidField: code = .invalidChange
        case .newListingIncomplete: code = .listingIncomplete
        }
        self.init(code, error.description)
    }

    /// The HTTP status.
    package var status: Int { code.status }

    /// The answer's fields, written into an object already begun (so that other fields can follow).
    package func fields(into json: inout JSONWriter) {
        json.field("error", string: message)
        json.field("message", string: message)
        json.field("code", string: code.rawValue)
        json.field("type", string: code.kind.rawValue)
    }

    /// The answer as one JSON object.
    package var json: String {
        var json = JSONWriter()
        json.beginObject()
        fields(into: &json)
        json.endObject()
        return json.text
    }
}
