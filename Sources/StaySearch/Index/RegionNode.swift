/// One place in the region tree: a city, a neighbourhood group or a neighbourhood.
public struct RegionNode: Sendable, Equatable {
    /// What level of the tree a node is.
    public enum Level: UInt8, Sendable {
        case city = 0, neighbourhoodGroup = 1, neighbourhood = 2
    }

    /// The name as the data spells it.
    public var name: String
    /// The name folded for matching (see ``TextFolding``).
    public var foldedName: String
    /// The level of the node.
    public var level: Level
    /// The parent node's position in ``RegionTree/nodes``, or -1 for a city.
    public var parent: Int32
    /// The index rows of every listing in this node and below it: one contiguous range.
    public var rows: Range<Int>

    /// Creates a node.
    public init(name: String, foldedName: String, level: Level, parent: Int32, rows: Range<Int>) {
        self.name = name
        self.foldedName = foldedName
        self.level = level
        self.parent = parent
        self.rows = rows
    }

    /// The number of listings in the node and below it.
    public var listingCount: Int { rows.count }
}
