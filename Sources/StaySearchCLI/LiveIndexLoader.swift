import StayData
import StaySearch

/// Loading a saved index with its change journal replayed: what every command that reads `--index` does.
enum LiveIndexLoader {
    /// The index at `path` as a live index, with the changes of its journal applied, and the journal's
    /// contents (warnings already printed).
    static func load(_ path: String) throws -> (LiveIndex, ChangeJournal.Contents) {
        let identity = try IndexFileReader.identity(ofIndexAt: path)
        let contents = try ChangeJournal.read(path: ChangeJournal.path(forIndex: path), identity: identity)
        let live = try open(path, expecting: contents.changes.count)
        for warning in contents.warnings { Standard.error("staysearch: warning: \(warning)") }
        replay(contents, into: live)
        return (live, contents)
    }

    /// The index at `path` as a live index whose changes write into a private copy-on-write mapping of
    /// the file (no copy of the availability bit sets up front).
    /// - Parameter changes: how many changes are about to be replayed: above 10,000, the pages are copied
    ///   at once rather than one fault at a time.
    static func open(_ path: String, expecting changes: Int = 0) throws -> LiveIndex {
        let (index, isWritable) = try IndexFileReader.loadForChanges(from: path, prefault: changes > 10_000)
        return isWritable ? LiveIndex(adoptingWritableAvailabilityOf: index) : LiveIndex(index)
    }

    /// Applies a journal's changes: each was accepted when it was written, on this index (the journal
    /// names it), so their effects are replayed without checking them again.
    static func replay(_ contents: ChangeJournal.Contents, into live: LiveIndex) {
        let skipped = live.replay(contents.changes)
        if skipped > 0 {
            Standard.error("staysearch: warning: \(skipped) journal records name a listing or nights this index does not have; skipped")
        }
    }
}
