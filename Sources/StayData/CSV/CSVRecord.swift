/// One record of a CSV file: a view of its fields, valid only inside the reader's callback.
public struct CSVRecord {
    /// Where each field lies in the buffer.
    struct Span {
        var start: Int32
        var end: Int32
        /// The field was quoted and holds doubled quotes that must be undone.
        var hasEscapedQuotes: Bool
    }

    let buffer: UnsafeBufferPointer<UInt8>
    let spans: UnsafeBufferPointer<Span>
    /// The line the record starts on (1 is the header).
    public let line: Int
    /// What is wrong with the record, if it is not well-formed (a code, not text: the record is made for
    /// every line of every file, and text would be counted references on each).
    let flaw: Flaw?

    /// Why a record is not well-formed CSV.
    enum Flaw {
        case junkAfterClosingQuote
        case quoteNotClosed

        var message: String {
            switch self {
            case .junkAfterClosingQuote: return "unexpected characters after a closing quote"
            case .quoteNotClosed: return "a quoted field is not closed before the end of the file"
            }
        }
    }

    /// Why the record is not well-formed CSV, if it is not (the fields are still given).
    public var malformation: String? { flaw?.message }

    init(buffer: UnsafeBufferPointer<UInt8>, spans: UnsafeBufferPointer<Span>, line: Int, flaw: Flaw?) {
        self.buffer = buffer
        self.spans = spans
        self.line = line
        self.flaw = flaw
    }

    /// The number of fields.
    public var count: Int { spans.count }

    /// The raw bytes of field `index`, without surrounding quotes. Doubled quotes inside a quoted
    /// field are still doubled; ``string(at:)`` undoes them.
    public func bytes(at index: Int) -> UnsafeBufferPointer<UInt8> {
        let span = spans[index]
        return UnsafeBufferPointer(rebasing: buffer[Int(span.start)..<Int(span.end)])
    }

    /// Whether field `index` is empty.
    public func isEmpty(at index: Int) -> Bool {
        spans[index].start == spans[index].end
    }

    /// Field `index` as text, with doubled quotes undone and invalid UTF-8 replaced.
    public func string(at index: Int) -> String {
        let raw = bytes(at: index)
        guard spans[index].hasEscapedQuotes else { return String(decoding: raw, as: UTF8.self) }
        var unescaped: [UInt8] = []
        unescaped.reserveCapacity(raw.count)
        var previousWasQuote = false
        for byte in raw {
            if byte == UInt8(ascii: "\""), previousWasQuote {
                previousWasQuote = false
                continue
            }
            previousWasQuote = byte == UInt8(ascii: "\"")
            unescaped.append(byte)
        }
        return String(decoding: unescaped, as: UTF8.self)
    }
}
