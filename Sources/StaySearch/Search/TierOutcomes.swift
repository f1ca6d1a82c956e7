import Synchronization

/// How many `recommended` pages the upper tier of their matches told (``ListingIndex/recommendedPageByTier(_:kept:count:outcome:values:threads:)``),
/// how many the scan's every match told when the tier could not and they were few enough to be kept, and
/// how many were scanned again keeping every match, since the process started: what the tier saves and what
/// it costs, for tests and diagnostics.
package final class TierOutcomes: Sendable {
    /// The counts of every index of the process.
    package static let shared = TierOutcomes()

    package let answered = Atomic<Int>(0)
    package let rankedFromEveryMatch = Atomic<Int>(0)
    package let scannedAgain = Atomic<Int>(0)
}
