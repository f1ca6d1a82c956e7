import Foundation

/// The names of a ``NameStore`` grouped by their folded form and numbered by how many listings have them
/// (most first, ties by folded name), each shown as its first spelling seen, trimmed. Folding runs once
/// per distinct spelling.
struct FoldedNames {
    /// The names by code.
    let names: [String]
    /// How many listings have each name, by code.
    let counts: [Int]
    /// Codes by spelling code of the store.
    private let codeOfSpelling: [Int]

    /// Numbers the names of `store` (a listing counts once per name).
    init(_ store: NameStore) {
        var groupOfFolded: [String: Int] = [:]
        var groupOfSpelling: [Int] = []
        var folded: [String] = []
        var firstSpelling: [String] = []
        groupOfSpelling.reserveCapacity(store.spellings.count)
        for spelling in store.spellings {
            let key = TextFolding.fold(spelling)
            if let group = groupOfFolded[key] {
                groupOfSpelling.append(group)
            } else {
                groupOfFolded[key] = folded.count
                groupOfSpelling.append(folded.count)
                folded.append(key)
                firstSpelling.append(spelling.trimmingCharacters(in: .whitespacesAndNewlines))
            }
        }
        var counts = [Int](repeating: 0, count: folded.count)
        var lastListing = [Int](repeating: -1, count: folded.count)
        for listing in 0..<store.listingCount {
            store.forEachCode(ofListing: listing) { code in
                let group = groupOfSpelling[Int(code)]
                if lastListing[group] != listing {
                    lastListing[group] = listing
                    counts[group] += 1
                }
            }
        }
        let order = counts.indices.sorted { counts[$0] != counts[$1] ? counts[$0] > counts[$1] : folded[$0] < folded[$1] }
        var codeOfGroup = [Int](repeating: 0, count: order.count)
        for (code, group) in order.enumerated() { codeOfGroup[group] = code }
        names = order.map { firstSpelling[$0] }
        self.counts = order.map { counts[$0] }
        codeOfSpelling = groupOfSpelling.map { codeOfGroup[$0] }
    }

    /// The code of the store's spelling `spelling`.
    func code(ofSpelling spelling: UInt32) -> Int { codeOfSpelling[Int(spelling)] }
}
