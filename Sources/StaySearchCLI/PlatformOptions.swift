import StaySearchAPI
import ArgumentParser
import StaySearch

/// The platform's settings on every command that answers queries: `--service-fee PERCENT`, added to each
/// dated stay's trip price, and `--tax CITY=PERCENT`, shown on top of it in quotes.
struct PlatformOptions: ParsableArguments {
    @Option(name: .customLong("service-fee"), parsing: .unconditional,
            help: ArgumentHelp("The platform's service fee, a percentage of each dated stay added to its trip price (0 to 100, default 0).",
                               valueName: "PERCENT"))
    var serviceFee: String?

    @Option(name: .customLong("tax"),
            help: ArgumentHelp("A city's tax on the trip price, shown in quotes (repeatable; 0 to 100).", valueName: "CITY=PERCENT"))
    var tax: [String] = []

    func validate() throws {
        _ = try parsed()
    }

    /// The settings as given, cities not yet checked against an index.
    func parsed() throws -> (fees: PlatformFees, cities: [String]) {
        var fees = PlatformFees()
        if let serviceFee {
            guard let basisPoints = PlatformFees.basisPoints(percent: serviceFee) else {
                throw ValidationError("--service-fee '\(serviceFee)' is not a percentage from 0 to 100 such as 14.2")
            }
            fees.serviceFeeBasisPoints = basisPoints
        }
        var cities: [String] = []
        for entry in tax {
            guard let equals = entry.lastIndex(of: "="), !entry[..<equals].trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ValidationError("--tax '\(entry)' is not CITY=PERCENT such as Seoul=10")
            }
            let city = entry[..<equals].trimmingCharacters(in: .whitespaces), percent = String(entry[entry.index(after: equals)...])
            guard let basisPoints = PlatformFees.basisPoints(percent: percent) else {
                throw ValidationError("--tax '\(entry)': '\(percent)' is not a percentage from 0 to 100 such as 10")
            }
            fees.setTax(city: city, basisPoints: basisPoints)
            cities.append(city)
        }
        return (fees, cities)
    }

    /// The settings, each taxed city checked against `index`'s cities.
    /// - Throws: ``CommandFailure`` (exit 64) naming a city the index does not have.
    func fees(for index: @autoclosure () -> ListingIndex) throws -> PlatformFees {
        let (fees, cities) = try parsed()
        guard !cities.isEmpty else { return fees }
        let names = index().cityNames
        let known = Set(names.map(TextFolding.fold))
        for city in cities where !known.contains(TextFolding.fold(city)) {
            throw CommandFailure(message: "--tax '\(city)=…': '\(city)' is not a city of the data (its cities: "
                + names.joined(separator: ", ") + ")", code: ExitStatus.badInput)
        }
        return fees
    }
}
