/// The names of many listings (their amenities, say) stored compactly while an index is built: each
/// distinct spelling once, and per listing its codes into the spellings (4 bytes a name instead of a
/// string and a share of an array).
struct NameStore {
    /// Distinct spellings, in the order first seen.
    private(set) var spellings: [String] = []
    private var codeOfSpelling: [String: UInt32] = [:]
    /// Every listing's spelling codes, one listing after another.
    private(set) var codes: [UInt32] = []
    /// `listings + 1` offsets into `codes`.
    private(set) var offsets: [UInt32] = [0]

    /// The number of listings appended.
    var listingCount: Int { offsets.count - 1 }

    /// Appends the next listing's names (empty ones are left out).
    mutating func append(_ names: some Sequence<String>) {
        for name in names where !name.isEmpty {
            if let code = codeOfSpelling[name] {
                codes.append(code)
            } else {
                let code = UInt32(spellings.count)
                spellings.append(name)
                codeOfSpelling[name] = code
                codes.append(code)
            }
        }
        offsets.append(UInt32(codes.count))
    }

    /// The spelling codes of the listing at `position`.
    func codes(ofListing position: Int) -> ArraySlice<UInt32> {
        codes[Int(offsets[position])..<Int(offsets[position + 1])]
    }
}
