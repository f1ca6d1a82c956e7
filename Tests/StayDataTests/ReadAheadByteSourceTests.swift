import Foundation
import StayData
import StaySearch
import StaySearchTestSupport
import Testing

/// Bytes handed out in pieces, then an error.
private final class FailingByteSource: ByteSource {
    private var left: Int
    private(set) var bytesConsumed = 0

    init(bytes: Int) { left = bytes }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(DataError) -> Int {
        guard left > 0 else { throw .cannotRead(path: "broken.gz", reason: "not valid gzip data") }
        let count = min(left, buffer.count, 1_000)
        for index in 0..<count { buffer[index] = UInt8(truncatingIfNeeded: bytesConsumed + index) }
        left -= count
        bytesConsumed += count
        return count
    }
}

/// Endless bytes, counting the sources let go: the reading thread holds its source until it stops.
private final class EndlessByteSource: ByteSource, @unchecked Sendable {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var released = 0
    private(set) var bytesConsumed = 0

    static var releasedCount: Int { lock.withLock { released } }

    deinit { Self.lock.withLock { Self.released += 1 } }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(DataError) -> Int {
        let count = min(buffer.count, 10)
        for index in 0..<count { buffer[index] = UInt8(ascii: "x") }
        bytesConsumed += count
        return count
    }
}

@Suite struct ReadAheadByteSourceTests {
    private func drain(_ source: any ByteSource, readSize: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: readSize)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { return bytes }
            bytes += buffer[0..<count]
        }
    }

    /// The bytes come out as the source gives them, whatever the chunk, depth and read sizes.
    @Test(arguments: [(1, 2, 7), (5, 2, 3), (64, 3, 1_000), (4_096, 4, 100), (1 << 20, 4, 1 << 16)])
    func givesTheSourcesBytesInOrder(chunk: Int, depth: Int, readSize: Int) throws {
        var random = SeededGenerator(seed: UInt64(chunk))
        let text = String((0..<20_000).map { _ in Character(UnicodeScalar(UInt8.random(in: 32...126, using: &random))) })
        let reader = ReadAheadByteSource(MemoryByteSource(text, piece: 333), chunkSize: chunk, depth: depth)
        #expect(try drain(reader, readSize: readSize) == Array(text.utf8))
        #expect(reader.bytesConsumed == 20_000)
    }

    /// A gzip file read ahead is the same as read in the caller's thread.
    @Test func gzipReadAheadMatchesInline() throws {
        let path = dataFolder + "/antwerp/calendar.csv.gz"
        let inline = try drain(GzipByteSource(file: FileByteSource(path: path)), readSize: 1 << 16)
        let ahead = try openByteSource(path: path)
        #expect(ahead is ReadAheadByteSource)
        #expect(ahead.fileSize == (try FileByteSource(path: path)).size)
        #expect(try drain(ahead, readSize: 50_000) == inline)
        #expect(inline.count > 40_000_000)
    }

    /// An error comes after every byte read before it.
    @Test func anErrorComesAfterTheBytesBeforeIt() throws {
        let reader = ReadAheadByteSource(FailingByteSource(bytes: 12_345), chunkSize: 4_000, depth: 2)
        var buffer = [UInt8](repeating: 0, count: 2_500)
        var total = 0
        let error = #expect(throws: DataError.self) {
            while true {
                let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
                #expect(count > 0)
                total += count
            }
        }
        #expect(total == 12_345)
        #expect(error?.description.contains("not valid gzip data") == true)
    }

    /// A reader let go before the end stops its thread instead of waiting forever: every source of an
    /// endless stream is let go (by its stopped thread) soon after its reader.
    @Test func releasingEarlyStops() throws {
        let before = EndlessByteSource.releasedCount
        for round in 0..<200 {
            let reader = ReadAheadByteSource(EndlessByteSource(), chunkSize: 64, depth: 2)
            var buffer = [UInt8](repeating: 0, count: round % 50 + 1)
            #expect(try buffer.withUnsafeMutableBytes { try reader.read(into: $0) } > 0)
        }
        let deadline = Date().addingTimeInterval(20)
        while EndlessByteSource.releasedCount - before < 200, Date() < deadline { usleep(10_000) }
        #expect(EndlessByteSource.releasedCount - before == 200)
    }
}
