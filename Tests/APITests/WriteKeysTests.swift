import StaySearchAPI
import Testing

/// The write keys: the file's lines, and which headers they accept.
struct WriteKeysTests {
    static let key = "0123456789abcdef-key"

    @Test func acceptsExactlyTheKeysOfTheFile() throws {
        let keys = try WriteKeys(fileText: "# keys\n\n\(Self.key)\r\nsecond-key-of-the-file\n", path: "keys.txt")
        #expect(keys.verdict(authorization: "Bearer \(Self.key)") == .allowed)
        #expect(keys.verdict(authorization: "BEARER second-key-of-the-file") == .allowed)
        #expect(keys.verdict(authorization: nil) == .missing)
        #expect(keys.verdict(authorization: "Bearer ") == .missing)
        #expect(keys.verdict(authorization: "Token \(Self.key)") == .missing)
        #expect(keys.verdict(authorization: "Bearer \(Self.key.dropLast())") == .wrong)
        #expect(keys.verdict(authorization: "Bearer \(Self.key)0") == .wrong)
        #expect(keys.verdict(authorization: "Bearer \(Self.key.uppercased())") == .wrong)
        #expect(keys.verdict(authorization: "Bearer # keys") == .wrong)
    }

    @Test func refusesFilesWithoutGoodKeys() {
        #expect(throws: InputError("keys.txt: no write key in the file (one key a line)")) {
            try WriteKeys(fileText: "# nothing\n\n", path: "keys.txt")
        }
        #expect(throws: InputError("keys.txt:2: a write key must be at least 16 characters without spaces")) {
            try WriteKeys(fileText: "\(Self.key)\nshort\n", path: "keys.txt")
        }
        #expect(throws: InputError("keys.txt:1: a write key must be at least 16 characters without spaces")) {
            try WriteKeys(fileText: "a key with spaces in it\n", path: "keys.txt")
        }
    }
}
