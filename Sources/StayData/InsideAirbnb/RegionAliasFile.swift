import StaySearch

/// Reads a city folder's `aliases.csv` (docs/data.md, "Region aliases"): a header naming the columns
/// `alias` and `region`, then one alias a row — 종로구,Jongno-gu — the region being the city itself or a
/// path inside it.
enum RegionAliasFile {
    /// The file's name in a data folder.
    static let name = "aliases.csv"

    /// The aliases in the file at `path`, for `city`, each with its line; and a warning for each row that
    /// is not one (`FILE:LINE: …`), left out.
    /// - Throws: ``DataError`` when the file cannot be read or lacks a column.
    static func read(path: String, city: String) throws(DataError) -> (aliases: [(alias: RegionAlias, line: Int)], warnings: [String]) {
        let reader = CSVReader(source: try openByteSource(path: path))
        var header: CSVHeader?
        var aliasColumn = 0, regionColumn = 0
        var aliases: [(alias: RegionAlias, line: Int)] = []
        var warnings: [String] = []
        var failure: DataError?
        do {
            try reader.forEachRecord { record in
                let line = record.line
                guard header != nil else {
                    let read = CSVHeader(record: record)
                    let missing = read.missing(["alias", "region"])
                    guard missing.isEmpty else {
                        failure = .malformedFile(path: path, reason: "has no column named \(missing.joined(separator: " or ")) (its header: alias,region)")
                        throw failure!
                    }
                    header = read
                    aliasColumn = read.position(of: "alias")!
                    regionColumn = read.position(of: "region")!
                    return
                }
                let alias = aliasColumn < record.count ? record.string(at: aliasColumn).trimmingSpaces : ""
                let region = regionColumn < record.count ? record.string(at: regionColumn).trimmingSpaces : ""
                if alias.isEmpty && region.isEmpty && record.count <= 1 { return }          // a blank line
                guard !alias.isEmpty, !region.isEmpty else {
                    warnings.append("\(path):\(line): an alias needs an alias and a region; row left out")
                    return
                }
                aliases.append((RegionAlias(city: city, alias: alias, region: region), line))
            }
        } catch let error as DataError {
            throw failure ?? error
        } catch {
            throw failure ?? .malformedFile(path: path, reason: "cannot be read")
        }
        return (aliases, warnings)
    }
}
