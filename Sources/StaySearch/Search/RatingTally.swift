/// The sum and number of ratings of a set of listings (those with a rating): a city's mean rating, which
/// the `recommended` order shrinks ratings toward.
package struct RatingTally: Sendable, Equatable {
    package var sum: Int64 = 0
    package var count: Int64 = 0

    package init(sum: Int64 = 0, count: Int64 = 0) {
        self.sum = sum
        self.count = count
    }

    /// The mean in hundredths, rounded down; 0 without ratings.
    package var meanHundredths: Int64 { count == 0 ? 0 : sum / count }

    /// Counts one listing's rating (stored hundredths, or ``ListingIndex/noRating``).
    package mutating func add(stored rating: Int16) {
        guard rating != ListingIndex.noRating else { return }
        sum += Int64(rating)
        count += 1
    }

    /// Removes one listing's rating counted before.
    package mutating func remove(stored rating: Int16) {
        guard rating != ListingIndex.noRating else { return }
        sum -= Int64(rating)
        count -= 1
    }
}

extension ListingIndex {
    /// For each region node, the node of its city, and each city node's rating tally over its rows.
    static func cityRatings(regions: RegionTree, ratings: Column<Int16>) -> (cityNodeOfNode: [Int32], tallies: [String: RatingTally]) {
        var cityNodeOfNode = [Int32](repeating: -1, count: regions.nodes.count)
        var tallies: [String: RatingTally] = [:]
        for (position, node) in regions.nodes.enumerated() {
            var current = position
            while regions.nodes[current].level != .city, regions.nodes[current].parent >= 0 { current = Int(regions.nodes[current].parent) }
            cityNodeOfNode[position] = Int32(current)
            guard node.level == .city else { continue }
            var tally = tallies[node.name] ?? RatingTally()
            for row in node.rows { tally.add(stored: ratings[row]) }
            tallies[node.name] = tally
        }
        return (cityNodeOfNode, tallies)
    }
}
