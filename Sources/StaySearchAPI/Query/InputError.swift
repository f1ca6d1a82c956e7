/// Why a piece of input (a batch or change line, a URL's query, a flag's value) is not what it should be.
package struct InputError: Error, Equatable {
    package var message: String
    package init(_ message: String) { self.message = message }
}
