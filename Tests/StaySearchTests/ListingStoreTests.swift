import StaySearch
import Testing

/// The builder's compact store of listings gives back every listing as it was added (but its amenities).
@Suite struct ListingStoreTests {
    /// A small deterministic generator (SplitMix64).
    private struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
        mutating func chance() -> Bool { next() & 1 == 0 }
    }

    private func record(_ random: inout Random, id: Int64, name: String) -> ListingRecord {
        let cities = ["Antwerp", "Seoul 서울", "São Paulo"], neighbourhoods = ["", "Centrum", "Gangnam-gu 강남구", "Vila Madalena"]
        let roomTypes = ["Entire home/apt", "Private room", "Hotel room", ""]
        let types = ["", "Entire rental unit", "Room in boutique hotel", "entire rental unit"]
        return ListingRecord(
            id: id, name: name,
            region: RegionPath(city: cities[random.below(3)], neighbourhoodGroup: random.chance() ? "" : "Group \(random.below(3))",
                               neighbourhood: neighbourhoods[random.below(4)]),
            roomType: roomTypes[random.below(4)], accommodates: random.below(20),
            price: random.chance() ? nil : Money(minorUnits: Int64(random.below(2_000_000)) - 1_000),
            minimumNights: Int32(random.below(400)), maximumNights: random.chance() ? Int32.max : Int32(random.below(1_200)),
            ratingHundredths: random.chance() ? nil : Int32(random.below(501)), reviewCount: Int32(random.below(3_000)),
            recentReviewCount: Int32(random.below(200)), latitude: Double(random.below(1_800_000_000)) / 1e7 - 90,
            longitude: -Double(random.below(3_600_000_000)) / 1e7 + 180,
            bedrooms: random.chance() ? nil : random.below(12), beds: random.chance() ? nil : random.below(30) - 2,
            bathroomHalves: random.chance() ? nil : random.below(9), propertyType: types[random.below(4)],
            amenities: [], isInstantBookable: random.chance(), isSuperhost: random.chance())
    }

    @Test func listingsComeBackAsTheyWereAdded() {
        var random = Random(state: 7)
        var store = ListingStore()
        var added: [ListingRecord] = []
        for position in 0..<5_000 {
            // Names of every length, some past a chunk of names' room (1 MiB): a name is never split.
            let length = position == 1_700 ? 1_500_000 : position == 3_100 ? 1 << 20 : random.below(120)
            let alphabet = Array("abc 서울 é😀-")
            let name = String((0..<length).map { _ in alphabet[random.below(alphabet.count)] })
            var listing = record(&random, id: Int64(position) * 7 - 9_000, name: name)
            listing.amenities = ["Wifi", "Kitchen"]
            store.append(listing)
            listing.amenities = []
            added.append(listing)
        }
        #expect(store.count == added.count)
        #expect(store.nameByteCount == added.nameByteCount)
        #expect(store.nameByteCount == added.reduce(0) { $0 + Array($1.name.utf8).count })
        for position in added.indices {
            #expect(store[position] == added[position], "listing at \(position)")
            #expect(store.id(at: position) == added[position].id)
            #expect(store.region(at: position) == added[position].region)
            #expect(store.propertyType(at: position) == added[position].propertyType)
        }
    }

    @Test func countsPastThirtyTwoBitsComeBackClamped() {
        var random = Random(state: 1)
        var listing = record(&random, id: 1, name: "Big")
        listing.bedrooms = Int.max
        listing.beds = Int.min
        listing.accommodates = 1 << 40
        var store = ListingStore()
        store.append(listing)
        #expect(store[0].bedrooms == Int(Int32.max))
        #expect(store[0].beds == Int(Int32.min) + 1)
        #expect(store[0].accommodates == Int(Int32.max))
    }

    @Test func aChunkedArrayReadsBackAcrossItsChunks() {
        var array = ChunkedArray<Int32>()
        #expect(array.last == nil)
        for value in 0..<200_000 { array.append(Int32(value) &* 3) }
        #expect(array.count == 200_000)
        for index in [0, 1, 65_535, 65_536, 65_537, 131_071, 131_072, 199_999] { #expect(array[index] == Int32(index) * 3) }
        #expect(array.last == 599_997)
    }
}
