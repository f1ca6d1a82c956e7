/// The names of many listings (their amenities, say) stored compactly while an index is built: each
/// distinct spelling once, and per listing its codes into the spellings, two bytes a name while there are
/// fewer than 65,535 spellings (a later code takes three 16-bit words), in chunks that never hold more than
/// a chunk's room unused. A string and a share of an array a name, or 4-byte codes in an array grown by
/// doubling, made the amenities the largest thing an import of millions of listings held.
package struct NameStore {
    /// Distinct spellings, in the order first seen.
    package private(set) var spellings: [String] = []
    private var codeOfSpelling: [String: UInt32] = [:]
    /// Every listing's spelling codes, one listing after another: a code below ``escape`` as itself, any
    /// other as ``escape`` and its high and low 16 bits.
    private var words = ChunkedArray<UInt16>()
    /// `listings + 1` offsets into `words`.
    private var offsets: ChunkedArray<UInt64> = {
        var offsets = ChunkedArray<UInt64>()
        offsets.append(0)
        return offsets
    }()
    /// The number of codes of every listing together.
    package private(set) var codeCount = 0

    /// The word that announces a code of two more words.
    private static let escape = UInt16.max

    /// A store of no listing yet.
    package init() {}

    /// The number of listings appended.
    package var listingCount: Int { offsets.count - 1 }

    /// Appends the next listing's names (empty ones are left out).
    package mutating func append(_ names: some Sequence<String>) {
        for name in names where !name.isEmpty {
            let code: UInt32
            if let known = codeOfSpelling[name] {
                code = known
            } else {
                code = UInt32(spellings.count)
                spellings.append(name)
                codeOfSpelling[name] = code
            }
            if code < UInt32(NameStore.escape) {
                words.append(UInt16(code))
            } else {
                words.append(NameStore.escape)
                words.append(UInt16(code >> 16))
                words.append(UInt16(truncatingIfNeeded: code))
            }
            codeCount += 1
        }
        offsets.append(UInt64(words.count))
    }

    /// Calls `body` with each spelling code of the listing at `position`, in the order appended.
    package func forEachCode(ofListing position: Int, _ body: (UInt32) -> Void) {
        var index = Int(offsets[position])
        let end = Int(offsets[position + 1])
        while index < end {
            let word = words[index]
            if word != NameStore.escape {
                body(UInt32(word))
                index += 1
            } else {
                body(UInt32(words[index + 1]) << 16 | UInt32(words[index + 2]))
                index += 3
            }
        }
    }

    /// The first spelling code of the listing at `position`, if it has any.
    package func firstCode(ofListing position: Int) -> UInt32? {
        var first: UInt32?
        if Int(offsets[position]) < Int(offsets[position + 1]) {
            forEachCode(ofListing: position) { code in if first == nil { first = code } }
        }
        return first
    }
}
