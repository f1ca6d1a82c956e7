import StaySearch

/// A saved index loaded to take changes, with its change journal replayed: what every command and the server
/// do with `--index`. The index is mapped to take changes in place (copy-on-write: the file never changes),
/// a long journal's availability pages are copied at once before the replay, and the journal file is opened for
/// writing only once the index has loaded.
public enum LiveIndexFile {
    /// A loaded index with its journal.
    public struct Loaded<Journal> {
        /// The index with every journalled change applied.
        public let live: LiveIndex
        /// The journal opened for appending (``open(from:)``), or nothing (``load(from:)``).
        public let journal: Journal
        /// What the journal held: its changes and the warnings about its damaged tail.
        public let contents: ChangeJournal.Contents
        /// Journal records that named a listing or nights this index does not have, skipped.
        public let skipped: Int
    }

    /// Journals longer than this have every availability page copied up front rather than one page fault
    /// at a time during the replay.
    public static let prefaultAbove = 10_000

    /// Loads the index at `path` with its journal replayed, the journal only read; with `today`, its
    /// calendars then run at least as many days from today as the saved index's own (a window that rolled
    /// on, ``LiveIndex/extendCalendar(until:)``).
    /// - Parameter memory: how the index file's bytes are held (see ``IndexMemory``).
    /// - Throws: ``DataError`` for a journal or an index that cannot be read or is damaged.
    public static func load(from path: String, today: Day? = nil, memory: IndexMemory = .mapped) throws(DataError) -> Loaded<Void> {
        let (live, contents, skipped, _, _) = try loadAndReplay(path, today: today, memory: memory)
        return Loaded(live: live, journal: (), contents: contents, skipped: skipped)
    }

    /// Loads the index at `path` with its journal replayed, and opens the journal for the changes to come
    /// (a torn tail is cut off; see ``ChangeJournal/open(path:identity:)``). The journal file is written only
    /// once the index has loaded: a damaged index never costs its journal. With `today`, the calendars then
    /// run at least as many days from today as the saved index's own, and the journal records the days added
    /// before the changes to come.
    public static func open(from path: String, today: Day? = nil, memory: IndexMemory = .mapped) throws(DataError) -> Loaded<ChangeJournal> {
        let (live, contents, skipped, identity, until) = try loadAndReplay(path, today: today, memory: memory)
        let journal = try ChangeJournal.open(path: ChangeJournal.path(forIndex: path), identity: identity, holding: contents)
        if let until, until > contents.extensions.last?.until ?? live.frozenCalendarEnd {
            journal.appendExtension(until: until)
        }
        return Loaded(live: live, journal: journal, contents: contents, skipped: skipped)
    }

    /// The live index with its journal replayed, what the journal held, how many records were skipped, and
    /// the index's identity.
    private static func loadAndReplay(_ path: String, today: Day?, memory: IndexMemory)
        throws(DataError) -> (LiveIndex, ChangeJournal.Contents, Int, UInt64, until: Day?) {
        let identity = try IndexFileReader.identity(ofIndexAt: path)
        let contents = try ChangeJournal.read(path: ChangeJournal.path(forIndex: path), identity: identity)
        let (index, isWritable) = try IndexFileReader.loadForChanges(from: path, prefault: contents.changes.count > prefaultAbove,
                                                                       memory: memory)
        let live = isWritable ? LiveIndex(adoptingWritableAvailabilityOf: index) : LiveIndex(index)
        // The changes replayed in order with the days a rolling window added between them.
        var skipped = 0, start = 0
        for (afterChanges, extendedUntil) in contents.extensions {
            skipped += live.replay(Array(contents.changes[start..<afterChanges]))
            live.extendCalendar(until: extendedUntil)
            start = afterChanges
        }
        skipped += live.replay(start == 0 ? contents.changes : Array(contents.changes[start...]))
        if let today, let refusal = Day.refusal(ofToday: today, window: index.dayCount) { throw .todayTooLate(refusal) }
        let until = today.map { $0.advanced(by: index.dayCount) }
        if let until { live.extendCalendar(until: until) }
        return (live, contents, skipped, identity, until)
    }
}
