import ArgumentParser
import StayData
import StaySearch
import StaySearchAPI
import StaySearchDB

extension DatabaseCommand {
    /// `staysearch db refresh URL [CITY=]DIR…`.
    struct Refresh: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "refresh",
            abstract: "Take a new scrape of its cities into a live database: listings added, removed and updated; nights booked here stay booked.",
            discussion: """
                Listings new in the scrape are added; listings of its cities it no longer has are removed (those \
                added with a 'listing' change are left alone); fields, prices, stay rules and nights from today on \
                are set as the scrape says, but a night booked through staysearch stays closed. Each changed listing \
                is one change-log entry, so replicas take it whole, in commit order with the bookings around it. \
                Safe to run while replicas serve and clients book; a refresh that stopped is finished by running it \
                again.
                """)

        @Argument(help: ArgumentHelp("The database: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE.", valueName: "URL"))
        var url: String

        @Argument(help: ArgumentHelp("Inside Airbnb folders; CITY=DIR names the city (default: the folder's name).", valueName: "[CITY=]DIR"))
        var folders: [String]

        @Flag(help: "Stop at the first record that cannot be used, naming its file and line.")
        var strict = false

        @Option(help: ArgumentHelp("Changed listings written per transaction (a booking of one of them waits for it).", valueName: "N"))
        var chunkSize = 200

        func validate() throws {
            guard !folders.isEmpty else { throw ValidationError("name at least one Inside Airbnb folder to take in") }
            guard (1...10_000).contains(chunkSize) else { throw ValidationError("--chunk-size must be from 1 to 10000") }
            for folder in folders {
                do { _ = try DatasetFolder(argument: folder) } catch { throw ValidationError(error.description) }
            }
        }

        func run() throws {
            let address = try DatabaseCommand.address(url)
            let start = Standard.now()
            let (index, report) = try InsideAirbnbLoader(strict: strict).loadIndex(from: try folders.map { try DatasetFolder(argument: $0) })
            for warning in report.warnings { Standard.error("staysearch: warning: \(warning)") }
            let read = Standard.now()
            let chunkSize = self.chunkSize
            let summary = try Blocking.run { try await Database.using(address) { try await $0.refresh(with: index, chunkSize: chunkSize) } }
            let done = Standard.now()
            for refusal in summary.refused.prefix(10) { Standard.error("staysearch: warning: not taken in: \(refusal)") }
            if summary.refused.count > 10 { Standard.error("staysearch: warning: \(summary.refused.count - 10) more listings not taken in") }
            let g = ResultFormatting.grouped
            Standard.write("refreshed \(g(summary.scraped)) listings of the scrape into \(address) (today \(summary.today)): "
                + "\(g(summary.added)) added, \(g(summary.updated)) updated, \(g(summary.unchanged)) unchanged, \(g(summary.removed)) removed"
                + (summary.removedWithBookings > 0 ? " (\(g(summary.removedWithBookings)) with bookings, kept)" : "")
                + (summary.refused.isEmpty ? "" : ", \(g(summary.refused.count)) not taken in")
                + "; \(g(summary.bookedNightsKeptClosed)) booked nights kept closed; \(g(summary.logRows)) change-log rows; "
                + "\(String(format3: done - start)) s (read \(String(format3: read - start)) s)\n")
        }
    }
}
