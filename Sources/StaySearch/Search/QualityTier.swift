/// The rows of an index whose quality part of the `recommended` score (``QualityCache``) is among the best:
/// as bits, 64 rows a word, with each word's count of tier rows before it and the tier rows' qualities in
/// row order, so that a scan finds a tier row's quality without reading the whole quality column.
struct QualityTier: Sendable {
    /// The least quality in the tier.
    let threshold: Int32
    /// Row *r* is in the tier when bit *r* mod 64 of word *r* ÷ 64 is set.
    let words: [UInt64]
    /// How many tier rows come before each word.
    let ranks: [UInt32]
    /// The tier rows' qualities, in row order.
    let qualities: [Int32]

    /// The tier of about `share` of the rows of `qualities` (none negative): every row whose quality is at
    /// least that of the row at that rank, best first.
    init(qualities all: [Int32], share: Double) {
        threshold = QualityTier.least(ofBest: Int(Double(all.count) * share), in: all)
        var words = [UInt64](repeating: 0, count: (all.count + 63) / 64)
        var ranks = [UInt32](repeating: 0, count: words.count)
        var qualities: [Int32] = []
        for (row, quality) in all.enumerated() {
            if row & 63 == 0 { ranks[row >> 6] = UInt32(qualities.count) }
            guard quality >= threshold else { continue }
            words[row >> 6] |= 1 << UInt64(row & 63)
            qualities.append(quality)
        }
        self.words = words
        self.ranks = ranks
        self.qualities = qualities
    }

    /// How many tier rows come before row `row` (below the index's row count).
    func rank(ofRow row: Int) -> Int {
        Int(ranks[row >> 6]) + (words[row >> 6] & ((1 << UInt64(row & 63)) - 1)).nonzeroBitCount
    }

    /// The least of the `best` largest of `qualities` (none negative), counted by value; `Int32.max` when
    /// `best` is 0.
    static func least(ofBest best: Int, in qualities: [Int32]) -> Int32 {
        guard best > 0, let largest = qualities.max() else { return Int32.max }
        var counts = [Int32](repeating: 0, count: Int(max(0, largest)) + 1)
        for quality in qualities where quality >= 0 { counts[Int(quality)] += 1 }
        var taken = 0
        var quality = counts.count - 1
        while quality > 0, taken + Int(counts[quality]) < best {
            taken += Int(counts[quality])
            quality -= 1
        }
        return Int32(quality)
    }
}
