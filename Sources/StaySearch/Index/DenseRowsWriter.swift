/// Collects the values of dense rows (a day-by-day price row's running sums, or their carries: see
/// ``NightPrices``) as they come, row after row, and lays them out day-major at the end with little more memory than the result:
/// rows wait in row-major chunks, and each chunk is freed as soon as it is copied into place.
///
/// Given a ``SpillStore``, each full chunk goes to the store instead of waiting in memory, and the
/// day-major table is written there and mapped: the rows never take memory of their own beyond a few
/// chunks, however many there are.
package struct DenseRowsWriter<Code: FixedWidthInteger & BitwiseCopyable> {
    let valuesPerRow: Int
    /// Where full chunks go, or nil to keep them in memory.
    private let store: (any SpillStore)?
    /// Full chunks of ``rowsPerChunk`` rows each: in memory (empty once spilled), and where each was
    /// spilled (-1: in memory).
    private var chunks: [[Code]] = []
    private var spilledAt: [Int] = []
    /// How many rows each full chunk holds (``rowsPerChunk`` but for the last).
    private var chunkRowCounts: [Int] = []
    /// The chunk being filled.
    private var current: [Code] = []
    /// How many rows have been appended.
    private(set) var rowCount = 0
    /// The first error the store gave while chunks were spilled; the chunk stayed in memory.
    private(set) var spillFailure: (any Error)?

    /// Rows per chunk: large enough that copying a chunk reads long stretches, small enough to be a
    /// small share of the result (4,096 unless a test wants many chunks).
    let rowsPerChunk: Int

    /// Chunks laid out together when the table is written to a store: 8, day stripes of 64 KiB a write.
    let chunksPerGroup: Int

    package init(valuesPerRow: Int, store: (any SpillStore)? = nil, rowsPerChunk: Int = 4_096, chunksPerGroup: Int = 8) {
        self.valuesPerRow = valuesPerRow
        self.store = store
        self.rowsPerChunk = rowsPerChunk
        self.chunksPerGroup = chunksPerGroup
    }

    /// Appends the next dense row: `valuesPerRow` values, day 0 first.
    package mutating func append(_ codes: [Code]) {
        precondition(codes.count == valuesPerRow, "a dense row is one value a day and one more")
        if current.isEmpty { current.reserveCapacity(rowsPerChunk * valuesPerRow) }
        current.append(contentsOf: codes)
        rowCount += 1
        if rowCount % rowsPerChunk == 0 { closeChunk() }
    }

    /// Moves the chunk being filled to the full ones, spilled when there is a store.
    private mutating func closeChunk() {
        guard !current.isEmpty else { return }
        chunkRowCounts.append(current.count / valuesPerRow)
        if let store, spillFailure == nil {
            do {
                let offset = try current.withUnsafeBytes { try store.append($0) }
                chunks.append([])
                spilledAt.append(offset)
                current.removeAll(keepingCapacity: true)      // filled again: no fresh pages to fault in
                return
            } catch {
                spillFailure = error
            }
        }
        chunks.append(current)
        spilledAt.append(-1)
        current = []
    }

    /// The codes day-major in memory: day *d* of row *k* at `d × rowCount + k`. Leaves the writer
    /// empty. For a writer without a store.
    package mutating func finish() -> Column<Code> {
        precondition(store == nil, "a writer with a store finishes with finish(in:)")
        closeChunk()
        let rows = rowCount
        let total = rows * valuesPerRow
        guard total > 0 else {
            chunks = []
            return Column([])
        }
        let buffer = ColumnBuffer(byteCount: total * MemoryLayout<Code>.stride, alignment: 8)
        let target = buffer.pointer.bindMemory(to: Code.self, capacity: total)
        var firstRow = 0
        for index in chunks.indices {
            let chunk = chunks[index]
            chunks[index] = []          // the last reference: the chunk is freed after this copy
            let chunkRows = chunk.count / valuesPerRow
            chunk.withUnsafeBufferPointer { layOut($0, rowCount: chunkRows, into: target + firstRow, stride: rows) }
            firstRow += chunkRows
        }
        chunks = []
        return Column(owning: buffer, count: total)
    }

    /// Copies `rowCount` rows of ``valuesPerRow`` codes, row-major in `source`, day-major into `target`: day *d*
    /// of row *k* at `target[d × stride + k]`.
    private func layOut(_ source: UnsafeBufferPointer<Code>, rowCount: Int, into target: UnsafeMutablePointer<Code>, stride: Int) {
        for row in 0..<rowCount {
            var position = row
            for day in 0..<valuesPerRow {
                target[position] = source[row * valuesPerRow + day]
                position += stride
            }
        }
    }

    /// The codes day-major, written to the writer's store and mapped from it: a group of chunks at a time
    /// is read back, turned day-major and written as one stripe a day. Leaves the writer empty.
    /// - Throws: the store's first error (also one met while spilling).
    package mutating func finishInStore() throws -> Column<Code> {
        guard let store else { return finish() }
        closeChunk()
        if let spillFailure { throw spillFailure }
        let rows = rowCount
        let total = rows * valuesPerRow
        guard total > 0 else {
            chunks = []
            return Column([])
        }
        let stride = MemoryLayout<Code>.stride
        let tableOffset = try store.reserve(byteCount: total * stride, alignment: 4096)
        let groupRows = rowsPerChunk * chunksPerGroup
        var rowMajor = [Code](repeating: 0, count: groupRows * valuesPerRow)
        var dayMajor = [Code](repeating: 0, count: groupRows * valuesPerRow)
        var firstRow = 0
        var chunk = 0
        while chunk < chunks.count {
            // Gather the group's rows, row-major.
            var groupRowCount = 0
            let groupEnd = min(chunk + chunksPerGroup, chunks.count)
            for index in chunk..<groupEnd {
                let chunkRows = chunkRowCounts[index]
                let codes = chunkRows * valuesPerRow
                try rowMajor.withUnsafeMutableBufferPointer { buffer in
                    let target = UnsafeMutableBufferPointer(rebasing: buffer[(groupRowCount * valuesPerRow)..<(groupRowCount * valuesPerRow + codes)])
                    if spilledAt[index] >= 0 {
                        try store.read(into: UnsafeMutableRawBufferPointer(target), at: spilledAt[index])
                        store.discard(offset: spilledAt[index], byteCount: codes * stride)
                    } else {
                        _ = target.initialize(from: chunks[index])
                        chunks[index] = []
                    }
                }
                groupRowCount += chunkRows
            }
            // Day-major within the group, then one write a day.
            rowMajor.withUnsafeBufferPointer { source in
                dayMajor.withUnsafeMutableBufferPointer { layOut(source, rowCount: groupRowCount, into: $0.baseAddress!, stride: groupRowCount) }
            }
            try dayMajor.withUnsafeBytes { bytes in
                for day in 0..<valuesPerRow {
                    let stripe = UnsafeRawBufferPointer(rebasing: bytes[(day * groupRowCount * stride)..<((day + 1) * groupRowCount * stride)])
                    try store.write(stripe, at: tableOffset + (day * rows + firstRow) * stride)
                }
            }
            firstRow += groupRowCount
            chunk = groupEnd
        }
        chunks = []
        spilledAt = []
        chunkRowCounts = []
        let (base, owner) = try store.map(offset: tableOffset, byteCount: total * stride)
        return Column(borrowing: base, count: total, owner: owner)
    }
}
