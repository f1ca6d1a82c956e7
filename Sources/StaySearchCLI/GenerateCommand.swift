import StaySearchAPI
import ArgumentParser
import StayData
import StaySearch

/// `staysearch generate`: realistic synthetic data, as an index or as Inside Airbnb CSV files.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate realistic synthetic listings and calendars (deterministic for a seed).",
        discussion: """
            Prices, room types, capacities, occupancy, booked runs, minimum nights and seasonal and \
            weekend prices are calibrated on the Inside Airbnb samples; listings are spread over several \
            cities and neighbourhoods, some named with non-ASCII letters. The same seed gives the same data \
            in both formats, so other tools can load exactly what an index holds.

            Examples:
              staysearch generate --listings 1000000 --seed 1 --output big.ssx
              staysearch generate --listings 100000 --seed 1 --format insideairbnb --output ./synthetic
              staysearch generate --listings 1000000 --seed 1 --pricing dynamic --output dynamic.ssx
              staysearch generate --listings 100000 --seed 1 --changed-share 0.1 --format insideairbnb --output ./rescraped
              staysearch generate --listings 1000000 --seed 1 --pricing dynamic --fees --output fees.ssx
              staysearch generate --listings 1000000 --seed 1 --pricing dynamic --currency KRW --output won.ssx
            """)

    typealias Pricing = SyntheticDataset.Pricing

    /// Output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case index, insideairbnb
    }

    @Option(help: "How many listings.")
    var listings: Int

    @Option(help: "The random seed.")
    var seed: UInt64 = 1

    @Option(help: "index (a saved index file) or insideairbnb (a folder of CSV folders, one per city).")
    var format: Format = .index

    @Option(help: ArgumentHelp("The index file, or the folder for insideairbnb.", valueName: "PATH"))
    var output: String

    @Option(help: "Calendar days per listing.")
    var days: Int = 365

    @Option(help: "calibrated (most listings keep one price all year, as in the Inside Airbnb samples) or dynamic (prices change most days, as pricing tools set them).")
    var pricing: Pricing = .calibrated

    @Option(help: ArgumentHelp("Make a later scrape of the same listings: this share of them (0–1) repriced and a week of each newly booked, the rest as the first scrape has them.", valueName: "SHARE"))
    var changedShare = 0.0

    @Flag(help: "Give listings fees as the older Inside Airbnb files have them: cleaning fees growing with capacity, weekly and monthly discounts, extra-guest fees (the same listings and calendars as without; insideairbnb writes them as fees.csv).")
    var fees = false

    @Option(help: "The currency of every price: USD (whole dollars), KRW (₩1,350 a dollar: hosts' prices and fees to ₩1,000, pricing tools' to ₩100), JPY (¥150 a dollar: to ¥100 and ¥10) or VND (₫25,000 a dollar: to ₫10,000 and ₫1,000; the dearest nights pass ₫20,800,000). The same listings and calendars, each price converted.")
    var currency: SyntheticCurrency = .usd

    @Flag(help: "With --format insideairbnb: write listings.csv.gz and calendar.csv.gz, as Inside Airbnb ships them (zlib's fastest level, compressed on threads of their own).")
    var gzip = false

    func validate() throws {
        guard !gzip || format == .insideairbnb else { throw ValidationError("--gzip writes Inside Airbnb files: use it with --format insideairbnb") }
        guard (1...50_000_000).contains(listings) else { throw ValidationError("listings must be from 1 to 50000000 (got \(listings))") }
        guard (0...1).contains(changedShare) else { throw ValidationError("--changed-share must be from 0 to 1 (got \(changedShare))") }
        guard (1...3_660).contains(days) else { throw ValidationError("days must be from 1 to 3660 (got \(days))") }
    }

    func run() throws {
        FreedMemory.returnLargeBlocksWhenFreed()
        let start = Standard.now()
        var dataset = SyntheticDataset(listingCount: listings, seed: seed, dayCount: days, pricing: pricing, fees: fees,
                                        currency: currency)
        dataset.changedShare = changedShare
        switch format {
        case .index:
            let index = dataset.makeIndex()
            let built = Standard.now()
            let size = try IndexFileWriter.save(index, to: output)
            Standard.write("generated \(ResultFormatting.grouped(listings)) listings with \(days)-day calendars into \(output) "
                + "(\(ResultFormatting.grouped(size)) bytes, \(size / listings) per listing) in \(String(format3: Standard.now() - start)) s "
                + "(build \(String(format3: built - start)) s, save \(String(format3: Standard.now() - built)) s)\n")
        case .insideairbnb:
            let arguments = try InsideAirbnbWriter.write(dataset, to: output, gzipLevel: gzip ? 1 : nil)
            Standard.write("generated \(ResultFormatting.grouped(listings)) listings with \(days)-day calendars as Inside Airbnb files "
                + "in \(String(format3: Standard.now() - start)) s; load them with:\n"
                + arguments.map { "  --data '\($0)'" }.joined(separator: "\n") + "\n")
        }
    }
}

extension SyntheticDataset.Pricing: ExpressibleByArgument {}
extension SyntheticCurrency: ExpressibleByArgument {}
