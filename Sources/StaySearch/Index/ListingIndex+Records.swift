extension ListingIndex {
    /// The listing at row `row` with every field the index keeps, amenities and details included: what
    /// indexing it again needs (coordinates to 10⁻⁷ degree, counts as capped, names as the index spells
    /// them).
    /// - Precondition: `row` is in `0 ..< count`.
    public func fullListing(atRow row: Int) -> ListingRecord {
        var record = listing(atRow: row)
        func count(_ value: UInt8) -> Int? { value == ListingIndex.unknownCount ? nil : Int(value) }
        record.bedrooms = count(storage.bedrooms[row])
        record.beds = count(storage.beds[row])
        record.bathroomHalves = count(storage.bathroomHalves[row])
        let type = storage.propertyTypes[row]
        record.propertyType = type == ListingIndex.noPropertyType ? "" : propertyTypes.names[Int(type)]
        record.amenities = (Int(storage.amenityOffsets[row])..<Int(storage.amenityOffsets[row + 1])).map {
            amenities.names[Int(storage.amenityCodes[$0])]
        }
        let word = row >> 6, bit = UInt64(row & 63)
        record.isInstantBookable = storage.instantBookable[word] >> bit & 1 == 1
        record.isSuperhost = storage.superhosts[word] >> bit & 1 == 1
        record.recentReviewCount = Int32(storage.recentReviewCounts[row])
        return record
    }
}
