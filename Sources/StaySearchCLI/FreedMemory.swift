import StaySearchAPI
import CMalloc

/// How commands that build an index hand freed memory back to the system.
enum FreedMemory {
    /// Makes every allocation of 128 KiB or more a mapping of its own, returned to the system when freed.
    ///
    /// glibc otherwise raises that threshold (up to 32 MiB) each time a large block is freed, after which
    /// blocks of a few MiB come from its heap and stay there when freed. A build frees such blocks all the
    /// time as the index takes their contents in (the builder's chunks of nights, the dense price rows
    /// waiting to be laid out by day): with the moving threshold, `generate` of 1M listings priced day by
    /// day peaked at 2.10 GiB; with it fixed, 1.41 GiB, for the same index. Searches keep glibc's default.
    static func returnLargeBlocksWhenFreed() {
        _ = mallopt(staysearch_m_mmap_threshold, 128 << 10)
    }
}
