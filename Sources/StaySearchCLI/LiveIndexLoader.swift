import StaySearchAPI
import StayData
import StaySearch

/// Loading a saved index with its change journal replayed (``LiveIndexFile``), what every command that reads
/// `--index` does, with the journal's warnings printed.
enum LiveIndexLoader {
    /// The index at `path` as a live index, with the changes of its journal applied, and the journal's
    /// contents.
    static func load(_ path: String) throws -> (LiveIndex, ChangeJournal.Contents) {
        let loaded = try LiveIndexFile.load(from: path)
        report(loaded)
        return (loaded.live, loaded.contents)
    }

    /// The index at `path` as a live index with its journal replayed, and the journal open for the changes
    /// to come (`update`, `serve`).
    static func open(_ path: String) throws -> (LiveIndex, ChangeJournal) {
        let loaded = try LiveIndexFile.open(from: path)
        report(loaded)
        return (loaded.live, loaded.journal)
    }

    private static func report<Journal>(_ loaded: LiveIndexFile.Loaded<Journal>) {
        for warning in loaded.contents.warnings { Standard.error("staysearch: warning: \(warning)") }
        if loaded.skipped > 0 {
            Standard.error("staysearch: warning: \(loaded.skipped) journal records name a listing or nights this index does not have; skipped")
        }
    }
}
