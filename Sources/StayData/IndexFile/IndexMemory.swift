/// How a loaded index holds the bytes of its file.
public enum IndexMemory: String, Sendable, CaseIterable {
    /// The file's pages mapped as they are in the file cache: quick to load (the cache is not copied), and
    /// shared by every process that loads the same file. The kernel picks their size (mostly 4 KiB), so a
    /// scan that reads many columns and many days' stripes at once misses the TLB often.
    case mapped
    /// A copy of the file in memory of the process's own, in 2 MiB pages where the kernel's transparent huge
    /// pages allow it: the scans' stripes stay in few TLB entries. It costs a copy at load (about 0.2 s a GB)
    /// and memory not shared with other processes, which cannot be paged out. Falls back to ``mapped`` when
    /// the machine has transparent huge pages turned off, or the copy would take more than half the memory
    /// available (to the machine or the process's control group), or the memory cannot be had.
    case hugePages = "huge-pages"
}
