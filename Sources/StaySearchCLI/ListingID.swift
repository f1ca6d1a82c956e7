import StaySearchAPI
import ArgumentParser
import StaySearch

/// Listing ids on the command line.
enum ListingID {
    /// Parses an id argument.
    static func parse(_ text: String) throws -> Int64 {
        guard let id = Int64(text) else { throw ValidationError("'\(text)' is not a listing id (a number)") }
        return id
    }

    /// The row of listing `id`, or the error a person sees when there is none.
    static func row(of id: Int64, in index: ListingIndex) throws -> Int {
        guard let row = index.row(ofListingID: id) else {
            throw CommandFailure(message: "no listing has id \(id)", code: ExitStatus.badInput)
        }
        return row
    }
}
