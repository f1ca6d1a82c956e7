import StayData
import StaySearch
import StaySearchTestSupport
import Testing

/// Bytes from memory, handed out in pieces of a chosen size.
final class MemoryByteSource: ByteSource {
    private let bytes: [UInt8]
    private let piece: Int
    private(set) var bytesConsumed = 0

    init(_ text: String, piece: Int = 1 << 20) {
        bytes = Array(text.utf8)
        self.piece = piece
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(DataError) -> Int {
        let count = min(piece, buffer.count, bytes.count - bytesConsumed)
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + bytesConsumed, byteCount: count)
        }
        bytesConsumed += count
        return count
    }
}

struct ParsedRecord: Equatable {
    var fields: [String]
    var line: Int
    var malformation: String?
}

func parse(_ text: String, chunkSize: Int = 1 << 20, piece: Int = 1 << 20) throws -> [ParsedRecord] {
    let reader = CSVReader(source: MemoryByteSource(text, piece: piece), chunkSize: chunkSize)
    var records: [ParsedRecord] = []
    try reader.forEachRecord { record in
        records.append(ParsedRecord(fields: (0..<record.count).map { record.string(at: $0) }, line: record.line, malformation: record.malformation))
    }
    return records
}

@Suite struct CSVReaderTests {
    @Test func readsQuotedFieldsWithNewlinesAndQuotes() throws {
        let text = "id,name,price\r\n1,\"Loft, \"\"cosy\"\"\nsecond line\",\"$1,350.00\"\r\n2,plain,$70.00\n3,\"a\r\nb\",\n"
        let records = try parse(text)
        #expect(records == [
            ParsedRecord(fields: ["id", "name", "price"], line: 1),
            ParsedRecord(fields: ["1", "Loft, \"cosy\"\nsecond line", "$1,350.00"], line: 2),
            ParsedRecord(fields: ["2", "plain", "$70.00"], line: 4),
            ParsedRecord(fields: ["3", "a\r\nb", ""], line: 5),
        ])
    }

    @Test func handlesTheEndsOfFilesAndBlankLines() throws {
        #expect(try parse("a,b\n1,2") == [ParsedRecord(fields: ["a", "b"], line: 1), ParsedRecord(fields: ["1", "2"], line: 2)])
        #expect(try parse("a,b\n\n1,2\n\n") == [ParsedRecord(fields: ["a", "b"], line: 1), ParsedRecord(fields: ["1", "2"], line: 3)])
        #expect(try parse("") == [])
        #expect(try parse("a,\n") == [ParsedRecord(fields: ["a", ""], line: 1)])
        #expect(try parse("\"\"\n") == [ParsedRecord(fields: [""], line: 1)])
    }

    @Test func flagsMalformedRecordsAndGoesOn() throws {
        let records = try parse("a,b\n\"x\"y,2\n3,4\n\"open,5\n")
        #expect(records.count == 4)
        #expect(records[1].malformation == "unexpected characters after a closing quote")
        #expect(records[2] == ParsedRecord(fields: ["3", "4"], line: 3))
        #expect(records[3].malformation == "a quoted field is not closed before the end of the file")
    }

    /// Every chunk and read size gives the same records as reading all at once.
    @Test(arguments: [(64, 1), (64, 7), (65, 3), (100, 100), (4096, 13)])
    func chunkBoundariesDoNotMatter(chunkSize: Int, piece: Int) throws {
        var random = SeededGenerator(seed: UInt64(chunkSize * 31 + piece))
        let pieces = ["a", "bc", "", "\"q,uoted\"", "\"x\"\"y\"", "\"multi\nline\"", "\"crlf\r\nin\"", "Zürich", "\"\""]
        var text = ""
        var blankLines = 0
        for _ in 0..<300 {
            let record = (0..<Int.random(in: 1...5, using: &random)).map { _ in random.pick(pieces) }.joined(separator: ",")
            if record.isEmpty { blankLines += 1 }
            text += record + random.pick(["\n", "\r\n"])
        }
        #expect(try parse(text, chunkSize: chunkSize, piece: piece) == parse(text))
        #expect(try parse(text).count == 300 - blankLines)
    }
}

@Suite struct DateCacheTests {
    /// The cached parser agrees with the plain one on every date of several years and on near misses.
    @Test func agreesWithThePlainParser() {
        var cache = DateCache()
        func parse(_ text: String) -> Day? { Array(text.utf8).withUnsafeBufferPointer { cache.day($0) } }
        var day = Day(iso: "2023-12-25")!
        while day < Day(iso: "2025-03-10")! {
            #expect(parse(day.description) == day)
            day = day.advanced(by: 1)
        }
        for text in ["2024-02-29", "2023-02-29", "2024-02-30", "2024-04-31", "2024-04-00", "2024-13-01", "2024-4-01", "2024-04-1x",
                     "2024/04/01", "20240401", "2024-04-011", "2024-02-28", "2024-12-31", "2025-01-01"] {
            #expect(parse(text) == Day(iso: text), "\(text)")
        }
    }
}
