/// Exit statuses.
package enum ExitStatus {
    /// A wrong flag, a malformed value, an invalid query.
    package static let badInput: Int32 = 64
    /// Data that cannot be read.
    package static let badData: Int32 = 65
    /// A service (the database) that cannot be reached.
    package static let unavailable: Int32 = 69
}

/// A failure of the CLI itself, with its message and exit status.
package struct CommandFailure: Error {
    package var message: String
    package var code: Int32 = 1

    package init(message: String, code: Int32 = 1) {
        self.message = message
        self.code = code
    }
}
