import StaySearchAPI
import ArgumentParser
import StayData
import StaySearch

#if canImport(Glibc)
import Glibc
#endif

/// Where the listings come from: Inside Airbnb folders, or the dataset that ships with staysearch.
struct DataOptions: ParsableArguments {
    @Option(name: .customLong("data"), help: ArgumentHelp(
        "An Inside Airbnb folder with listings.csv[.gz] and calendar.csv[.gz]; CITY=DIR names its city "
            + "(default: the folder's name). Repeat for several cities. Default: the shipped Antwerp sample.",
        valueName: "[CITY=]DIR"))
    var folders: [String] = []

    @Option(name: .customLong("index"), help: ArgumentHelp("A saved index made by 'staysearch import' or 'staysearch generate'.", valueName: "FILE"))
    var indexPath: String?

    @Flag(name: .customLong("stats"), help: "Print load time, memory and record counts to stderr.")
    var printsStats = false

    @OptionGroup var clock: ClockOptions

    func validate() throws {
        if indexPath != nil, !folders.isEmpty { throw ValidationError("give --data or --index, not both") }
        for folder in folders {
            do { _ = try DatasetFolder(argument: folder) } catch { throw ValidationError(error.description) }
        }
    }

    /// Loads the data into an index, reporting rejected records on stderr. After a journal with listing
    /// changes, the whole index is built again with them (see ``loadSearchable()``).
    func loadIndex() throws -> ListingIndex {
        try loadSearchable().index
    }

    /// Loads the data for searching: after a journal with listing changes, a live index that searches
    /// through its overlay without building the whole index again. A saved index's bytes are held as
    /// `memory` says.
    func loadSearchable(memory: IndexMemory = .mapped) throws -> SearchableIndex {
        if let indexPath {
            let start = Standard.now()
            var searchable: SearchableIndex
            var loaded = ""
            if access(ChangeJournal.path(forIndex: indexPath), F_OK) == 0 {
                // Its journal's changes, replayed; a command reads the result alone, so the live index's
                // memory is used directly (the index value keeps it alive).
                let (live, contents) = try LiveIndexLoader.load(indexPath, memory: memory)
                if live.hasListingChanges {
                    searchable = SearchableIndex(live: live)
                    loaded = "the index at \(indexPath) with \(contents.changes.count) journal changes (listings changed: an overlay)"
                } else {
                    let index = live.withIndex { $0 }
                    searchable = SearchableIndex(frozen: index)
                    loaded = "\(index.count) listings from \(indexPath), \(contents.changes.count) journal changes replayed"
                }
            } else {
                let index = try IndexFileReader.load(from: indexPath, memory: memory)
                searchable = SearchableIndex(frozen: index)
                loaded = "\(index.count) listings from \(indexPath)"
            }
            if printsStats {
                Standard.error("loaded \(loaded) in \(String(format3: (Standard.now() - start) * 1000)) ms; peak memory \(Standard.peakMemory() / 1_048_576) MiB")
            }
            searchable.clock = try clock.clock(for: searchable.calendarSpan, window: searchable.windowDays)
            return searchable
        }
        let datasets = try folders.isEmpty ? [ShippedDataset.folder()] : folders.map { try DatasetFolder(argument: $0) }
        let start = Standard.now()
        let (index, report) = try InsideAirbnbLoader().loadIndex(from: datasets)
        let seconds = Standard.now() - start
        if report.rejectedCount > 0 {
            let first = report.rejections.first.map { " (first: \($0))" } ?? ""
            Standard.error("staysearch: warning: \(report.rejectedCount) of \(report.recordsRead) records rejected\(first)")
        }
        for warning in report.warnings { Standard.error("staysearch: warning: \(warning)") }
        if report.rejectedFieldCount > 0 {
            let first = report.fieldRejections.first.map { " (first: \($0))" } ?? ""
            Standard.error("staysearch: warning: \(report.rejectedFieldCount) fields left out of listings that loaded\(first)")
        }
        if printsStats {
            Standard.error("""
                loaded \(report.listingsLoaded) listings and \(report.calendarRowsLoaded) calendar rows \
                (\(report.rejectedCount) rejected of \(report.recordsRead) read) in \
                \(Int(seconds * 1000)) ms; peak memory \(Standard.peakMemory() / 1_048_576) MiB
                """)
        }
        let searchable = SearchableIndex(frozen: index)
        searchable.clock = try clock.clock(for: index)
        return searchable
    }
}

/// The Antwerp sample in `Data/`, found from the executable's location, `STAYSEARCH_DATA`, or the
/// source tree it was built from.
enum ShippedDataset {
    static let city = "Antwerp"

    static func folder() throws -> DatasetFolder {
        var candidates: [String] = []
        if let override = getenv("STAYSEARCH_DATA") { candidates.append(String(cString: override)) }
        var executable = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &executable, executable.count - 1)
        if length > 0 {
            var directory = String(decoding: executable[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            for _ in 0..<6 {
                directory = parent(of: directory)
                candidates.append(directory + "/Data/antwerp")
                candidates.append(directory + "/share/staysearch/antwerp")
            }
        }
        candidates.append(parent(of: parent(of: parent(of: #filePath))) + "/Data/antwerp")
        for candidate in candidates {
            if InsideAirbnbLoader.hasFiles(in: candidate) {
                return DatasetFolder(city: city, path: candidate)
            }
        }
        throw CommandFailure(
            message: "the shipped dataset (Data/antwerp) was not found; pass --data DIR or set STAYSEARCH_DATA",
            code: ExitStatus.badData)
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
