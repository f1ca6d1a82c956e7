import StaySearchAPI
import ArgumentParser
import StaySearch

/// `staysearch regions`: the region tree with listing counts, or the names that match a prefix.
struct RegionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "regions",
        abstract: "List cities, neighbourhood groups and neighbourhoods with their listing counts.",
        discussion: """
            Examples:
              staysearch regions
              staysearch regions --prefix zuid        # names starting with (or containing) 'zuid', any case or accents
            """)

    @OptionGroup var data: DataOptions

    @Option(help: ArgumentHelp("Show only names that start with (then those that contain) this text.", valueName: "TEXT"))
    var prefix: String?

    @Flag(help: "Print JSON lines: one object per region with path and count.")
    var json = false

    func run() throws {
        let index = try data.loadIndex()
        let tree = index.regions
        let positions = prefix.map { tree.nodes(withNamesStartingWith: $0) } ?? Array(tree.nodes.indices)
        if let prefix, positions.isEmpty {
            let hint = tree.suggestions(for: prefix).map { "'\($0)'" }.joined(separator: ", ")
            throw CommandFailure(message: "no region name contains '\(prefix)'\(hint.isEmpty ? "" : "; close names: \(hint)")", code: 1)
        }
        var output = ""
        for position in positions {
            let node = tree.nodes[position]
            if json {
                var writer = JSONWriter()
                writer.beginObject()
                writer.field("path", string: tree.path(of: position).joined(separator: "/"))
                writer.field("name", string: node.name)
                writer.field("level", string: ["city", "neighbourhood_group", "neighbourhood"][Int(node.level.rawValue)])
                writer.field("listings", number: node.listingCount)
                writer.endObject()
                output += writer.text + "\n"
            } else if prefix != nil {
                output += "\(tree.path(of: position).joined(separator: " / "))  (\(ResultFormatting.grouped(node.listingCount)))\n"
            } else {
                let indent = String(repeating: "  ", count: Int(node.level.rawValue) - (node.level == .neighbourhood && node.parent >= 0 && tree.nodes[Int(node.parent)].level == .city ? 1 : 0))
                output += "\(indent)\(node.name)  (\(ResultFormatting.grouped(node.listingCount)))\n"
            }
        }
        Standard.write(output)
    }
}
