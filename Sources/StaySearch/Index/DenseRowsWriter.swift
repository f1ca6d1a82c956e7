/// Collects the day-by-day price codes of dense rows as they come, row after row, and lays them out
/// day-major at the end (see ``NightPrices``) with little more memory than the result: rows wait in
/// row-major chunks, and each chunk is freed as soon as it is copied into place.
struct DenseRowsWriter {
    let dayCount: Int
    /// Full chunks of ``rowsPerChunk`` rows each, and the chunk being filled.
    private var chunks: [[UInt16]] = []
    private var current: [UInt16] = []
    /// How many rows have been appended.
    private(set) var rowCount = 0

    /// Rows per chunk: large enough that copying a chunk reads long stretches, small enough to be a
    /// small share of the result.
    static let rowsPerChunk = 4_096

    init(dayCount: Int) {
        self.dayCount = dayCount
    }

    /// Appends the next dense row: `dayCount` codes, day 0 first.
    mutating func append(_ codes: [UInt16]) {
        precondition(codes.count == dayCount, "a dense row is one code a day")
        if current.isEmpty { current.reserveCapacity(DenseRowsWriter.rowsPerChunk * dayCount) }
        current.append(contentsOf: codes)
        rowCount += 1
        if rowCount % DenseRowsWriter.rowsPerChunk == 0 {
            chunks.append(current)
            current = []
        }
    }

    /// The codes day-major: day *d* of row *k* at `d × rowCount + k`. Leaves the writer empty.
    mutating func finish() -> Column<UInt16> {
        if !current.isEmpty {
            chunks.append(current)
            current = []
        }
        let rows = rowCount
        let total = rows * dayCount
        guard total > 0 else {
            chunks = []
            return Column([])
        }
        let buffer = ColumnBuffer(byteCount: total * MemoryLayout<UInt16>.stride, alignment: 8)
        let target = buffer.pointer.bindMemory(to: UInt16.self, capacity: total)
        var firstRow = 0
        for index in chunks.indices {
            let chunk = chunks[index]
            chunks[index] = []          // the last reference: the chunk is freed after this copy
            let chunkRows = chunk.count / dayCount
            chunk.withUnsafeBufferPointer { source in
                for row in 0..<chunkRows {
                    var position = firstRow + row
                    for day in 0..<dayCount {
                        target[position] = source[row * dayCount + day]
                        position += rows
                    }
                }
            }
            firstRow += chunkRows
        }
        chunks = []
        return Column(owning: buffer, count: total)
    }
}
