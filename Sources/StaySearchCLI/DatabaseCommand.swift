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
              staysearch db settings postgres://staysearch@127.0.0.1:5432/stays --service-fee 14.2 --tax Antwerp=7
            """,
        subcommands: [Initialise.self, Load.self, Refresh.self, Clock.self, Settings.self, Snapshot.self, Trim.self])

    /// `staysearch db settings URL [--service-fee PERCENT] [--tax CITY=PERCENT]…`.
    struct Settings: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "settings",
            abstract: "Show or set the platform's service fee and cities' taxes, which every replica prices with.",
            discussion: """
                Without an option, prints the settings. --service-fee sets the fee added to every dated stay's \
                trip price; --tax CITY=PERCENT sets one city's tax (0 removes it), the other cities' kept. The \
                settings are kept in the database and written to its change log: every replica takes them at \
                the same position, and /v1/index shows them.
                """)

        @Argument(help: ArgumentHelp("The database: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE.", valueName: "URL"))
        var url: String

        @OptionGroup var platform: PlatformOptions

        func run() throws {
            let address = try DatabaseCommand.address(url)
            let (given, cities) = try platform.parsed()
            let setsFee = platform.serviceFee != nil
            let (settings, position) = try Blocking.run { () async throws -> (PlatformFees, UInt64?) in
                try await Database.using(address) { database in
                    var settings = try await database.platformSettings()
                    guard setsFee || !cities.isEmpty else { return (settings, nil) }
                    let names = try await database.cityNames()
                    let known = Set(names.map(TextFolding.fold))
                    for city in cities where !known.contains(TextFolding.fold(city)) {
                        throw CommandFailure(message: "--tax '\(city)=…': '\(city)' is not a city of the database (its cities: "
                            + names.joined(separator: ", ") + ")", code: ExitStatus.badInput)
                    }
                    if setsFee { settings.serviceFeeBasisPoints = given.serviceFeeBasisPoints }
                    for city in cities {
                        let basisPoints = given.taxBasisPoints(city: city)
                        if basisPoints == 0 { settings.removeTax(city: city) } else { settings.setTax(city: city, basisPoints: basisPoints) }
                    }
                    return (settings, try await database.setPlatformSettings(settings))
                }
            }
            let taxes = settings.taxes.map { "\($0.city) \(PlatformFees.percentText($0.basisPoints)) %" }
            Standard.write("service fee \(PlatformFees.percentText(settings.serviceFeeBasisPoints)) %; taxes: "
                + (taxes.isEmpty ? "none" : taxes.joined(separator: ", "))
                + (position.map { " (set at change-log position \($0))" } ?? "") + "\n")
        }
    }

    /// `staysearch db snapshot URL --to DIR [--keep N]`.
    struct Snapshot: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "snapshot",
            abstract: "Save an index of the database, with its change-log position, for replicas to start from; keep the newest N.",
            discussion: """
                Writes DIR/snapshot-POSITION.ssx (as 'import --from' makes it) and registers it in the database; \
                a replica whose position 'db trim' removed starts from the newest one. DIR must be readable where \
                replicas start.
                """)

        @Argument(help: ArgumentHelp("The database: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE.", valueName: "URL"))
        var url: String

        @Option(name: .customLong("to"), help: ArgumentHelp("The folder snapshots are kept in.", valueName: "DIR"))
        var folder: String

        @Option(help: ArgumentHelp("How many of the newest snapshots to keep (older files and rows are removed).", valueName: "N"))
        var keep = 2

        func validate() throws {
            guard keep >= 1 else { throw ValidationError("--keep must be at least 1") }
        }

        func run() throws {
            let address = try DatabaseCommand.address(url)
            let folder = self.folder, keep = self.keep
            let start = Standard.now()
            let (saved, bytes, removed) = try Blocking.run {
                try await Database.using(address) { try await $0.saveSnapshot(into: folder, keep: keep) }
            }
            Standard.write("snapshot of \(ResultFormatting.grouped(saved.listings)) listings at change-log position \(saved.position)"
                + (saved.today.map { " (today \($0))" } ?? "") + ": \(saved.path) (\(ResultFormatting.grouped(bytes)) bytes) in "
                + "\(String(format3: Standard.now() - start)) s; \(removed.count) older removed\n")
        }
    }

    /// `staysearch db trim URL [--keep-hours H]`.
    struct Trim: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "trim",
            abstract: "Remove the change log's changes up to the newest snapshot's position, but those of the last H hours.",
            discussion: """
                Replicas at or after the newest snapshot's position lose nothing; one behind the trimmed changes says \
                so and starts from the newest snapshot. Run it after 'db snapshot', e.g. daily.
                """)

        @Argument(help: ArgumentHelp("The database: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE.", valueName: "URL"))
        var url: String

        @Option(help: ArgumentHelp("Keep the changes committed in the last H hours even when a snapshot holds them.", valueName: "H"))
        var keepHours = 24.0

        func validate() throws {
            guard keepHours >= 0, keepHours.isFinite else { throw ValidationError("--keep-hours must be 0 or more") }
        }

        func run() throws {
            let address = try DatabaseCommand.address(url)
            let seconds = keepHours * 3600
            let (removed, through, snapshot) = try Blocking.run { try await Database.using(address) { try await $0.trimLog(keepSeconds: seconds) } }
            Standard.write("trimmed \(ResultFormatting.grouped(removed)) changes; the log keeps the changes after position \(through) "
                + "(newest snapshot at \(snapshot))\n")
        }
    }

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
            let source = clock.setToday == nil ? "the database's date in UTC" : "set by 'db clock'"
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
