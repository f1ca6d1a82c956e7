import StaySearchAPI
import ArgumentParser
import StaySearch

/// What `amenities` and `property-types` share: names with listing counts, filtered by a prefix, as lines
/// or JSON lines.
enum NameCountsOutput {
    /// The lines for `entries` whose folded name starts with (then contains) the folded `prefix`.
    /// - Throws: ``CommandFailure`` when no name matches `prefix`.
    static func render(_ entries: [FacetCounts.Entry], prefix: String?, limit: Int?, json: Bool, what: String) throws -> String {
        var named: [(name: String, count: Int)] = entries.compactMap { entry in
            guard case .text(let name) = entry.value else { return nil }
            return (name, entry.count)
        }
        if let prefix {
            let wanted = TextFolding.fold(prefix)
            let starting = named.filter { TextFolding.fold($0.name).hasPrefix(wanted) }
            let containing = named.filter { !TextFolding.fold($0.name).hasPrefix(wanted) && TextFolding.fold($0.name).contains(wanted) }
            named = starting + containing
            if named.isEmpty { throw CommandFailure(message: "no \(what) contains '\(prefix)'", code: 1) }
        }
        if let limit { named = Array(named.prefix(limit)) }
        var output = ""
        for (name, count) in named {
            if json {
                var writer = JSONWriter()
                writer.beginObject()
                writer.field("name", string: name)
                writer.field("listings", number: count)
                writer.endObject()
                output += writer.text + "\n"
            } else {
                output += "\(name)  (\(ResultFormatting.grouped(count)))\n"
            }
        }
        return output
    }
}
