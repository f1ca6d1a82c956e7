import StaySearch

/// The database that decides a replica's changes and whose change log the replica follows
/// (`serve --follow`): writes sent to the replica go there, and come back to every replica through the log.
package protocol SystemOfRecord: AnyObject, Sendable {
    /// Writes change lines (`POST /v1/changes`), each in its own transaction, and answers line by line with
    /// each accepted change's log position; a body of one line is answered with its own status (409 for a
    /// change the listing's state refuses).
    func write(_ lines: [String]) async -> SearchService.Answer

    /// `GET /healthz`: ready (200) only while this replica has caught up with the log within its bound.
    func health() -> SearchService.Answer

    /// Waits until the changes up to `position` are applied here, at most `timeout`.
    /// - Returns: whether they are.
    func waitUntilApplied(_ position: UInt64, timeout: Duration) async -> Bool

    /// The last log position applied here.
    var appliedPosition: UInt64 { get }

    /// The system of record's today at the applied position; nil before it announced one (the data's own
    /// date holds until then).
    var today: Day? { get }

    /// The platform's settings at the applied position (`db settings`): a fleet's replicas price with these.
    var platform: PlatformFees { get }
}
