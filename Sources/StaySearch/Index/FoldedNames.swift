import Foundation

/// Names grouped by their folded form and numbered by how many listings have them (most first, ties by
/// folded name), each shown as the first spelling seen (trimmed). Folding runs once per distinct spelling.
struct FoldedNames {
    /// The names by code.
    let names: [String]
    /// How many listings have each name, by code.
    let counts: [Int]
    /// Codes by spelling as seen.
    private let codesBySpelling: [String: Int]

    /// Numbers the names of `lists`, one list of names per listing (a listing counts once per name).
    init(_ lists: some Sequence<[String]>) {
        var groupOfSpelling: [String: Int] = [:]
        var groupOfFolded: [String: Int] = [:]
        var firstSpelling: [String] = []
        var folded: [String] = []
        var counts: [Int] = []
        var seenInListing = Set<Int>()
        for list in lists {
            seenInListing.removeAll(keepingCapacity: true)
            for spelling in list {
                let group: Int
                if let known = groupOfSpelling[spelling] {
                    group = known
                } else {
                    let key = TextFolding.fold(spelling)
                    if let known = groupOfFolded[key] {
                        group = known
                    } else {
                        group = firstSpelling.count
                        groupOfFolded[key] = group
                        firstSpelling.append(spelling.trimmingCharacters(in: .whitespacesAndNewlines))
                        folded.append(key)
                        counts.append(0)
                    }
                    groupOfSpelling[spelling] = group
                }
                if seenInListing.insert(group).inserted { counts[group] += 1 }
            }
        }
        let order = counts.indices.sorted { counts[$0] != counts[$1] ? counts[$0] > counts[$1] : folded[$0] < folded[$1] }
        var codeOfGroup = [Int](repeating: 0, count: order.count)
        for (code, group) in order.enumerated() { codeOfGroup[group] = code }
        names = order.map { firstSpelling[$0] }
        self.counts = order.map { counts[$0] }
        codesBySpelling = groupOfSpelling.mapValues { codeOfGroup[$0] }
    }

    /// The code of a spelling that was among the lists.
    func code(of spelling: String) -> Int { codesBySpelling[spelling]! }
}
