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
        // The nights before the window's first day are past: a window that rolled on starts the compacted
        // index at its today (a followed log's, else the day its last extension was made on), so that the
        // saved calendars are the window again.
        let span = live.calendarSpan
        let windowEnd = span.first.advanced(by: span.dayCount)
        let windowStart = contents.followedPosition != nil ? today
            : contents.extensions.last.map { $0.until.advanced(by: -span.first.distance(to: live.frozenCalendarEnd)) }
        let size = try live.withIndex(from: min(windowStart ?? span.first, windowEnd)) { index throws(DataError) in
            try IndexFileWriter.save(index, to: indexPath, changeLogPosition: position, today: today)
        }
        let identity = try IndexFileReader.identity(ofIndexAt: indexPath)
        try ChangeJournal.reset(path: ChangeJournal.path(forIndex: indexPath), identity: identity,
                                firstSequence: contents.lastSequence + 1)
        Standard.write("compacted \(contents.changes.count) change\(contents.changes.count == 1 ? "" : "s") into \(indexPath) "
            + "(\(ResultFormatting.grouped(size)) bytes\(position.map { ", at change-log position \($0)" } ?? "")) in \(Int(((Standard.now() - start) * 1000).rounded())) ms\n")
    }
}
