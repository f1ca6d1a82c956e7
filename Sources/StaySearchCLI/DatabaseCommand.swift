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
              staysearch db clock postgres://staysearch@127.0.0.1:5432/stays --today 2024-06-29
            """,
        subcommands: [Initialise.self, Load.self, Clock.self])

    /// `staysearch db clock URL [--today DATE | --utc]`.
    struct Clock: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clock",
            abstract: "Show or set the fleet's today: the database's date in UTC unless set; replicas take a new day from the change log.",
            discussion: """
                Without an option, prints the clock. --today sets the day (to move a test's clock), \
                --scrape-date sets it to the loaded scrape's own date (the first day of its calendars: to run a \
                past scrape such as the shipped samples), --utc goes back to the database's own date. The fleet's \
                today never goes back: a day before the one the log has announced is refused.
                """)

        @Argument(help: ArgumentHelp("The database: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE.", valueName: "URL"))
        var url: String

        @Option(help: ArgumentHelp("Set today to this day (not before the log's today).", valueName: "YYYY-MM-DD"))
        var today: String?

        @Flag(help: "Set today to the loaded scrape's own date, the first day of its calendars.")
        var scrapeDate = false

        @Flag(help: "Let the clock follow the database's own date in UTC again.")
        var utc = false

        func validate() throws {
            if let today, Day(iso: today) == nil { throw ValidationError("--today '\(today)' is not a date; use YYYY-MM-DD, e.g. 2024-07-12") }
            if [today != nil, scrapeDate, utc].filter({ $0 }).count > 1 { throw ValidationError("use one of --today, --scrape-date and --utc") }
        }

        func run() throws {
            let address = try DatabaseCommand.address(url)
            let day = today.flatMap { Day(iso: $0) }, utc = self.utc, scrapeDate = self.scrapeDate
            let clock = try Blocking.run {
                try await Database.using(address) { database in
                    if scrapeDate { return try await database.setClock(today: try await database.scrapeDate()) }
                    return day != nil || utc ? try await database.setClock(today: day) : try await database.clock()
                }
            }
            let source = clock.setToday == nil ? "the database's date in UTC" : "set with --today"
            let logged = clock.loggedToday.map { "the change log's today is \($0)" } ?? "the change log has announced no day yet"
            Standard.write("today is \(clock.today) (\(source)); \(logged)\n")
        }
    }

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
            let clock = try Blocking.run { try await Database.using(address) { try await $0.clock() } }
            let today = clock.loggedToday.map { max($0, clock.today) } ?? clock.today
            if today > index.firstDay {
                let lastNight = index.firstDay.advanced(by: index.dayCount - 1)
                Standard.error("staysearch: note: the fleet's today is \(today), after the scrape's own date \(index.firstDay): "
                    + (today > lastNight ? "every night it has (to \(lastNight)) is past" : "nights before \(today) cannot be searched or booked")
                    + "; to run it at its own date: staysearch db clock \(address) --scrape-date")
            }
        }
    }

    /// The address in `url`, or a failure naming what is wrong with it.
    static func address(_ url: String) throws -> DatabaseAddress {
        do { return try DatabaseAddress(url) } catch { throw CommandFailure(message: error.description, code: ExitStatus.badInput) }
    }
}
