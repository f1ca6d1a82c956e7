/// The listing-detail filters of one query, resolved against an index once: counts as bytes to compare,
/// names as codes, the map area in stored units, and the bit sets to intersect with the candidates.
///
/// Bit-set filters (instant book, superhost, frequent amenities) are applied a word of 64 rows at a
/// time while candidates are gathered; the rest (``passes(row:)``) are loads and comparisons per
/// candidate, with no string work. Pointers are valid while the index is alive; the filter only reads
/// through them, so the parts of one query's scan share it across threads (hence `@unchecked Sendable`).
struct ListingFilter: @unchecked Sendable {
    /// Row bit sets every candidate must be in (`wordsPerDay` words each).
    let bitSets: [UnsafePointer<UInt64>]
    /// Whether ``passes(row:)`` has anything to check.
    let checksRows: Bool

    private let minimumBedrooms: Int
    private let minimumBeds: Int
    private let minimumBathroomHalves: Int
    private let bedrooms, beds, bathroomHalves: UnsafePointer<UInt8>
    /// Allowed property type codes, ascending; none when any type will do.
    private let propertyTypeCodes: UnsafeBufferPointer<UInt16>?
    private let propertyTypes: UnsafePointer<UInt16>
    /// Amenity codes without a bit set, looked up in each candidate's ascending codes.
    private let listedAmenityCodes: UnsafeBufferPointer<UInt16>
    private let amenityOffsets: UnsafePointer<UInt32>
    private let amenityCodes: UnsafePointer<UInt16>
    private let latitudes, longitudes: UnsafePointer<Int32>
    /// The map area in stored units (10⁻⁷ degree), edges included.
    private let box: (south: Int32, west: Int32, north: Int32, east: Int32, crosses: Bool)?
    /// The centre, the radius, and the latitude band (stored units) outside which no row can be within it.
    private let centre: GeoPoint?
    private let radius: Double
    private let latitudeBand: ClosedRange<Int64>
    /// Owns the code buffers, when there are any (a query without such filters allocates nothing).
    private let owner: Buffers?

    /// Resolves `query`'s detail filters against `index`.
    /// - Throws: ``QueryError/unknownPropertyType(_:suggestions:)`` or ``QueryError/unknownAmenity(_:suggestions:)``.
    /// - Parameter rowMask: a row bit set every candidate must be in as well (a live index's visible rows).
    init(query: SearchQuery, index: ListingIndex, rowMask: UnsafePointer<UInt64>? = nil) throws(QueryError) {
        let storage = index.storage
        minimumBedrooms = query.bedrooms ?? -1
        minimumBeds = query.beds ?? -1
        minimumBathroomHalves = query.bathroomHalves ?? -1
        bedrooms = storage.bedrooms.base
        beds = storage.beds.base
        bathroomHalves = storage.bathroomHalves.base
        propertyTypes = storage.propertyTypes.base
        amenityOffsets = storage.amenityOffsets.base
        amenityCodes = storage.amenityCodes.base
        latitudes = storage.latitudes.base
        longitudes = storage.longitudes.base

        var typeCodes: [UInt16] = []
        for name in query.propertyTypes {
            guard let code = index.propertyTypes.code(of: name) else {
                throw .unknownPropertyType(name, suggestions: index.propertyTypes.suggestions(for: name))
            }
            typeCodes.append(UInt16(code))
        }
        var sets: [UnsafePointer<UInt64>] = rowMask.map { [$0] } ?? []
        if query.instantBookableOnly { sets.append(storage.instantBookable.base) }
        if query.superhostsOnly { sets.append(storage.superhosts.base) }
        var listedCodes: [UInt16] = []
        for name in query.amenities {
            guard let code = index.amenities.code(of: name) else {
                throw .unknownAmenity(name, suggestions: index.amenities.suggestions(for: name))
            }
            if code < index.amenityBitSetCount {
                sets.append(storage.amenityBitSets.base + code * index.wordsPerDay)
            } else {
                listedCodes.append(UInt16(code))
            }
        }
        bitSets = sets
        if query.propertyTypes.isEmpty && listedCodes.isEmpty {
            owner = nil
            propertyTypeCodes = nil
            listedAmenityCodes = UnsafeBufferPointer(start: nil, count: 0)
        } else {
            let owner = Buffers(propertyTypes: query.propertyTypes.isEmpty ? nil : Array(Set(typeCodes)).sorted(),
                                amenities: Array(Set(listedCodes)).sorted())
            self.owner = owner
            propertyTypeCodes = owner.propertyTypes.map { UnsafeBufferPointer($0) }
            listedAmenityCodes = UnsafeBufferPointer(owner.amenities)
        }

        box = query.boundingBox.map { box in
            (IndexBuilder.storedCoordinate(box.south), IndexBuilder.storedCoordinate(box.west),
             IndexBuilder.storedCoordinate(box.north), IndexBuilder.storedCoordinate(box.east), box.crossesAntimeridian)
        }
        centre = query.near
        radius = query.radiusKilometres ?? .infinity
        if let centre = query.near, let radius = query.radiusKilometres {
            // Along a meridian a degree is R·π/180 km; the band is widened by a margin for rounding.
            let degrees = radius / GeoPoint.earthRadiusKilometres * 180 / Double.pi
            let margin = 1e-6
            latitudeBand = Int64(((centre.latitude - degrees - margin) * 1e7).rounded(.down))...Int64(((centre.latitude + degrees + margin) * 1e7).rounded(.up))
        } else {
            latitudeBand = Int64.min...Int64.max
        }
        checksRows = minimumBedrooms >= 0 || minimumBeds >= 0 || minimumBathroomHalves >= 0 || propertyTypeCodes != nil
            || !listedAmenityCodes.isEmpty || box != nil || query.radiusKilometres != nil
    }

