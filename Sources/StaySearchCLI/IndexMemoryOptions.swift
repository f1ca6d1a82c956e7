import ArgumentParser
import StayData

/// How a command that answers many queries holds a saved index (`serve`, `batch`): in huge pages by default,
/// where a scan's many stripes cost fewer TLB misses (on 1M listings with day-by-day prices, the 700-query mix
/// 0.86× the time at p50 on one core; docs/performance.md), for a copy at load and memory of its own.
struct IndexMemoryOptions: ParsableArguments {
    @Option(name: .customLong("index-memory"), help: ArgumentHelp(
        "How a saved index is held: huge-pages (a copy in 2 MiB pages: faster scans, about 0.2 s a GB more to load) "
            + "or mapped (the file's pages, shared with other processes that load it).",
        valueName: "huge-pages|mapped"))
    var memory: IndexMemory = .hugePages
}

extension IndexMemory: ExpressibleByArgument {}
