import StaySearch
import Testing

/// The builder's store of listings' names gives back each listing's codes in order, two bytes a code or,
/// past 65,534 spellings, three words.
@Suite struct NameStoreTests {
    @Test func everyListingsCodesComeBackInOrder() {
        var store = NameStore()
        var expected: [[UInt32]] = []
        // 80,000 listings, each with a new spelling (so that codes pass the two-byte ones), a few shared
        // ones around it, an empty name left out, and every tenth listing with no name at all.
        var codeOf: [String: UInt32] = [:]
        for listing in 0..<80_000 {
            if listing % 10 == 9 {
                store.append([String]())
                expected.append([])
                continue
            }
            let names = ["Wifi", "spelling \(listing)", "", "Kitchen", "Wifi"]
            store.append(names)
            expected.append(names.filter { !$0.isEmpty }.map { name in
                if let code = codeOf[name] { return code }
                codeOf[name] = UInt32(codeOf.count)
                return UInt32(codeOf.count - 1)
            })
            if listing == 0 { #expect(store.spellings == ["Wifi", "spelling 0", "Kitchen"]) }
        }
        #expect(store.listingCount == expected.count)
        #expect(store.spellings.count > Int(UInt16.max) + 2)
        #expect(store.codeCount == expected.reduce(0) { $0 + $1.count })
        for listing in [0, 1, 9, 65_530, 65_531, 65_532, 65_533, 65_534, 65_535, 65_536, 72_900, 72_901, 79_998, 79_999] + Array(stride(from: 2, to: 80_000, by: 997)) {
            var codes: [UInt32] = []
            store.forEachCode(ofListing: listing) { codes.append($0) }
            #expect(codes == expected[listing], "listing \(listing)")
            #expect(store.firstCode(ofListing: listing) == expected[listing].first)
        }
    }
}
