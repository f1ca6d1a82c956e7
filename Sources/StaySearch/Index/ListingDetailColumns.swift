/// Fills the columns of the listing details that filters and facets read: bedrooms, beds, bathrooms,
/// property types, amenities (a table of names, each row's codes, bit sets of the frequent ones),
/// instant book and superhost bits.
enum ListingDetailColumns {
    /// An amenity gets a row bit set when at least one listing in this many has it (a bit set then
    /// takes no more room than a list of its rows), up to ``maximumAmenityBitSets`` of them.
    static let amenityBitSetShare = 32
    static let maximumAmenityBitSets = 128

    /// Sets the neighbourhood shape columns of `storage`.
    static func fill(_ storage: inout IndexStorage, shapes: [NeighbourhoodShape]) {
        let cities = StringColumn(shapes.map(\.city)), names = StringColumn(shapes.map(\.name))
        storage.shapeCityBytes = cities.bytes
        storage.shapeCityOffsets = cities.offsets
        storage.shapeNameBytes = names.bytes
        storage.shapeNameOffsets = names.offsets
        var ringStarts: [UInt32] = [0], pointStarts: [UInt32] = [0], latitudes: [Int32] = [], longitudes: [Int32] = []
        for shape in shapes {
            for ring in shape.rings {
                for point in ring {
                    latitudes.append(IndexBuilder.storedCoordinate(point.latitude))
                    longitudes.append(IndexBuilder.storedCoordinate(point.longitude))
                }
                pointStarts.append(UInt32(latitudes.count))
            }
            ringStarts.append(UInt32(pointStarts.count - 1))
        }
        storage.shapeRingStarts = Column(ringStarts)
        storage.ringPointStarts = Column(pointStarts)
        storage.shapeLatitudes = Column(latitudes)
        storage.shapeLongitudes = Column(longitudes)
    }

    /// The detail columns read from each listing, gathered row by row while an index's rows are filled.
    struct Rows {
        private var bedrooms: [UInt8] = [], beds: [UInt8] = [], bathroomHalves: [UInt8] = []
        private var instant: [UInt64], superhosts: [UInt64]

        /// Room for `rows` rows.
        init(rows: Int) {
            bedrooms.reserveCapacity(rows)
            beds.reserveCapacity(rows)
            bathroomHalves.reserveCapacity(rows)
            instant = [UInt64](repeating: 0, count: (rows + 63) / 64)
            superhosts = instant
        }

        /// Adds `listing` as row `row` (rows come in order).
        mutating func append(_ listing: ListingRecord, row: Int) {
            func count(_ value: Int?) -> UInt8 { value.map { UInt8(clamping: min(max($0, 0), 254)) } ?? ListingIndex.unknownCount }
            bedrooms.append(count(listing.bedrooms))
            beds.append(count(listing.beds))
            bathroomHalves.append(count(listing.bathroomHalves))
            if listing.isInstantBookable { instant[row >> 6] |= 1 << UInt64(row & 63) }
            if listing.isSuperhost { superhosts[row >> 6] |= 1 << UInt64(row & 63) }
        }

        /// Sets the detail columns of `storage` from the rows added, the property types of `listings` and
        /// their amenities from `amenityStore` (one entry per listing, in the same order), placed in rows by
        /// `listingOfRow`. The store is emptied once read: at the peak of a large import it is one of the
        /// largest things held.
        func finish(_ storage: inout IndexStorage, listings: some ListingSource, amenities amenityStore: inout NameStore,
                    listingOfRow: [Int32]) {
            storage.bedrooms = Column(bedrooms)
            storage.beds = Column(beds)
            storage.bathroomHalves = Column(bathroomHalves)
            storage.instantBookable = Column(instant)
            storage.superhosts = Column(superhosts)
            ListingDetailColumns.fillNames(&storage, listings: listings, amenities: &amenityStore, listingOfRow: listingOfRow)
        }
    }

    /// Sets the property type and amenity columns of `storage`; see ``Rows/finish(_:listings:amenities:listingOfRow:)``.
    private static func fillNames(_ storage: inout IndexStorage, listings: some ListingSource, amenities amenityStore: inout NameStore,
                                  listingOfRow: [Int32]) {
        let rows = listingOfRow.count
        let wordsPerDay = (rows + 63) / 64

        // Names are numbered in the order the data gives the listings, so a name shows as first spelled there.
        var typeStore = NameStore()
        for position in 0..<listings.count { typeStore.append(CollectionOfOne(listings.propertyType(at: position))) }
        let propertyTypes = FoldedNames(typeStore)
        storage.propertyTypes = Column(listingOfRow.map { listing in
            guard let first = typeStore.firstCode(ofListing: Int(listing)) else { return ListingIndex.noPropertyType }
            let code = propertyTypes.code(ofSpelling: first)
            return code < Int(ListingIndex.noPropertyType) ? UInt16(code) : ListingIndex.noPropertyType
        })
        let propertyTypeNames = StringColumn(Array(propertyTypes.names.prefix(Int(ListingIndex.noPropertyType) - 1)))
        storage.propertyTypeNameBytes = propertyTypeNames.bytes
        storage.propertyTypeNameOffsets = propertyTypeNames.offsets

        let amenities = FoldedNames(amenityStore)
        // Codes are 16 bits: past 65,534 distinct amenities (none of the real cities comes near), the
        // rarest are left out.
        let amenityLimit = Int(UInt16.max) - 1
        var offsets: [UInt32] = [0]
        offsets.reserveCapacity(rows + 1)
        // Room for every code given, which is at least the codes kept: grown by doubling, the array
        // would hold twice its size at the peak of an import, and once more as its column.
        let codeRoom = ColumnBuffer(byteCount: max(1, amenityStore.codeCount) * MemoryLayout<UInt16>.stride, alignment: 8)
        let codes = codeRoom.pointer.bindMemory(to: UInt16.self, capacity: max(1, amenityStore.codeCount))
        var codeCount = 0
        var rowCodes: [UInt16] = []
        let bitSetCount = min(maximumAmenityBitSets, amenities.counts.prefix { $0 * amenityBitSetShare >= rows && $0 > 0 }.count)
        var bitSets = [UInt64](repeating: 0, count: bitSetCount * wordsPerDay)
        for (row, listing) in listingOfRow.enumerated() {
            rowCodes.removeAll(keepingCapacity: true)
            amenityStore.forEachCode(ofListing: Int(listing)) { spelling in
                let code = amenities.code(ofSpelling: spelling)
                if code < amenityLimit { rowCodes.append(UInt16(code)) }
            }
            rowCodes.sort()
            var previous = -1
            for code in rowCodes where Int(code) != previous {
                codes[codeCount] = code
                codeCount += 1
                previous = Int(code)
                if Int(code) < bitSetCount { bitSets[Int(code) * wordsPerDay + row >> 6] |= 1 << UInt64(row & 63) }
            }
            offsets.append(UInt32(codeCount))
        }
        amenityStore = NameStore()
        storage.amenityOffsets = Column(offsets)
        storage.amenityCodes = Column(owning: codeRoom, count: codeCount)
        storage.amenityBitSets = Column(bitSets)
        let amenityNames = StringColumn(Array(amenities.names.prefix(amenityLimit)))
        storage.amenityNameBytes = amenityNames.bytes
        storage.amenityNameOffsets = amenityNames.offsets
    }
}
