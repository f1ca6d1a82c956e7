import StaySearchAPI
import Foundation
import ArgumentParser
import StayData
import StaySearch
import StaySearchDB

#if canImport(Glibc)
import Glibc
#endif

/// The `staysearch` command: search Inside Airbnb listings by region, dates, guests and price.
@main
struct Staysearch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "staysearch",
        abstract: "Search accommodation listings by region, dates, guests and price, with a price histogram.",
        discussion: """
            Data comes from Inside Airbnb folders (--data [CITY=]DIR, repeatable); without --data the \
            Antwerp sample that ships with staysearch is used.

            Examples:
              staysearch search --region "Centraal Station" --checkin 2024-07-12 --checkout 2024-07-15 --adults 2
              staysearch batch --queries queries.jsonl
              staysearch regions --prefix zuid
              staysearch import Antwerp=./antwerp --output antwerp.ssx && staysearch search --index antwerp.ssx
            """,
        subcommands: [SearchCommand.self, BatchCommand.self, RegionsCommand.self, AmenitiesCommand.self, PropertyTypesCommand.self, MapCommand.self, ImportCommand.self, GenerateCommand.self, HistogramCommand.self, ListingCommand.self, CalendarCommand.self, PriceCalendarCommand.self, UpdateCommand.self, CompactCommand.self, ServeCommand.self, DatabaseCommand.self]
    )

    /// Runs the command; every failure ends as one line on stderr and a non-zero exit.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch let error as QueryError {
            fail(error.description, code: ExitStatus.badInput)
        } catch let error as DataError {
            if case .todayTooLate = error { fail(error.description, code: ExitStatus.badInput) }
            fail(error.description, code: ExitStatus.badData)
        } catch let error as DatabaseError {
            switch error {
            case .unreachable: fail(error.description, code: ExitStatus.unavailable)
            case .badAddress, .refusedRequest: fail(error.description, code: ExitStatus.badInput)
            case .refusedData: fail(error.description, code: ExitStatus.badData)
            default: fail(error.description, code: 1)
            }
        } catch let error as CommandFailure {
            fail(error.message, code: error.code)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Glibc.exit(0)
            }
            let message = self.message(for: error)
                .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            let subcommand = arguments.first.flatMap { name in configuration.subcommands.first { $0._commandName == name } }
            let help = subcommand.map { "staysearch \($0._commandName) --help" } ?? "staysearch --help"
            fail("\(message) (see '\(help)')", code: ExitStatus.badInput)
        }
    }

    private static func fail(_ message: String, code: Int32) -> Never {
        Standard.error("staysearch: error: \(message)")
        Glibc.exit(code)
    }
}
