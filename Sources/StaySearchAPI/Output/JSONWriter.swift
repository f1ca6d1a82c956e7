/// Writes compact JSON into a string, one value at a time; numbers are written as given text so
/// that money stays exact.
package struct JSONWriter {
    package init() {}

    package private(set) var text = ""
    private var needsComma: [Bool] = [false]

    package mutating func beginObject() { separate(); text.append("{"); needsComma.append(false) }
    package mutating func endObject() { needsComma.removeLast(); text.append("}") }
    package mutating func beginArray() { separate(); text.append("["); needsComma.append(false) }
    package mutating func endArray() { needsComma.removeLast(); text.append("]") }

    package mutating func key(_ name: String) {
        separate()
        append(string: name)
        text.append(":")
        needsComma[needsComma.count - 1] = false
    }

    package mutating func string(_ value: String?) {
        separate()
        if let value { append(string: value) } else { text.append("null") }
    }

    /// A number already formatted as JSON, or `null`.
    package mutating func number(_ literal: String?) {
        separate()
        text.append(literal ?? "null")
    }

    package mutating func number(_ value: Int) { number(String(value)) }

    package mutating func field(_ name: String, string value: String?) { key(name); string(value) }
    package mutating func field(_ name: String, number value: String?) { key(name); number(value) }
    package mutating func field(_ name: String, number value: Int) { key(name); number(value) }
    package mutating func field(_ name: String, bool value: Bool) { key(name); number(value ? "true" : "false") }

    private mutating func separate() {
        if needsComma[needsComma.count - 1] { text.append(",") }
        needsComma[needsComma.count - 1] = true
    }

    private mutating func append(string: String) {
        text.append("\"")
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text.append("\\\"")
            case "\\": text.append("\\\\")
            case "\n": text.append("\\n")
            case "\r": text.append("\\r")
            case "\t": text.append("\\t")
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default: text.unicodeScalars.append(scalar)
            }
        }
        text.append("\"")
    }
}
