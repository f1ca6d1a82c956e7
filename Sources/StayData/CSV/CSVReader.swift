/// Reads CSV (RFC 4180) records from a byte source, a chunk at a time, without copying fields.
///
/// Fields may be quoted; quoted fields may hold commas, doubled quotes, `\n` and `\r\n`. Records
/// end at `\n` or `\r\n`. Blank lines are skipped. A record that is not well-formed (a stray
/// character after a closing quote, a quote left open at the end of the file) is still handed
/// over, with ``CSVRecord/malformation`` saying what is wrong, so the caller can report it.
public final class CSVReader {
    private let source: any ByteSource
    private var buffer: UnsafeMutableRawBufferPointer
    /// Bytes of the buffer holding data; `position` is where the next record starts.
    private var filled = 0
    private var position = 0
    private var isAtEnd = false
    private var line = 1

    /// Creates a reader over `source`, reading `chunkSize` bytes at a time.
    public init(source: any ByteSource, chunkSize: Int = 1 << 22) {
        self.source = source
        self.buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(chunkSize, 64), alignment: 16)
    }

    deinit { buffer.deallocate() }

    /// Stop after the first record that ends at or after this many bytes from the source's start.
    public var stopOffset = Int.max
    /// Where the record that made the reader stop ends (bytes from the source's start); nil when
    /// it read to the end.
    public private(set) var stoppedAt: Int?
    /// The line the next record would start on.
    public var nextLine: Int { line }

    /// How many bytes of the underlying file have been consumed.
    public var bytesConsumed: Int { source.bytesConsumed }

    /// Calls `body` with each record in order.
    /// - Throws: what the source or `body` throws.
    public func forEachRecord(_ body: (CSVRecord) throws -> Void) throws {
        var spans = SpanBuffer()
        defer { spans.deallocate() }
        while true {
            let outcome = position < filled || isAtEnd
                ? CSVReader.parseRecord(in: bytes, from: position, isAtEnd: isAtEnd, spans: &spans)
                : .needMore
            switch outcome {
            case .end:
                return
            case .needMore:
                try refill()
            case .record(let end, let lines, let flaw):
                let recordLine = line
                line += lines
                position = end
                let isBlankLine = spans.count == 1 && spans.pointer[0].start == spans.pointer[0].end && flaw == nil
                    && !isQuotedEmpty(at: Int(spans.pointer[0].start))
                if !isBlankLine {
                    try body(CSVRecord(buffer: bytes, spans: UnsafeBufferPointer(start: spans.pointer, count: spans.count),
                                       line: recordLine, flaw: flaw))
                }
                if stopOffset != Int.max {
                    let recordEnd = source.bytesConsumed - filled + end
                    if recordEnd >= stopOffset {
                        stoppedAt = recordEnd
                        return
                    }
                }
            }
        }
    }

    private var bytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: UnsafePointer(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)), count: filled)
    }

    private func isQuotedEmpty(at start: Int) -> Bool {
        start > 0 && buffer[start - 1] == UInt8(ascii: "\"")
    }

    /// Moves the unparsed tail to the front and reads more, growing the buffer for huge records.
    private func refill() throws(DataError) {
        if position > 0 {
            let tail = filled - position
            if tail > 0 {
                buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + position, byteCount: tail)
            }
            filled = tail
            position = 0
        } else if filled == buffer.count {
            let bigger = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 16)
            bigger.baseAddress!.copyMemory(from: buffer.baseAddress!, byteCount: filled)
            buffer.deallocate()
            buffer = bigger
        }
        // Fill the buffer completely (or reach the end): a record is parsed again from its start
        // after each refill, so refills must be few even when the source hands out small pieces.
        while filled < buffer.count {
            let count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if count == 0 {
                isAtEnd = true
                break
            }
            filled += count
        }
    }

    private enum ParseOutcome {
        case record(end: Int, lines: Int, flaw: CSVRecord.Flaw?)
        case needMore
        case end
    }

    /// Parses one record of `bytes` starting at `start` into `spans`; `needMore` when the bytes end
    /// inside it before the end of input.
    private static func parseRecord(
        in bytes: UnsafeBufferPointer<UInt8>, from start: Int, isAtEnd: Bool, spans: inout SpanBuffer
    ) -> ParseOutcome {
        spans.count = 0
        let filled = bytes.count
        if start >= filled { return isAtEnd ? .end : .needMore }
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), newline = UInt8(ascii: "\n"), carriage = UInt8(ascii: "\r")
        var index = start
        var lines = 1
        var flaw: CSVRecord.Flaw?
        while true {
            // One field starts at `index`.
            if index < filled, bytes[index] == quote {
                let fieldStart = index + 1
                var cursor = fieldStart
                var hasEscapes = false
                var closed = false
                while cursor < filled {
                    let byte = bytes[cursor]
                    if byte == quote {
                        if cursor + 1 < filled, bytes[cursor + 1] == quote {
                            hasEscapes = true
                            cursor += 2
                            continue
                        }
                        if cursor + 1 == filled, !isAtEnd { return .needMore }
                        closed = true
                        break
                    }
                    if byte == newline { lines += 1 }
                    cursor += 1
                }
                if !closed {
                    guard isAtEnd else { return .needMore }
                    spans.append(.init(start: Int32(truncatingIfNeeded: fieldStart), end: Int32(truncatingIfNeeded: cursor), hasEscapedQuotes: hasEscapes))
                    return .record(end: filled, lines: lines, flaw: .quoteNotClosed)
                }
                spans.append(.init(start: Int32(truncatingIfNeeded: fieldStart), end: Int32(truncatingIfNeeded: cursor), hasEscapedQuotes: hasEscapes))
                index = cursor + 1
                // After the closing quote: a comma, the end of the record, or junk.
                var sawJunk = false
                while index < filled, bytes[index] != comma, bytes[index] != newline {
                    if !(bytes[index] == carriage && index + 1 < filled && bytes[index + 1] == newline) { sawJunk = true }
                    index += 1
                }
                if sawJunk, flaw == nil { flaw = .junkAfterClosingQuote }
            } else {
                let fieldStart = index
                index = endOfUnquotedField(in: bytes, from: index)
                var end = index
                if end > fieldStart, bytes[end &- 1] == carriage, index < filled || isAtEnd { end &-= 1 }
                spans.append(.init(start: Int32(truncatingIfNeeded: fieldStart), end: Int32(truncatingIfNeeded: end), hasEscapedQuotes: false))
            }
            if index >= filled {
                guard isAtEnd else { return .needMore }
                return .record(end: filled, lines: lines, flaw: flaw)
            }
            if bytes[index] == newline {
                return .record(end: index + 1, lines: lines, flaw: flaw)
            }
            index += 1      // past the comma
            if index >= filled, !isAtEnd { return .needMore }
        }
    }
}

