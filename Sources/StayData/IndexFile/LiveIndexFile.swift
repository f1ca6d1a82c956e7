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

    /// Loads the index at `path` with its journal replayed, the journal only read.
    /// - Throws: ``DataError`` for a journal or an index that cannot be read or is damaged.
    public static func load(from path: String) throws(DataError) -> Loaded<Void> {
        let (live, contents, skipped, _) = try loadAndReplay(path)
        return Loaded(live: live, journal: (), contents: contents, skipped: skipped)
    }

    /// Loads the index at `path` with its journal replayed, and opens the journal for the changes to come
    /// (a torn tail is cut off; see ``ChangeJournal/open(path:identity:)``). The journal file is written only
    /// once the index has loaded: a damaged index never costs its journal.
    public static func open(from path: String) throws(DataError) -> Loaded<ChangeJournal> {
        let (live, contents, skipped, identity) = try loadAndReplay(path)
        let journal = try ChangeJournal.open(path: ChangeJournal.path(forIndex: path), identity: identity, holding: contents)
        return Loaded(live: live, journal: journal, contents: contents, skipped: skipped)
    }

    /// The live index with its journal replayed, what the journal held, how many records were skipped, and
    /// the index's identity.
    private static func loadAndReplay(_ path: String) throws(DataError) -> (LiveIndex, ChangeJournal.Contents, Int, UInt64) {
        let identity = try IndexFileReader.identity(ofIndexAt: path)
        let contents = try ChangeJournal.read(path: ChangeJournal.path(forIndex: path), identity: identity)
        let (index, isWritable) = try IndexFileReader.loadForChanges(from: path, prefault: contents.changes.count > prefaultAbove)
        let live = isWritable ? LiveIndex(adoptingWritableAvailabilityOf: index) : LiveIndex(index)
        return (live, contents, live.replay(contents.changes), identity)
    }
}
