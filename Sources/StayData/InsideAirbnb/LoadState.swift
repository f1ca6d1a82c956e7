import StaySearch

/// What a load has gathered so far: the builder, the report, and where each listing id was first seen.
struct LoadState {
    var builder: IndexBuilder
    var report = LoadReport()
    /// Where each listing id was first seen (file position and line: the message is written only for a
    /// duplicate, not a string kept for every listing).
    var listingLines: [Int64: RecordOrigin] = [:]

    /// A new load whose builder spills into `store` (nil: memory) in pieces of the sizes given.
    init(spillingTo store: (any SpillStore)?, pieces: (fragmentBytes: Int, denseRows: Int)) {
        builder = IndexBuilder(spillingTo: store, fragmentChunkSize: pieces.fragmentBytes, denseRowsPerChunk: pieces.denseRows)
    }
}