extension CSVReader {
    /// Where the unquoted field starting at `start` ends: the first comma or `\n` at or after it, or the
    /// end of `bytes`.
    ///
    /// Eight bytes at a time: a byte can end a field only if it sorts below `-` (0x2D) — commas, line
    /// breaks, quotes, but also `$`, spaces and the like — so one word test finds the next such byte
    /// (ASCII bytes only; UTF-8 bytes have their high bit set and never end a field), and only those
    /// bytes are looked at one by one.
    @inline(__always)
    static func endOfUnquotedField(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let comma = UInt8(ascii: ","), newline = UInt8(ascii: "\n")
        let filled = bytes.count
        let base = UnsafeRawPointer(bytes.baseAddress!)
        var index = start
        while index &+ 8 <= filled {
            let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            // High bit of each byte: set where the byte is ASCII and below 0x2D (no carry crosses a byte:
            // 0x7F + 0x53 < 0x100).
            let low = ~(((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x5353_5353_5353_5353) | word) & 0x8080_8080_8080_8080
            if low == 0 {
                index &+= 8
                continue
            }
            index &+= low.trailingZeroBitCount &>> 3
            let byte = bytes[index]
            if byte == comma || byte == newline { return index }
            index &+= 1
        }
        while index < filled {
            let byte = bytes[index]
            if byte <= comma, byte == comma || byte == newline { return index }
            index &+= 1
        }
        return index
    }
}

/// The field spans of the record being parsed: a plain growable buffer, because this is the
/// innermost loop of every import.
struct SpanBuffer {
    var pointer: UnsafeMutablePointer<CSVRecord.Span>
    var count = 0
    var capacity = 256

    init() {
        pointer = .allocate(capacity: capacity)
    }

    func deallocate() { pointer.deallocate() }

    @inline(__always)
    mutating func append(_ span: CSVRecord.Span) {
        if count == capacity { grow() }
        pointer[count] = span
        count += 1
    }

    private mutating func grow() {
        let bigger = UnsafeMutablePointer<CSVRecord.Span>.allocate(capacity: capacity * 2)
        bigger.update(from: pointer, count: count)
        pointer.deallocate()
        pointer = bigger
        capacity *= 2
    }
}
