/// The names of many listings (their amenities, say) stored compactly while an index is built: each
/// distinct spelling once, and per listing its codes into the spellings (4 bytes a name instead of a
/// string and a share of an array), in chunks that never hold more than a chunk's room unused.
struct NameStore {
    /// Distinct spellings, in the order first seen.
    private(set) var spellings: [String] = []
    private var codeOfSpelling: [String: UInt32] = [:]
    /// Every listing's spelling codes, one listing after another.
    private var codes = ChunkedArray<UInt32>()
    /// `listings + 1` offsets into `codes`.
    private var offsets: ChunkedArray<UInt32> = {
        var offsets = ChunkedArray<UInt32>()
        offsets.append(0)
        return offsets
    }()

    /// The number of listings appended.
    var listingCount: Int { offsets.count - 1 }

    /// The number of codes of every listing together.
    var codeCount: Int { codes.count }

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

    /// Where the spelling codes of the listing at `position` are: read them with ``code(at:)``.
    func codeRange(ofListing position: Int) -> Range<Int> {
        Int(offsets[position])..<Int(offsets[position + 1])
    }

    /// The spelling code at `index` of every listing's codes.
    func code(at index: Int) -> UInt32 { codes[index] }
}
