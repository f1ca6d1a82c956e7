import StaySearchAPI
import ArgumentParser
import StayData
import StaySearch

/// `staysearch compact`: folds an index's change journal into a new index file.
struct CompactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compact",
        abstract: "Fold an index's change journal into the index file (atomic replace) and empty the journal.",
        discussion: """
            The new index is written beside the old one, synced and renamed over it; then the journal is \
            replaced by an empty one for the new index. A crash at any moment leaves either the old index \
            with its journal or the new one (an old journal beside it is then ignored with a warning). An index \
            that follows a database (serve --follow) keeps the change-log position it reached: a replica started \
            on the compacted index resumes from there.

            Example:
              staysearch compact --index antwerp.ssx
            """)

    @Option(name: .customLong("index"), help: ArgumentHelp("The saved index whose journal to fold in.", valueName: "FILE"))
    var indexPath: String

    func run() throws {
        FreedMemory.returnLargeBlocksWhenFreed()
        let start = Standard.now()
        let (live, contents) = try LiveIndexLoader.load(indexPath)
        // An index that follows a database keeps the change-log position its journal reached (or its snapshot's).
        let position = try contents.followedPosition ?? IndexFileReader.changeLogPosition(ofIndexAt: indexPath)
        let today = try contents.followedPosition == nil ? IndexFileReader.systemOfRecordToday(ofIndexAt: indexPath) : contents.followedToday
        let size = try live.withIndex { index throws(DataError) in
            try IndexFileWriter.save(index, to: indexPath, changeLogPosition: position, today: today)
        }
        let identity = try IndexFileReader.identity(ofIndexAt: indexPath)
        try ChangeJournal.reset(path: ChangeJournal.path(forIndex: indexPath), identity: identity,
                                firstSequence: contents.lastSequence + 1)
        Standard.write("compacted \(contents.changes.count) change\(contents.changes.count == 1 ? "" : "s") into \(indexPath) "
            + "(\(ResultFormatting.grouped(size)) bytes\(position.map { ", at change-log position \($0)" } ?? "")) in \(Int(((Standard.now() - start) * 1000).rounded())) ms\n")
    }
}
