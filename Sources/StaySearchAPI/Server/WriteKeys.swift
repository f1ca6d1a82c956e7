/// The keys that may write through the server (`POST /v1/changes`), from a file of one key a line. A request
/// names its key as `Authorization: Bearer KEY`; keys are compared in constant time and never logged.
package struct WriteKeys: Sendable {
    /// What a request's `Authorization` header is worth.
    package enum Verdict: Equatable, Sendable {
        case allowed
        /// No `Authorization: Bearer …` header: 401.
        case missing
        /// A key that is not one of these: 403.
        case wrong
    }

    /// The shortest key taken: a short key is guessed.
    package static let shortestKey = 16

    private let keys: [[UInt8]]

    /// Keys from the lines of a key file: blank lines and lines starting with `#` are left out.
    /// - Throws: ``InputError`` naming the line of a key that is too short or holds a space, or when no key is left.
    package init(fileText: String, path: String) throws(InputError) {
        var keys: [[UInt8]] = []
        // Lines end at "\n" or "\r\n" (one Character in Swift).
        for (number, key) in fileText.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            if key.allSatisfy({ $0 == " " || $0 == "\t" }) || key.hasPrefix("#") { continue }
            guard key.utf8.count >= Self.shortestKey, !key.contains(where: { $0 == " " || $0 == "\t" }) else {
                throw InputError("\(path):\(number + 1): a write key must be at least \(Self.shortestKey) characters without spaces")
            }
            keys.append(Array(key.utf8))
        }
        guard !keys.isEmpty else { throw InputError("\(path): no write key in the file (one key a line)") }
        self.keys = keys
    }

    /// The verdict on a request's `Authorization` header (nil when it has none).
    package func verdict(authorization: String?) -> Verdict {
        guard let authorization else { return .missing }
        let scheme = "bearer "
        guard authorization.utf8.count > scheme.utf8.count,
              authorization.prefix(scheme.count).lowercased() == scheme else { return .missing }
        let given = Array(authorization.utf8.dropFirst(scheme.utf8.count))
        // Every key is compared whole, whatever matched before: the time taken does not say how much of a key
        // was right.
        var matched = false
        for key in keys { matched = Self.equalInConstantTime(given, key) || matched }
        return matched ? .allowed : .wrong
    }

    /// Whether `given` equals `key`, in a time that depends only on the key's length.
    private static func equalInConstantTime(_ given: [UInt8], _ key: [UInt8]) -> Bool {
        var difference = UInt8(given.count == key.count ? 0 : 1)
        for index in 0..<key.count {
            difference |= key[index] ^ (index < given.count ? given[index] : ~key[index])
        }
        return difference == 0
    }
}
