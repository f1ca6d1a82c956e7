/// Reads Inside Airbnb's `amenities` field: a JSON array of strings, e.g. `["Wifi", "Kitchen"]`, or in the
/// older files (2015–2020) PostgreSQL's array literal, `{Wifi,"Cable TV"}`.
package enum AmenityList {
    /// The strings of the array in `bytes`, trimmed, empty ones dropped; nil when the field is not a JSON
    /// array of strings.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> [String]? {
        var position = 0
        func skipSpace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }
        skipSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "[") else { return nil }
        position += 1
        var names: [String] = []
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
        } else {
            while true {
                skipSpace()
                guard let name = string(bytes, &position) else { return nil }
                let trimmed = name.trimmingSpaces
                if !trimmed.isEmpty { names.append(trimmed) }
                skipSpace()
                guard position < bytes.count else { return nil }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                guard bytes[position] == UInt8(ascii: "]") else { return nil }
                position += 1
                break
            }
        }
        skipSpace()
        guard position == bytes.count else { return nil }
        // Placeholders are rare: the list is copied only when it holds one.
        return names.contains(where: isPlaceholder) ? names.filter { !isPlaceholder($0) } : names
    }

    /// The names in `bytes` in either spelling: a `{…}` list (``parseBraces(_:)``) or a JSON array (``parse(_:)``).
    package static func parseEither(_ bytes: UnsafeBufferPointer<UInt8>) -> [String]? {
        for byte in bytes where !isSpace(byte) {
            return byte == UInt8(ascii: "{") ? parseBraces(bytes) : parse(bytes)
        }
        return parse(bytes)
    }

    /// The names of a list as the older Inside Airbnb files (2015–2020) write it, PostgreSQL's array literal:
    /// `{TV,"Cable TV",Internet}` (the field's CSV quotes already undone). A quoted name may hold commas and
    /// braces and escapes `"` and `\` with a backslash; unquoted names are trimmed, and an unquoted `NULL`
    /// is no name. Names are trimmed, and empty ones and the scraper's placeholders (``isPlaceholder(_:)``)
    /// dropped; nil when the field is not such a list.
    package static func parseBraces(_ bytes: UnsafeBufferPointer<UInt8>) -> [String]? {
        var position = 0
        func skipSpace() {
            while position < bytes.count, isSpace(bytes[position]) { position += 1 }
        }
        /// The byte at `position`, stepping over it; a backslash's next byte as itself.
        func escapedByte(into utf8: inout [UInt8]) -> Bool {
            let byte = bytes[position]
            position += 1
            guard byte == UInt8(ascii: "\\") else { utf8.append(byte); return true }
            guard position < bytes.count else { return false }
            utf8.append(bytes[position])
            position += 1
            return true
        }
        skipSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "{") else { return nil }
        position += 1
        var names: [String] = []
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
        } else {
            while true {
                skipSpace()
                guard position < bytes.count else { return nil }
                var utf8: [UInt8] = []
                if bytes[position] == UInt8(ascii: "\"") {
                    position += 1
                    while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
                        guard escapedByte(into: &utf8) else { return nil }
                    }
                    guard position < bytes.count else { return nil }
                    position += 1
                    skipSpace()
                    names.append(String(decoding: utf8, as: UTF8.self))
                } else {
                    while position < bytes.count, bytes[position] != UInt8(ascii: ","), bytes[position] != UInt8(ascii: "}") {
                        guard bytes[position] != UInt8(ascii: "{"), bytes[position] != UInt8(ascii: "\""),
                              escapedByte(into: &utf8) else { return nil }
                    }
                    let name = String(decoding: utf8, as: UTF8.self).trimmingSpaces
                    guard !name.isEmpty else { return nil }
                    if name != "NULL" { names.append(name) }
                }
                guard position < bytes.count else { return nil }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                guard bytes[position] == UInt8(ascii: "}") else { return nil }
                position += 1
                break
            }
        }
        skipSpace()
        guard position == bytes.count else { return nil }
        return names.map(\.trimmingSpaces).filter { !$0.isEmpty && !isPlaceholder($0) }
    }

    /// Whether `name` is a placeholder the scraper wrote for an amenity it could not name
    /// (`translation missing: en.hosting_amenity_49`), which no guest would look for.
    package static func isPlaceholder(_ name: String) -> Bool {
        name.utf8.starts(with: placeholderPrefix)
    }

    private static let placeholderPrefix = Array("translation missing:".utf8)

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The JSON string starting at `position`, escapes decoded; nil when it is not one.
    private static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ position: inout Int) -> String? {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return nil }
        position += 1
        // Most names have no escapes: made straight from the bytes up to the closing quote.
        var end = position
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 { end += 1 }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            defer { position = end + 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self)
        }
        var utf8: [UInt8] = []
        var pendingHighSurrogate: UInt32?
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: "\"") {
                return pendingHighSurrogate == nil ? String(decoding: utf8, as: UTF8.self) : nil
            }
            guard byte == UInt8(ascii: "\\") else {
                guard byte >= 0x20, pendingHighSurrogate == nil else { return nil }
                utf8.append(byte)
                continue
            }
            guard position < bytes.count else { return nil }
            let escaped = bytes[position]
            position += 1
            var scalar: UInt32
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalar = UInt32(escaped)
            case UInt8(ascii: "n"): scalar = 0x0A
            case UInt8(ascii: "t"): scalar = 0x09
            case UInt8(ascii: "r"): scalar = 0x0D
            case UInt8(ascii: "b"): scalar = 0x08
            case UInt8(ascii: "f"): scalar = 0x0C
            case UInt8(ascii: "u"):
                guard position + 4 <= bytes.count,
                      let code = UInt32(String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<position + 4]), as: UTF8.self), radix: 16)
                else { return nil }
                position += 4
                scalar = code
            default: return nil
            }
            if let high = pendingHighSurrogate {
                guard (0xDC00...0xDFFF).contains(scalar) else { return nil }
                scalar = 0x10000 + ((high - 0xD800) << 10) + (scalar - 0xDC00)
                pendingHighSurrogate = nil
            } else if (0xD800...0xDBFF).contains(scalar) {
                pendingHighSurrogate = scalar
                continue
            } else if (0xDC00...0xDFFF).contains(scalar) {
                return nil
            }
            guard let unicode = Unicode.Scalar(scalar) else { return nil }
            utf8.append(contentsOf: String(Character(unicode)).utf8)
        }
        return nil
    }
}
