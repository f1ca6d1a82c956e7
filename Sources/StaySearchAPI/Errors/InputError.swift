/// Why a piece of input (a batch or change line, a URL's query, a flag's value) is not what it should be.
package struct InputError: Error, Equatable {
    package var message: String
    /// How the API names it: a value that is wrong (the default), or a key that is not taken.
    package var code: ErrorCode

    package init(_ message: String, code: ErrorCode = .invalidParameter) {
        self.message = message
        self.code = code
    }
}
