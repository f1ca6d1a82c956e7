import StaySearchAPI
import ArgumentParser
import StaySearch

/// `staysearch property-types`: the property types with how many listings have each, to find the
/// names `--property-type` takes.
struct PropertyTypesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "property-types",
        abstract: "List property types with their listing counts, most first.",
        discussion: """
            Examples:
              staysearch property-types
              staysearch property-types --prefix entire
            """)

    @OptionGroup var data: DataOptions

    @Option(help: ArgumentHelp("Show only names that start with (then those that contain) this text.", valueName: "TEXT"))
    var prefix: String?

    @Flag(help: "Print JSON lines: one object per property type with name and count.")
    var json = false

    func run() throws {
        let index = try data.loadIndex()
        Standard.write(try NameCountsOutput.render(index.valueCounts(of: .propertyType), prefix: prefix, limit: nil, json: json,
                                                   what: "property type"))
    }
}
