import StayData
import StaySearch

/// Loading a saved index with its change journal replayed: what every command that reads `--index` does.
enum LiveIndexLoader {
    /// The index at `path` as a live index, with the changes of its journal applied, and the journal's
    /// contents (warnings already printed).
    static func load(_ path: String, frozen: ListingIndex? = nil) throws -> (LiveIndex, ChangeJournal.Contents) {
        let frozen = try frozen ?? IndexFileReader.load(from: path)
        let identity = try IndexFileReader.identity(ofIndexAt: path)
        let contents = try ChangeJournal.read(path: ChangeJournal.path(forIndex: path), identity: identity)
        for warning in contents.warnings { Standard.error("staysearch: warning: \(warning)") }
        let live = LiveIndex(frozen)
        replay(contents, into: live)
        return (live, contents)
    }

    /// Applies a journal's changes; each was accepted when it was written, so a refusal now means the
    /// journal and the index disagree, which is reported, not fatal.
    static func replay(_ contents: ChangeJournal.Contents, into live: LiveIndex) {
        var sequence = contents.firstSequence
        for error in live.apply(contents.changes) {
            if let error { Standard.error("staysearch: warning: journal record \(sequence) no longer applies: \(error)") }
            sequence += 1
        }
    }
}
