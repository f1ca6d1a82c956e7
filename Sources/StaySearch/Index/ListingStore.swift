/// The listings added to an ``IndexBuilder``, held compactly until the index is built: each listing's
/// fixed fields packed in 96 bytes, its name's bytes in chunks of 1 MiB, its region, room type and
/// property type as codes of tables of the distinct ones; amenities are kept apart (``NameStore``).
///
/// An array of ``ListingRecord`` held the same at about 230 bytes a listing plus its strings' storage,
/// with up to as much again of an array's room to grow: at 10M listings most of an import's peak.
package struct ListingStore: ListingSource {
    /// One listing's fields but its strings, which are codes or places.
    private struct Packed {
        var id: Int64
        var price: Int64
        var latitude: Double
        var longitude: Double
        var accommodates: Int32
        var minimumNights: Int32
        var maximumNights: Int32
        var rating: Int32
        var reviewCount: Int32
        var recentReviewCount: Int32
        var bedrooms: Int32
        var beds: Int32
        var bathroomHalves: Int32
        var region: UInt32
        var roomType: UInt32
        var propertyType: UInt32
        var nameChunk: UInt32
        var nameStart: UInt32
        var nameLength: UInt32
        var flags: UInt8
    }

    private static let hasPrice: UInt8 = 1, hasRating: UInt8 = 2, isInstantBookable: UInt8 = 4, isSuperhost: UInt8 = 8
    /// A count (bedrooms, beds, bathrooms) not given.
    private static let unknownCount = Int32.min
    private static let nameChunkSize = 1 << 20

    private var listings = ChunkedArray<Packed>()
    private var nameChunks: [[UInt8]] = []
    private var regions = CodeTable<RegionPath>()
    private var roomTypes = CodeTable<String>()
    private var propertyTypes = CodeTable<String>()
    /// The positions of the listings with fees, ascending, and their fees: nothing for a listing without.
    private var feePositions: [Int32] = []
    private var feeValues: [ListingFees] = []

    /// An empty store.
    package init() {}

    /// The number of listings.
    package var count: Int { listings.count }

    /// The UTF-8 bytes of every listing's name together.
    package private(set) var nameByteCount = 0

    /// Appends `listing`, but its amenities.
    package mutating func append(_ listing: ListingRecord) {
        var name = listing.name
        let length = name.utf8.count
        if nameChunks.isEmpty || nameChunks[nameChunks.count - 1].count + length > ListingStore.nameChunkSize {
            var chunk: [UInt8] = []
            chunk.reserveCapacity(max(ListingStore.nameChunkSize, length))
            nameChunks.append(chunk)
        }
        let chunk = nameChunks.count - 1
        let start = nameChunks[chunk].count
        name.withUTF8 { nameChunks[chunk].append(contentsOf: $0) }
        nameByteCount += length
        func counted(_ value: Int?) -> Int32 { value.map { Int32(clamping: max($0, Int(ListingStore.unknownCount) + 1)) } ?? ListingStore.unknownCount }
        var flags: UInt8 = 0
        if listing.price != nil { flags |= ListingStore.hasPrice }
        if listing.ratingHundredths != nil { flags |= ListingStore.hasRating }
        if listing.isInstantBookable { flags |= ListingStore.isInstantBookable }
        if listing.isSuperhost { flags |= ListingStore.isSuperhost }
        if let fees = listing.fees {
            feePositions.append(Int32(listings.count))
            feeValues.append(fees)
        }
        listings.append(Packed(
            id: listing.id, price: listing.price?.minorUnits ?? 0, latitude: listing.latitude, longitude: listing.longitude,
            accommodates: Int32(clamping: listing.accommodates), minimumNights: listing.minimumNights,
            maximumNights: listing.maximumNights, rating: listing.ratingHundredths ?? 0, reviewCount: listing.reviewCount,
            recentReviewCount: listing.recentReviewCount, bedrooms: counted(listing.bedrooms), beds: counted(listing.beds),
            bathroomHalves: counted(listing.bathroomHalves), region: regions.code(of: listing.region),
            roomType: roomTypes.code(of: listing.roomType), propertyType: propertyTypes.code(of: listing.propertyType),
            nameChunk: UInt32(chunk), nameStart: UInt32(start), nameLength: UInt32(length), flags: flags))
    }

    /// The listing at `position`, without its amenities. Counts beyond 32 bits come back clamped to them
    /// (the index keeps them in a byte), the least one above `Int32.min` (which stands for no count).
    package subscript(position: Int) -> ListingRecord {
        let packed = listings[position]
        func count(_ value: Int32) -> Int? { value == ListingStore.unknownCount ? nil : Int(value) }
        let name = nameChunks[Int(packed.nameChunk)].withUnsafeBufferPointer { bytes in
            String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(packed.nameStart)..<Int(packed.nameStart + packed.nameLength)]),
                   as: UTF8.self)
        }
        return ListingRecord(
            id: packed.id, name: name, region: regions.values[Int(packed.region)], roomType: roomTypes.values[Int(packed.roomType)],
            accommodates: Int(packed.accommodates),
            price: packed.flags & ListingStore.hasPrice != 0 ? Money(minorUnits: packed.price) : nil,
            minimumNights: packed.minimumNights, maximumNights: packed.maximumNights,
            ratingHundredths: packed.flags & ListingStore.hasRating != 0 ? packed.rating : nil,
            reviewCount: packed.reviewCount, recentReviewCount: packed.recentReviewCount,
            latitude: packed.latitude, longitude: packed.longitude, bedrooms: count(packed.bedrooms), beds: count(packed.beds),
            bathroomHalves: count(packed.bathroomHalves), propertyType: propertyTypes.values[Int(packed.propertyType)],
            isInstantBookable: packed.flags & ListingStore.isInstantBookable != 0,
            isSuperhost: packed.flags & ListingStore.isSuperhost != 0, fees: fees(at: position))
    }

    /// The fees of the listing at `position`, if it has any.
    private func fees(at position: Int) -> ListingFees? {
        var low = 0, high = feePositions.count
        while low < high {
            let middle = (low + high) / 2
            if Int(feePositions[middle]) < position { low = middle + 1 } else { high = middle }
        }
        return low < feePositions.count && Int(feePositions[low]) == position ? feeValues[low] : nil
    }

    package func id(at position: Int) -> Int64 { listings[position].id }

    package func region(at position: Int) -> RegionPath { regions.values[Int(listings[position].region)] }

    package func propertyType(at position: Int) -> String { propertyTypes.values[Int(listings[position].propertyType)] }
}
