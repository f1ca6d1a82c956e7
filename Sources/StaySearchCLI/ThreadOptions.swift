import ArgumentParser

/// How many threads one query may use: a large scan (a query without a region on a big index) is cut
/// into parts scanned at once. One by default: on this project's 2-core machine two threads did not lower
/// the 1M-listing query mix's p90 or p99 (docs/performance.md).
struct ThreadOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Threads one query may use, 1 to 256 (default 1; more cuts large scans into parts scanned at once).", valueName: "N"))
    var threads: Int = 1

    func validate() throws {
        guard (1...256).contains(threads) else { throw ValidationError("threads must be from 1 to 256 (got \(threads))") }
    }

    /// The threads to use.
    var count: Int { threads }
}
