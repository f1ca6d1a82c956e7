import StaySearchAPI
import ArgumentParser
import Dispatch
import Foundation
import Hummingbird
import Logging
import StayData
import StaySearch
import StaySearchDB

/// `staysearch serve`: the HTTP API (docs/command-line.md, "The HTTP API") over one shared live index.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve searches, region suggestions, listings and live changes over HTTP (JSON).",
        discussion: """
            Routes: GET /v1/search?… (the batch keys; repeat a key for a list; bbox=s,w,n,e, near=lat,lon), \
            POST /v1/search/batch (JSON lines), GET /v1/regions?prefix=P&limit=N, GET /v1/listings/ID?checkin=…&\
            checkout=…&adults=…, POST /v1/changes (JSON lines, with --index: journalled beside it; needs \
            Authorization: Bearer KEY with a key of --write-key-file), GET /healthz; /openapi.json lists them all. \
            Errors: {"error": "…", "message": "…", "code": "…", "type": "…"} (codes in docs/errors.md) with 400 \
            for bad input, 401/403 for a write without a valid key, 404 for an unknown listing or route, 405 for a \
            wrong method, 409 for nights that cannot be had, 413 for a body over 10 MiB, 503 for a database away. \
            SIGTERM or SIGINT: requests in flight finish, then the journal is closed.

            Examples:
              staysearch serve --index antwerp.ssx --port 8080 --write-key-file keys.txt
              staysearch serve --index antwerp.ssx --cors-origin https://app.example.com
              curl 'http://127.0.0.1:8080/v1/search?region=zuid&checkin=2024-07-12&checkout=2024-07-15&adults=2'
            """)

    @OptionGroup var data: DataOptions

    @Option(help: ArgumentHelp("The address to listen on.", valueName: "HOST"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The port to listen on (0: any free port, printed at start).", valueName: "PORT"))
    var port = 8080

    @Option(help: ArgumentHelp("A file of keys that may write (POST /v1/changes), one a line, at least 16 characters each; without it writes are refused.",
                               valueName: "FILE"))
    var writeKeyFile: String?

    @Option(help: ArgumentHelp("Follow this staysearch database (see 'staysearch db'): writes go to it, and its change log is applied "
                               + "here in commit order; needs --index FILE made by 'import --from'.", valueName: "URL"))
    var follow: String?

    @Option(help: ArgumentHelp("Let pages of this origin (scheme://host[:port]) call the API from a browser (CORS); repeat for "
                               + "several, '*' for any. Without it browsers keep the answers from pages of other origins.",
                               valueName: "ORIGIN"))
    var corsOrigin: [String] = []

    @OptionGroup var display: DisplayOptions
    @OptionGroup var indexMemory: IndexMemoryOptions
    @OptionGroup var platform: PlatformOptions

    @Option(help: ArgumentHelp("With --follow: the most seconds this replica may be behind the log and still answer /healthz as ready.",
                               valueName: "SECONDS"))
    var maxLag = 5.0

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("port must be from 0 to 65535") }
        if follow != nil, data.indexPath == nil { throw ValidationError("--follow needs --index FILE (made by 'staysearch import --from')") }
        if let follow, data.clock.today != nil {
            throw ValidationError("with --follow, today is the database's, the same for every replica: set it with "
                + "'staysearch db clock \(follow) --today DATE' instead of --today")
        }
        if let follow, platform.serviceFee != nil || !platform.tax.isEmpty {
            throw ValidationError("with --follow, the service fee and taxes are the database's, the same for every replica: set them with "
                + "'staysearch db settings \(follow) --service-fee PERCENT --tax CITY=PERCENT' instead")
        }
        for origin in corsOrigin where origin != "*" {
            let parts = origin.split(separator: "://", maxSplits: 1)
            guard parts.count == 2, ["http", "https"].contains(parts[0]), !parts[1].isEmpty, !parts[1].contains("/") else {
                throw ValidationError("--cors-origin must be an origin such as https://app.example.com (scheme and host, no path) or * (got '\(origin)')")
            }
        }
        guard maxLag > 0, maxLag <= 86_400 else { throw ValidationError("max-lag must be from 0 to 86400 seconds (got \(maxLag))") }
    }

    func run() throws {
        let writeKeys = try readWriteKeys()
        let registry = SearchServer.bootstrapMetrics()
        let (service, replica, replicaJournal) = try follow.map { try makeReplica(following: $0) } ?? (try makeService(), nil, nil)
        service.live.prepareRecommendedOrder()
        // A traveller's first search (no region, no dates, one or two adults) is answered from the order of
        // the prices without dates: worked out now rather than in that search's time.
        service.live.prepareUndatedOrder(for: [1, 2].map { adults in
            var query = SearchQuery(adults: adults)
            query.today = service.clock.today
            return query
        })
        let outcome = ServeOutcome()
        let done = DispatchSemaphore(value: 0)
        let host = self.host, port = self.port, origins = corsOrigin
        Task {
            do { try await SearchServer.run(service, writeKeys: writeKeys, host: host, port: port, corsOrigins: origins, metrics: registry) } catch { outcome.failure = "\(error)" }
            done.signal()
        }
        done.wait()
        Standard.error("staysearch: the server has stopped\(replica == nil ? "" : "; closing the database connections")")
        if let replica { try? Blocking.run { await replica.stop() } }
        replicaJournal?.close()
        service.close()
        if let failure = outcome.failure { throw CommandFailure(message: "the server stopped: \(failure)") }
    }

    /// The keys of `--write-key-file`, if given.
    private func readWriteKeys() throws -> WriteKeys? {
        guard let writeKeyFile else { return nil }
        let text: String
        do {
            text = try String(contentsOfFile: writeKeyFile, encoding: .utf8)
        } catch {
            throw CommandFailure(message: "\(writeKeyFile): cannot read the write keys (\(error.localizedDescription))", code: ExitStatus.badInput)
        }
        do {
            return try WriteKeys(fileText: text, path: writeKeyFile)
        } catch {
            throw CommandFailure(message: error.message, code: ExitStatus.badInput)
        }
    }

    /// A replica of the database at `url`: the index of `--index` with its journal replayed, following the
    /// log from the position they hold.
    private func makeReplica(following url: String) throws -> (SearchService, Replica?, ChangeJournal?) {
        let address = try DatabaseCommand.address(url)
        let indexPath = data.indexPath!
        if let position = try LiveIndexLoader.followedPosition(ofIndexAt: indexPath),
           let snapshot = try Blocking.run({ try await Replica.startingPoint(address: address, indexPath: indexPath, position: position) }) {
            Standard.error("staysearch: change-log position \(position) of \(indexPath) has been trimmed from \(address); "
                + "starting from the newest snapshot \(snapshot.path) (position \(snapshot.position)) instead")
        }
        let snapshotPosition = try IndexFileReader.changeLogPosition(ofIndexAt: indexPath)
        let snapshotToday = try IndexFileReader.systemOfRecordToday(ofIndexAt: indexPath)
        let loaded = try LiveIndexFile.open(from: indexPath, memory: indexMemory.memory)
        for warning in loaded.contents.warnings { Standard.error("staysearch: warning: \(warning)") }
        guard let position = loaded.contents.followedPosition ?? snapshotPosition else {
            loaded.journal.close()
            throw CommandFailure(message: "\(indexPath) was not made from a database: make it with 'staysearch import --from \(address)'",
                                 code: ExitStatus.badInput)
        }
        // The log's today at the position: the journal's last position record's, else the snapshot's.
        let today = loaded.contents.followedPosition == nil ? snapshotToday : loaded.contents.followedToday
        let live = loaded.live, maxLag = self.maxLag
        // Handed to the follower, which alone writes it from now on.
        nonisolated(unsafe) let journal = loaded.journal
        let replica = try Blocking.run {
            try await Replica.start(address: address, live: live, journal: journal, position: position, today: today, maxLag: maxLag)
        }
        Standard.error("staysearch: following \(address) from change-log position \(position)"
            + (today.map { ", today \($0)" } ?? ", today the data's first day until the log announces one"))
        return (SearchService(live: live, journal: nil, systemOfRecord: replica, language: try pageLanguage, currency: display.currency,
                              platform: try platform.fees(for: live.withIndex { $0 })),
                replica, journal)
    }

    /// The live index of `--index` (its journal replayed and open for changes), or of `--data`.
    private func makeService() throws -> SearchService {
        guard let indexPath = data.indexPath else {
            // No changes are taken without --index: today's window is the clock's alone (days past the
            // calendars have no calendar row either way).
            let index = try data.loadIndex()
            return SearchService(live: LiveIndex(index), journal: nil, language: try pageLanguage, currency: display.currency,
                              today: data.clock.today, platform: try platform.fees(for: index))
        }
        let (live, journal) = try LiveIndexLoader.open(indexPath, today: data.clock.today, memory: indexMemory.memory)
        return SearchService(live: live, journal: journal, language: try pageLanguage, currency: display.currency,
                              today: data.clock.today, platform: try platform.fees(for: live.withIndex { $0 }))
    }

    /// `--locale`, if given: otherwise the page and pictures follow each request's `Accept-Language`.
    private var pageLanguage: DisplayStyle.Language? {
        get throws { display.locale == nil ? nil : try display.style.language }
    }
}

/// How the server's task ended, read once it has.
private final class ServeOutcome: @unchecked Sendable {
    var failure: String?
}
