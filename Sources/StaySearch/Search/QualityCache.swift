/// Each row's quality part of the `recommended` score (``RecommendedScore/quality(ratingHundredths:reviews:recentReviews:isSuperhost:cityMeanHundredths:)``),
/// worked out once per index and shared by every copy of it and every thread searching it.
///
/// The quality depends on the city's mean rating, which a live index's changes can move: the cache keeps
/// the qualities for the frozen means and for the last set of cities whose mean differs (only their rows
/// worked out again).
final class QualityCache: @unchecked Sendable {
    private let lock = ReadWriteLock()
    private var frozen: [Int32]?
    private var latest: (means: [String: Int64], qualities: [Int32])?
    private var frozenTier: QualityTier?

    /// The qualities with `changedMeans` (city name → mean rating in hundredths, for the cities whose mean
    /// is not the frozen one), from the cache or made: `makeFrozen` for the frozen means, `adjust` to
    /// rework a copy of them for the changed cities.
    func qualities(changedMeans: [String: Int64], makeFrozen: () -> [Int32],
                   adjust: (inout [Int32], [String: Int64]) -> Void) -> [Int32] {
        if let found = lock.reading({ cached(changedMeans) }) { return found }
        return lock.writing {
            if let found = cached(changedMeans) { return found }
            let base = frozen ?? makeFrozen()
            frozen = base
            guard !changedMeans.isEmpty else { return base }
            var qualities = base
            adjust(&qualities, changedMeans)
            latest = (changedMeans, qualities)
            return qualities
        }
    }

    /// The tier of rows the recommended order keeps while it scans (``ListingIndex/recommendedTier()``):
    /// the rows of the best ``tierShare`` of qualities with the frozen means, worked out once.
    func frozenTier(makeFrozen: () -> [Int32]) -> QualityTier {
        if let tier = lock.reading({ frozenTier }) { return tier }
        let qualities = self.qualities(changedMeans: [:], makeFrozen: makeFrozen, adjust: { _, _ in })
        return lock.writing {
            if let tier = frozenTier { return tier }
            let tier = QualityTier(qualities: qualities, share: QualityCache.tierShare)
            frozenTier = tier
            return tier
        }
    }

    /// The share of rows in the tier: about a tenth (see docs/performance.md, "The recommended order").
    static let tierShare = 0.1

    private func cached(_ changedMeans: [String: Int64]) -> [Int32]? {
        if changedMeans.isEmpty { return frozen }
        if let latest, latest.means == changedMeans { return latest.qualities }
        return nil
    }
}
