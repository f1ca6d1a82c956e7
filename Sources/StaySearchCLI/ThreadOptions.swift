import StaySearchAPI
import ArgumentParser
import Foundation

/// How many threads one query may use: a large scan (a query without a region, or a big city, on a large
/// index) is cut into parts of at least 32,768 rows scanned at once. Every core by default: on this project's
/// 2-core machine two threads took the 1M-listing dynamic mix from p50/p99 436–481/8,497–10,061 µs to
/// 368–393/6,496–7,588 µs (docs/performance.md); a small scan stays on one thread whatever is asked.
struct ThreadOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Threads one query may use, 1 to 256 (default: every core; a scan is split only when each part has 32,768 rows or more).", valueName: "N"))
    var threads: Int?

    func validate() throws {
        if let threads, !(1...256).contains(threads) {
            throw ValidationError("threads must be from 1 to 256 (got \(threads))")
        }
    }

    /// The threads to use: the one asked for, or one per active core.
    var count: Int { threads ?? ThreadOptions.activeCores }

    /// The active cores, read once (Foundation reads the cgroup's files for it, ~20 µs a call).
    private static let activeCores = min(256, max(1, ProcessInfo.processInfo.activeProcessorCount))
}