    /// Whether row `row` passes every detail filter that is not a bit set.
    @inline(__always)
    func passes(row: Int) -> Bool {
        if minimumBedrooms >= 0 { guard Self.atLeast(bedrooms[row], minimumBedrooms) else { return false } }
        if minimumBeds >= 0 { guard Self.atLeast(beds[row], minimumBeds) else { return false } }
        if minimumBathroomHalves >= 0 { guard Self.atLeast(bathroomHalves[row], minimumBathroomHalves) else { return false } }
        if let codes = propertyTypeCodes { guard codes.contains(propertyTypes[row]) else { return false } }
        if let box {
            let latitude = latitudes[row], longitude = longitudes[row]
            guard latitude >= box.south, latitude <= box.north else { return false }
            if box.crosses {
                guard longitude >= box.west || longitude <= box.east else { return false }
            } else {
                guard longitude >= box.west, longitude <= box.east else { return false }
            }
        }
        if radius.isFinite {
            guard latitudeBand.contains(Int64(latitudes[row])), distance(row: row) <= radius else { return false }
        }
        if !listedAmenityCodes.isEmpty {
            let start = Int(amenityOffsets[row]), end = Int(amenityOffsets[row &+ 1])
            for code in listedAmenityCodes where !Self.contains(code, in: amenityCodes, start, end) { return false }
        }
        return true
    }

    /// The great-circle distance in kilometres from the query's centre to row `row`'s stored position.
    func distance(row: Int) -> Double {
        guard let centre else { return 0 }
        return centre.kilometres(to: GeoPoint(latitude: Double(latitudes[row]) / 1e7, longitude: Double(longitudes[row]) / 1e7))
    }

    @inline(__always)
    private static func atLeast(_ stored: UInt8, _ minimum: Int) -> Bool {
        stored != ListingIndex.unknownCount && Int(stored) >= minimum
    }

    /// Binary search for `code` in the ascending `codes[start..<end]`.
    @inline(__always)
    private static func contains(_ code: UInt16, in codes: UnsafePointer<UInt16>, _ start: Int, _ end: Int) -> Bool {
        var low = start, high = end
        while low < high {
            let middle = (low &+ high) >> 1
            if codes[middle] < code { low = middle &+ 1 } else { high = middle }
        }
        return low < end && codes[low] == code
    }

    /// Buffers the filter's pointers point into, freed with the last copy of the filter.
    private final class Buffers {
        let propertyTypes: UnsafeMutableBufferPointer<UInt16>?
        let amenities: UnsafeMutableBufferPointer<UInt16>

        init(propertyTypes: [UInt16]?, amenities: [UInt16]) {
            self.propertyTypes = propertyTypes.map { codes in
                let buffer = UnsafeMutableBufferPointer<UInt16>.allocate(capacity: max(1, codes.count))
                _ = buffer.initialize(from: codes)
                return UnsafeMutableBufferPointer(rebasing: buffer[0..<codes.count])
            }
            let buffer = UnsafeMutableBufferPointer<UInt16>.allocate(capacity: max(1, amenities.count))
            _ = buffer.initialize(from: amenities)
            self.amenities = UnsafeMutableBufferPointer(rebasing: buffer[0..<amenities.count])
        }

        deinit {
            propertyTypes?.baseAddress.map { $0.deallocate() }
            amenities.baseAddress?.deallocate()
        }
    }
}
