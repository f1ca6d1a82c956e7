/// What a query asks of one index, resolved before its scan: the region's row ranges, the room type's
/// code, and the listing-detail filters.
struct ScanPlan {
    let ranges: [Range<Int>]
    /// The room type code, -1 for any, 256 for a standard type the index has no listing of.
    let roomCode: Int
    let filter: ListingFilter
    /// The rows in ``ranges``.
    let rowCount: Int

    /// Resolves `query` against `index`.
    /// - Parameter rowMask: rows a candidate must be among as well (a live index's visible rows).
    /// - Throws: ``QueryError`` for a region, room type, property type or amenity the index does not know.
    init(_ query: SearchQuery, index: ListingIndex, rowMask: UnsafePointer<UInt64>? = nil) throws(QueryError) {
        ranges = try query.region.map { name throws(QueryError) in try index.regions.rowRanges(matching: name) } ?? [0..<index.count]
        var roomCode = -1
        if let roomType = query.roomType {
            if let code = index.roomTypeNames.firstIndex(of: roomType) {
                roomCode = code
            } else if ListingIndex.standardRoomTypes.contains(roomType) {
                roomCode = 256      // a known type this index has no listings of
            } else {
                throw .unknownRoomType(roomType, known: index.knownRoomTypes)
            }
        }
        self.roomCode = roomCode
        filter = try ListingFilter(query: query, index: index, rowMask: rowMask)
        rowCount = ranges.reduce(0) { $0 + $1.count }
    }
}
