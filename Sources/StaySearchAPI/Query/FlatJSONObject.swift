/// A JSON object whose values are strings, numbers, booleans, null, or arrays of those, read from one line.
/// Numbers keep their text so that prices stay exact.
package struct FlatJSONObject {
    /// A value of the object.
    package enum Value: Equatable {
        case string(String)
        case number(String)
        case bool(Bool)
        case null
        /// An array of strings, numbers, booleans or nulls (not of arrays or objects).
        case array([Value])
    }

    /// The keys in order, with their values.
    private(set) var entries: [(key: String, value: Value)] = []

    /// The object with these entries (keys once each).
    package init(entries: [(key: String, value: Value)]) {
        self.entries = entries
    }

    /// Parses `text`.
    /// - Throws: ``InputError`` naming what is wrong and where.
    package init(parsing text: String) throws(InputError) {
        var parser = Parser(bytes: Array(text.utf8))
        parser.skipSpace()
        try parser.expect(UInt8(ascii: "{"))
        parser.skipSpace()
        if parser.peek == UInt8(ascii: "}") {
            parser.position += 1
        } else {
            while true {
                parser.skipSpace()
                let key = try parser.string()
                parser.skipSpace()
                try parser.expect(UInt8(ascii: ":"))
                parser.skipSpace()
                let value = try parser.value()
                if entries.contains(where: { $0.key == key }) { throw InputError("key '\(key)' appears twice") }
                entries.append((key, value))
                parser.skipSpace()
                if parser.peek == UInt8(ascii: ",") { parser.position += 1; continue }
                try parser.expect(UInt8(ascii: "}"))
                break
            }
        }
        parser.skipSpace()
        guard parser.position == parser.bytes.count else { throw InputError("unexpected text after the JSON object") }
    }

    private struct Parser {
        let bytes: [UInt8]
        var position = 0

        var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func skipSpace() {
            while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
        }

        mutating func expect(_ byte: UInt8) throws(InputError) {
            guard peek == byte else {
                let found = peek.map { "'\(String(decoding: [$0], as: UTF8.self))'" } ?? "the end of the line"
                throw InputError("not a JSON object: expected '\(String(decoding: [byte], as: UTF8.self))' at column \(position + 1), found \(found)")
            }
            position += 1
        }

        /// Whether an array is being read (arrays do not nest).
        var inArray = false

        mutating func array() throws(InputError) -> Value {
            try expect(UInt8(ascii: "["))
            inArray = true
            defer { inArray = false }
            var elements: [Value] = []
            skipSpace()
            if peek == UInt8(ascii: "]") { position += 1; return .array(elements) }
            while true {
                skipSpace()
                elements.append(try value())
                skipSpace()
                if peek == UInt8(ascii: ",") { position += 1; continue }
                try expect(UInt8(ascii: "]"))
                return .array(elements)
            }
        }

        mutating func value() throws(InputError) -> Value {
            guard let next = peek else { throw InputError("a value is missing at the end of the line") }
            switch next {
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try word("true"); return .bool(true)
            case UInt8(ascii: "f"): try word("false"); return .bool(false)
            case UInt8(ascii: "n"): try word("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(number())
            case UInt8(ascii: "["):
                guard !inArray else { throw InputError("arrays must hold strings or numbers, not arrays") }
                return try array()
            case UInt8(ascii: "{"): throw InputError("values must be strings, numbers or arrays, not objects")
            default: throw InputError("not a JSON value at column \(position + 1)")
            }
        }

        mutating func word(_ text: String) throws(InputError) {
            for byte in text.utf8 { try expect(byte) }
        }

        mutating func number() -> String {
            let start = position
            while let byte = peek, byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
                    || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || (byte >= 0x30 && byte <= 0x39) {
                position += 1
            }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }

        mutating func string() throws(InputError) -> String {
            try expect(UInt8(ascii: "\""))
            var scalars = String.UnicodeScalarView()
            var utf8: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
                utf8.removeAll()
            }
            while let byte = peek {
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    flush()
                    guard let escaped = peek else { break }
                    position += 1
                    switch escaped {
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "b"): scalars.append("\u{08}")
                    case UInt8(ascii: "f"): scalars.append("\u{0C}")
                    case UInt8(ascii: "u"):
                        guard position + 4 <= bytes.count,
                              let code = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
                        else { throw InputError("bad \\u escape in a string") }
                        position += 4
                        scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                    default: scalars.append(Unicode.Scalar(escaped))
                    }
                default:
                    utf8.append(byte)
                }
            }
            throw InputError("a string is not closed")
        }
    }
}
