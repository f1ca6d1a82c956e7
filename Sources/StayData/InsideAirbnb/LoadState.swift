import StaySearch

/// What a load has gathered so far: the builder, the report, and where each listing was read.
struct LoadState {
    var builder: IndexBuilder
    var report = LoadReport()
    /// Where each listing added to the builder was read, by its handle's position (file position and line,
    /// packed: the message is written only for a duplicate, not a string kept for every listing; the
    /// builder's own table of ids finds the listing an id repeats).
    var listingOrigins = ChunkedArray<UInt64>()

    /// A new load whose builder spills into `store` (nil: memory) in pieces of the sizes given, its nights' wide
    /// prices in `widePrices` (those of the load whose builder takes its nights).
    init(spillingTo store: (any SpillStore)?, pieces: (fragmentBytes: Int, denseRows: Int),
         widePrices: WidePriceRegistry = WidePriceRegistry()) {
        builder = IndexBuilder(spillingTo: store, fragmentChunkSize: pieces.fragmentBytes, denseRowsPerChunk: pieces.denseRows,
                               widePrices: widePrices)
    }
}
