/// Which names of a live index's frozen rows still have a visible listing: for each room type, property
/// type and amenity code, how many frozen rows carry it and how many of those are hidden (removed or moved
/// to the overlay). A name none of whose listings is visible is unknown to searches, as it is to a fresh
/// import of the same listings.
///
/// The hidden counts change with each hidden row, under the live index's write lock, and are read under
/// its read lock; the totals are counted once, on first use (one pass over the frozen rows' codes), under
/// a lock of their own.
package final class FrozenNameCounts: @unchecked Sendable {
    private let index: ListingIndex
    private var hiddenRoomTypes: [Int32]
    private var hiddenPropertyTypes: [Int32]
    private var hiddenAmenities: [Int32]
    /// The ratings of hidden rows, by city name (what the city means of the `recommended` order lose).
    private(set) var hiddenRatings: [String: RatingTally] = [:]
    private var totals: (roomTypes: [Int32], propertyTypes: [Int32], amenities: [Int32])?
    private let totalsLock = ReadWriteLock()

    /// Counts for `index`, none of whose rows is hidden yet.
    init(_ index: ListingIndex) {
        self.index = index
        hiddenRoomTypes = Array(repeating: 0, count: index.roomTypeNames.count)
        hiddenPropertyTypes = Array(repeating: 0, count: index.propertyTypes.count)
        hiddenAmenities = Array(repeating: 0, count: index.amenities.count)
    }

    /// Counts frozen row `row`'s names as hidden (once per row: a hidden row never shows again).
    func hide(row: Int) {
        let storage = index.storage
        let room = Int(storage.roomTypes[row])
        if room < hiddenRoomTypes.count { hiddenRoomTypes[room] += 1 }
        let type = Int(storage.propertyTypes[row])
        if type < hiddenPropertyTypes.count { hiddenPropertyTypes[type] += 1 }
        for position in Int(storage.amenityOffsets[row])..<Int(storage.amenityOffsets[row + 1]) {
            let code = Int(storage.amenityCodes[position])
            if code < hiddenAmenities.count { hiddenAmenities[code] += 1 }
        }
        let rating = storage.ratings[row]
        if rating != ListingIndex.noRating {
            let city = index.regions.nodes[Int(index.cityNodeOfNode[Int(storage.regionNodes[row])])].name
            hiddenRatings[city, default: RatingTally()].remove(stored: rating)
        }
    }

    /// Whether a visible frozen row has room type `code`.
    func showsRoomType(_ code: Int) -> Bool { visible(code, hiddenRoomTypes, \.roomTypes) }
    /// Whether a visible frozen row has property type `code`.
    func showsPropertyType(_ code: Int) -> Bool { visible(code, hiddenPropertyTypes, \.propertyTypes) }
    /// Whether a visible frozen row has amenity `code`.
    func showsAmenity(_ code: Int) -> Bool { visible(code, hiddenAmenities, \.amenities) }

    private func visible(_ code: Int, _ hidden: [Int32],
                         _ total: KeyPath<(roomTypes: [Int32], propertyTypes: [Int32], amenities: [Int32]), [Int32]>) -> Bool {
        guard code < hidden.count else { return false }
        return hidden[code] == 0 || countedTotals()[keyPath: total][code] > hidden[code]
    }

    private func countedTotals() -> (roomTypes: [Int32], propertyTypes: [Int32], amenities: [Int32]) {
        if let totals = totalsLock.reading({ totals }) { return totals }
        return totalsLock.writing {
            if let totals { return totals }
            let storage = index.storage
            var rooms = [Int32](repeating: 0, count: hiddenRoomTypes.count)
            var types = [Int32](repeating: 0, count: hiddenPropertyTypes.count)
            var amenities = [Int32](repeating: 0, count: hiddenAmenities.count)
            for row in 0..<index.count {
                let room = Int(storage.roomTypes[row]), type = Int(storage.propertyTypes[row])
                if room < rooms.count { rooms[room] += 1 }
                if type < types.count { types[type] += 1 }
            }
            storage.amenityCodes.withUnsafeBufferPointer { codes in
                for code in codes where Int(code) < amenities.count { amenities[Int(code)] += 1 }
            }
            let counted = (rooms, types, amenities)
            totals = counted
            return counted
        }
    }
}
