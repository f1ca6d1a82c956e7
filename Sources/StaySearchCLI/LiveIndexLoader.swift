import StaySearchAPI
import StayData
import StaySearch

/// Loading a saved index with its change journal replayed (``LiveIndexFile``), what every command that reads
/// `--index` does, with the journal's warnings printed.
enum LiveIndexLoader {
    /// The index at `path` as a live index, with the changes of its journal applied, and the journal's
    /// contents.
    static func load(_ path: String, memory: IndexMemory = .mapped) throws -> (LiveIndex, ChangeJournal.Contents) {
        let loaded = try LiveIndexFile.load(from: path, memory: memory)
        report(loaded)
        return (loaded.live, loaded.contents)
    }

    /// The index at `path` as a live index with its journal replayed, and the journal open for the changes
    /// to come (`update`, `serve`), its calendars running at least as many days from `today` as the saved
    /// index's own (a window that rolls; the days added are journalled).
    /// An index made from a database (`import --from`) or following one (`serve --follow`) is refused: it
    /// changes only by following the database's change log, and changes written beside the log would be
    /// dropped by the next load.
    static func open(_ path: String, today: Day?, memory: IndexMemory = .mapped) throws -> (LiveIndex, ChangeJournal) {
        let loaded = try LiveIndexFile.open(from: path, today: today, memory: memory)
        if let position = try loaded.contents.followedPosition ?? IndexFileReader.changeLogPosition(ofIndexAt: path) {
            loaded.journal.close()
            throw CommandFailure(message: "\(path) follows a database (change-log position \(position)): send changes to the database "
                + "through a replica ('serve --index \(path) --follow URL'), not to this file", code: ExitStatus.badInput)
        }
        report(loaded)
        return (loaded.live, loaded.journal)
    }

    /// The change-log position the index at `path` and its journal hold, when they follow a database.
    static func followedPosition(ofIndexAt path: String) throws -> UInt64? {
        let contents = try ChangeJournal.read(path: ChangeJournal.path(forIndex: path), identity: IndexFileReader.identity(ofIndexAt: path))
        return try contents.followedPosition ?? IndexFileReader.changeLogPosition(ofIndexAt: path)
    }

    private static func report<Journal>(_ loaded: LiveIndexFile.Loaded<Journal>) {
        for warning in loaded.contents.warnings { Standard.error("staysearch: warning: \(warning)") }
        if loaded.skipped > 0 {
            Standard.error("staysearch: warning: \(loaded.skipped) journal records name a listing or nights this index does not have; skipped")
        }
    }
}
