/// An Inside Airbnb folder to load, and the city its listings belong to.
public struct DatasetFolder: Sendable, Equatable {
    /// The city name (the files do not say it).
    public var city: String
    /// The folder's path.
    public var path: String

    /// Creates a dataset folder.
    public init(city: String, path: String) {
        self.city = city
        self.path = path
    }

    /// Parses `CITY=DIR` or `DIR`; a folder without a name uses the folder's own name as the city.
    /// - Throws: ``DataError/badDatasetArgument(_:)`` for an empty city or folder.
    public init(argument: String) throws(DataError) {
        if let equals = argument.firstIndex(of: "="), !argument[..<equals].contains("/") {
            city = String(argument[..<equals]).trimmingSpaces
            path = String(argument[argument.index(after: equals)...])
        } else {
            path = argument
            var trimmed = Substring(argument)
            while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
            city = String(trimmed.split(separator: "/").last ?? trimmed)
        }
        guard !city.isEmpty, !path.isEmpty, city != "." else { throw .badDatasetArgument(argument) }
    }
}
