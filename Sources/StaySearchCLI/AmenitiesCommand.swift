import StaySearchAPI
import ArgumentParser
import StaySearch

/// `staysearch amenities`: the amenity names with how many listings have each, to find the names
/// `--amenity` takes.
struct AmenitiesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "amenities",
        abstract: "List amenities with their listing counts, most first.",
        discussion: """
            Examples:
              staysearch amenities --limit 20
              staysearch amenities --prefix wi          # names starting with (then containing) 'wi', any case or accents
            """)

    @OptionGroup var data: DataOptions

    @Option(help: ArgumentHelp("Show only names that start with (then those that contain) this text.", valueName: "TEXT"))
    var prefix: String?

    @Option(parsing: .unconditional, help: "Show at most this many names.")
    var limit: Int?

    @Flag(help: "Print JSON lines: one object per amenity with name and count.")
    var json = false

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("limit must be at least 1 (got \(limit))") }
    }

    func run() throws {
        let index = try data.loadIndex()
        Standard.write(try NameCountsOutput.render(index.valueCounts(of: .amenities), prefix: prefix, limit: limit, json: json,
                                                   what: "amenity name"))
    }
}
