import StaySearchAPI
import ArgumentParser
import StayData
import StaySearch
import StaySearchDB

/// `staysearch import`: Inside Airbnb folders in, one saved index out.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Read Inside Airbnb folders into one index and save it.",
        discussion: """
            The saved index loads in milliseconds (it is mapped, not parsed); use it with --index on \
            search, batch and regions. Records that cannot be used are counted and reported with file, \
            line and reason; --strict stops at the first one instead. The file is written under a \
            temporary name and renamed into place, so an earlier file survives a failed import. The calendars \
            read wait for the build in a temporary file in the same folder (never seen there: it is removed \
            as soon as it is made); leave room there for about twice the index.

            With --from, the index is made from a staysearch database (see 'staysearch db') at one \
            consistent point, whose change-log position is recorded in the file: a replica started on it \
            (serve --follow) applies the changes after it.

            Examples:
              staysearch import Antwerp=./antwerp --output antwerp.ssx
              staysearch import --from postgres://staysearch@127.0.0.1/stays --output replica.ssx
              staysearch import Zürich=./zurich Geneva=./geneva --output switzerland.ssx --strict
            """)

    @Argument(help: ArgumentHelp("Inside Airbnb folders; CITY=DIR names the city (default: the folder's name).", valueName: "[CITY=]DIR"))
    var folders: [String] = []

    @Option(help: ArgumentHelp("Make the index from this staysearch database instead of folders: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE.",
                               valueName: "URL"))
    var from: String?

    @Option(help: ArgumentHelp("The index file to write.", valueName: "FILE"))
    var output: String

    @Flag(help: "Stop at the first record that cannot be used, naming its file and line.")
    var strict = false

    func validate() throws {
        if from != nil {
            guard folders.isEmpty else { throw ValidationError("give Inside Airbnb folders or --from, not both") }
            return
        }
        guard !folders.isEmpty else { throw ValidationError("name at least one Inside Airbnb folder to import, or --from a database") }
        for folder in folders {
            do { _ = try DatasetFolder(argument: folder) } catch { throw ValidationError(error.description) }
        }
    }

    func run() throws {
        FreedMemory.returnLargeBlocksWhenFreed()
        if let from { return try importSnapshot(from: from) }
        let datasets = try folders.map { try DatasetFolder(argument: $0) }
        let start = Standard.now()
        var loader = InsideAirbnbLoader(strict: strict)
        // Calendars wait for the build, and the table of day-by-day prices is laid out, in a temporary file
        // beside the output rather than in memory: ten million listings with dynamic prices import in
        // less memory than their index takes.
        loader.spill = try SpillFile(besides: output)
        if Standard.errorIsTerminal {
            loader.progress = { path, bytesRead, totalBytes, records in
                let elapsed = max(Standard.now() - start, 0.001)
                let share = totalBytes > 0 ? " \(bytesRead * 100 / totalBytes)% of" : ""
                Standard.errorWithoutNewline("\r\u{1B}[K\(share) \(path): \(ResultFormatting.grouped(records)) rows, "
                    + "\(ResultFormatting.grouped(Int(Double(records) / elapsed))) rows/s")
            }
        }
        let (index, report) = try loader.loadIndex(from: datasets)
        if Standard.errorIsTerminal { Standard.errorWithoutNewline("\r\u{1B}[K") }
        let loaded = Standard.now()
        let size = try IndexFileWriter.save(index, to: output)
        let saved = Standard.now()

        var summary = "imported \(ResultFormatting.grouped(report.listingsLoaded)) listings and "
            + "\(ResultFormatting.grouped(report.calendarRowsLoaded)) calendar rows into \(output) "
            + "(\(ResultFormatting.grouped(size)) bytes, \(index.count > 0 ? size / index.count : 0) per listing) "
            + "in \(String(format3: saved - start)) s (read \(String(format3: loaded - start)) s, "
            + "save \(String(format3: saved - loaded)) s)\n"
        summary += "records: \(ResultFormatting.grouped(report.recordsRead)) read, "
            + "\(ResultFormatting.grouped(report.recordsRead - report.rejectedCount)) loaded, "
            + "\(ResultFormatting.grouped(report.rejectedCount)) rejected\n"
        if report.listingsWithFees > 0 {
            summary += "fees: \(ResultFormatting.grouped(report.listingsWithFees)) listings have fees\n"
        }
        for file in report.files where file.rejected > 0 {
            let reasons = file.rejectedByReason.sorted { $0.value > $1.value }.map { "\($0.value) \($0.key)" }
            summary += "  \(file.path): \(reasons.joined(separator: ", "))\n"
        }
        for rejection in report.rejections.prefix(10) { summary += "  \(rejection)\n" }
        if report.rejectedCount > 10 { summary += "  … (\(report.rejectedCount - 10) more)\n" }
        for warning in report.warnings { summary += "warning: \(warning)\n" }
        if report.rejectedFieldCount > 0 {
            summary += "fields: \(ResultFormatting.grouped(report.rejectedFieldCount)) left out of listings that loaded\n"
            for rejection in report.fieldRejections.prefix(10) { summary += "  \(rejection)\n" }
        }
        Standard.write(summary)
    }

    /// `--from URL`: the database's listings at one consistent point, with that point's log position.
    private func importSnapshot(from url: String) throws {
        let address = try DatabaseCommand.address(url)
        let start = Standard.now()
        let snapshot = try Blocking.run { try await Database.using(address) { try await $0.snapshot() } }
        let read = Standard.now()
        let size = try IndexFileWriter.save(snapshot.index, to: output, changeLogPosition: snapshot.position, today: snapshot.today)
        let saved = Standard.now()
        Standard.write("imported \(ResultFormatting.grouped(snapshot.index.count)) listings from \(address) at change-log position "
            + "\(snapshot.position) into \(output) (\(ResultFormatting.grouped(size)) bytes) in \(String(format3: saved - start)) s "
            + "(read \(String(format3: read - start)) s, save \(String(format3: saved - read)) s)\n")
    }
}
