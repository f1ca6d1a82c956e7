import StaySearchAPI
import ArgumentParser
import Dispatch
import Foundation
import Hummingbird
import Logging
import StayData
import StaySearch

/// `staysearch serve`: the HTTP API (docs/command-line.md, "The HTTP API") over one shared live index.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve searches, region suggestions, listings and live changes over HTTP (JSON).",
        discussion: """
            Routes: GET /v1/search?… (the batch keys; repeat a key for a list; bbox=s,w,n,e, near=lat,lon), \
            POST /v1/search/batch (JSON lines), GET /v1/regions?prefix=P&limit=N, GET /v1/listings/ID?checkin=…&\
            checkout=…&adults=…, POST /v1/changes (JSON lines, with --index: journalled beside it), GET /healthz. \
            Bad input: 400 with {"error": "…"}; an unknown listing 404; a body over 10 MiB 413. SIGTERM or \
            SIGINT: requests in flight finish, then the journal is closed.

            Examples:
              staysearch serve --index antwerp.ssx --port 8080
              curl 'http://127.0.0.1:8080/v1/search?region=zuid&checkin=2024-07-12&checkout=2024-07-15&adults=2'
            """)

    @OptionGroup var data: DataOptions

    @Option(help: ArgumentHelp("The address to listen on.", valueName: "HOST"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The port to listen on (0: any free port, printed at start).", valueName: "PORT"))
    var port = 8080

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("port must be from 0 to 65535") }
    }

    func run() throws {
        let service = try makeService()
        let outcome = ServeOutcome()
        let done = DispatchSemaphore(value: 0)
        let host = self.host, port = self.port
        Task {
            do { try await SearchServer.run(service, host: host, port: port) } catch { outcome.failure = "\(error)" }
            done.signal()
        }
        done.wait()
        service.close()
        if let failure = outcome.failure { throw CommandFailure(message: "the server stopped: \(failure)") }
    }

    /// The live index of `--index` (its journal replayed and open for changes), or of `--data`.
    private func makeService() throws -> SearchService {
        guard let indexPath = data.indexPath else {
            return SearchService(live: LiveIndex(try data.loadIndex()), journal: nil)
        }
        let (live, journal) = try LiveIndexLoader.open(indexPath)
        return SearchService(live: live, journal: journal)
    }
}

/// How the server's task ended, read once it has.
private final class ServeOutcome: @unchecked Sendable {
    var failure: String?
}
