/// The family an error belongs to, the `type` of its answer: what a client should do about it.
package enum ErrorKind: String, CaseIterable, Sendable {
    /// The request is wrong: change it before sending it again (400, 404, 405, 409, 413).
    case invalidRequest = "invalid_request"
    /// The request lacks a write key, or its key is not accepted (401, 403).
    case auth
    /// The service cannot answer now (a database away, a replica behind): the same request may succeed later (503).
    case system
    /// Something went wrong inside the service; its log says what (500).
    case `internal`
}
