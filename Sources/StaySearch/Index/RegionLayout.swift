/// The row order of an index: listings sorted by region path (then id), so that every region
/// node covers one contiguous range of rows, and the region tree that records those ranges.
struct RegionLayout {
    /// Listing positions in row order.
    let listingOfRow: [Int32]
    /// The row of each listing position.
    let rowOfListing: [Int32]
    /// The deepest region node of each listing position (a position in `tree.nodes`).
    let nodeOfListing: [Int32]
    /// The region tree with row ranges.
    let tree: RegionTree

    /// A region node while the tree is laid out.
    private struct Draft { var name: String; var folded: String; var level: RegionNode.Level; var parent: Int; var children: [Int] = [] }

    init(listings: some ListingSource) {
        // Nodes in order of first appearance, keyed by parent and exact name.
        var drafts: [Draft] = []
        var lookup: [String: [Int: Int]] = [:]   // name -> parent -> node
        var roots: [Int] = []
        func node(named name: String, level: RegionNode.Level, under parent: Int) -> Int {
            if let existing = lookup[name]?[parent] { return existing }
            drafts.append(Draft(name: name, folded: TextFolding.fold(name), level: level, parent: parent))
            let position = drafts.count - 1
            lookup[name, default: [:]][parent] = position
            if parent >= 0 { drafts[parent].children.append(position) } else { roots.append(position) }
            return position
        }
        var draftOfListing = [Int](repeating: 0, count: listings.count)
        for position in 0..<listings.count {
            let region = listings.region(at: position)
            var current = node(named: region.city, level: .city, under: -1)
            if !region.neighbourhoodGroup.isEmpty {
                current = node(named: region.neighbourhoodGroup, level: .neighbourhoodGroup, under: current)
            }
            if !region.neighbourhood.isEmpty {
                current = node(named: region.neighbourhood, level: .neighbourhood, under: current)
            }
            draftOfListing[position] = current
        }

        // Depth-first order, siblings sorted by folded then exact name.
        func sorted(_ nodes: [Int]) -> [Int] {
            nodes.sorted { (drafts[$0].folded, drafts[$0].name) < (drafts[$1].folded, drafts[$1].name) }
        }
        var preorder: [Int] = []
        var stack = sorted(roots).reversed().map { $0 }
        while let next = stack.popLast() {
            preorder.append(next)
            stack.append(contentsOf: sorted(drafts[next].children).reversed())
        }
        var rank = [Int](repeating: 0, count: drafts.count)
        for (position, draft) in preorder.enumerated() { rank[draft] = position }

        // Rows: by node rank, then id.
        let order = (0..<listings.count).sorted {
            (rank[draftOfListing[$0]], listings.id(at: $0)) < (rank[draftOfListing[$1]], listings.id(at: $1))
        }
        var rowOfListing = [Int32](repeating: 0, count: listings.count)
        for (row, listing) in order.enumerated() { rowOfListing[listing] = Int32(row) }

        // Ranges: a node starts where its first own or descendant row is.
        var ownCount = [Int](repeating: 0, count: drafts.count)
        for draft in draftOfListing { ownCount[draft] += 1 }
        var subtreeCount = ownCount
        for draft in preorder.reversed() where drafts[draft].parent >= 0 {
            subtreeCount[drafts[draft].parent] += subtreeCount[draft]
        }
        var nodes: [RegionNode] = []
        nodes.reserveCapacity(drafts.count)
        var start = 0
        for draft in preorder {
            let value = drafts[draft]
            nodes.append(RegionNode(
                name: value.name, foldedName: value.folded, level: value.level,
                parent: value.parent >= 0 ? Int32(rank[value.parent]) : -1,
                rows: start..<(start + subtreeCount[draft])))
            start += ownCount[draft]
        }

        self.listingOfRow = order.map { Int32($0) }
        self.rowOfListing = rowOfListing
        self.nodeOfListing = draftOfListing.map { Int32(rank[$0]) }
        self.tree = RegionTree(nodes: nodes)
    }
}
