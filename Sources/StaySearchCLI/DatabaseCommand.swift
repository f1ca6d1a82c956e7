import ArgumentParser
import StayData
import StaySearch
import StaySearchAPI
import StaySearchDB

/// `staysearch db`: PostgreSQL as the system of record of a fleet of replicas (docs/fleet.md).
struct DatabaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db",
        abstract: "Set up and load the PostgreSQL database that search replicas follow (serve --follow).",
        discussion: """
            The database decides every change (one transaction each: rules checked, overlapping bookings \
            refused by an exclusion constraint, the change numbered in its log in commit order); replicas \
            start from an index made by 'import --from' and follow the log.

            Examples:
              staysearch db init postgres://staysearch@127.0.0.1:5432/stays
              staysearch db load postgres://staysearch@127.0.0.1:5432/stays Antwerp=./antwerp
              staysearch import --from postgres://staysearch@127.0.0.1:5432/stays --output replica.ssx
            """,
        subcommands: [Initialise.self, Load.self])

    /// `staysearch db init URL`.
    struct Initialise: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init", abstract: "Create the tables (listings, bookings, change log) in an empty database.")

        @Argument(help: ArgumentHelp("The database: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE.", valueName: "URL"))
        var url: String

        @Flag(help: "Drop staysearch's tables and their data first.")
        var reset = false

        func run() throws {
            let address = try DatabaseCommand.address(url)
            let reset = self.reset
            try Blocking.run { try await Database.using(address) { try await $0.initialise(reset: reset) } }
            Standard.write("initialised \(address)\n")
        }
    }

    /// `staysearch db load URL [CITY=]DIR…`.
    struct Load: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "load",
            abstract: "Load Inside Airbnb folders into the database (COPY), in one transaction, before replicas follow it.")

        @Argument(help: ArgumentHelp("The database: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE.", valueName: "URL"))
        var url: String

        @Argument(help: ArgumentHelp("Inside Airbnb folders; CITY=DIR names the city (default: the folder's name).", valueName: "[CITY=]DIR"))
        var folders: [String]

        @Flag(help: "Stop at the first record that cannot be used, naming its file and line.")
        var strict = false

        func validate() throws {
            guard !folders.isEmpty else { throw ValidationError("name at least one Inside Airbnb folder to load") }
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
            let summary = try Blocking.run { try await Database.using(address) { try await $0.load(index) } }
            let done = Standard.now()
            Standard.write("loaded \(ResultFormatting.grouped(summary.listings)) listings (\(ResultFormatting.grouped(report.rejectedCount)) "
                + "records rejected) and \(summary.rings) neighbourhood rings into \(address) in \(String(format3: done - start)) s "
                + "(read \(String(format3: read - start)) s, COPY \(String(format3: done - read)) s, "
                + "\(ResultFormatting.grouped(summary.bytesSent)) bytes sent)\n")
        }
    }

    /// The address in `url`, or a failure naming what is wrong with it.
    static func address(_ url: String) throws -> DatabaseAddress {
        do { return try DatabaseAddress(url) } catch { throw CommandFailure(message: error.description, code: ExitStatus.badInput) }
    }
}
