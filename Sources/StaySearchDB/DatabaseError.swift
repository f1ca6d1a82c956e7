import PostgresNIO

/// Why a database step failed, in one line for a person.
public enum DatabaseError: Error, CustomStringConvertible, Sendable {
    /// The URL cannot be read.
    case badAddress(String)
    /// The database cannot be reached or refused the connection.
    case unreachable(address: String, reason: String)
    /// The database is not in the state the step needs (not initialised, already loaded, another span…).
    case notReady(String)
    /// The request cannot be taken as asked (a clock set back or past the latest day it can take): exit 64.
    case refusedRequest(String)
    /// The data given cannot be taken (a scrape none of whose nights lies in the fleet's window): exit 65.
    case refusedData(String)
    /// A statement failed.
    case failed(step: String, reason: String)

    public var description: String {
        switch self {
        case .badAddress(let reason): return reason
        case let .unreachable(address, reason): return "cannot reach the database at \(address): \(reason)"
        case .notReady(let reason), .refusedRequest(let reason), .refusedData(let reason): return reason
        case let .failed(step, reason): return "\(step) failed: \(reason)"
        }
    }

    /// The server's SQLSTATE of `error`, when it is a PostgreSQL error.
    static func sqlState(of error: any Error) -> String? {
        (error as? PSQLError)?.serverInfo?[.sqlState]
    }

    /// A readable reason for `error`: the server's message when it sent one.
    static func reason(of error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                let detail = error.serverInfo?[.detail].map { " (\($0))" } ?? ""
                return message + detail
            }
            // A failed connection carries its cause: a refused port, a TLS handshake, a certificate.
            if let underlying = error.underlying { return "\(error.code): \(reason(of: underlying))" }
            return "\(error.code)"
        }
        return "\(error)".split(separator: "\n").joined(separator: " ")
    }
}
