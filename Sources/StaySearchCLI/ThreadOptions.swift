import ArgumentParser

#if canImport(Glibc)
import Glibc
#endif

/// How many threads one query may use: a large scan (a query without a region on a big index) is cut
/// into parts scanned at once.
struct ThreadOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Threads one query may use, 1 to 256 (default: every core; 1 for one-core figures).", valueName: "N"))
    var threads: Int?

    func validate() throws {
        if let threads, !(1...256).contains(threads) { throw ValidationError("threads must be from 1 to 256 (got \(threads))") }
    }

    /// The threads to use.
    var count: Int { threads ?? max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
}
