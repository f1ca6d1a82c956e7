import Foundation
import StaySearch
import StaySearchAPI
import StaySearchTestSupport
import Testing

/// Every surface names exactly the schema's keys: the JSON-lines reader and the URL reader read each of them
/// into the same query, the page asks only for keys the schema has, and the docs' parameter table is the
/// schema's. (The command line's flags are checked in `CLITests`; the OpenAPI document in ``RouteTests``.)
struct SurfaceTests {
    static var everyKey: [[(key: String, value: String)]] { QuerySamples.everyKey }

    @Test func theSamplesSetEveryKey() {
        #expect(Set(Self.everyKey.flatMap { $0.map(\.key) }) == Set(QuerySchema.keys))
        #expect(Set(QuerySamples.otherValue.keys) == Set(QuerySchema.keys))
    }

    /// The URL reader and the JSON-lines reader agree on every key, and a query written back field by field
    /// (``BatchQueryLine``) reads as itself: each key reaches its field.
    @Test(arguments: 0..<2) func everyKeyReadsTheSameOnEverySurface(sample: Int) throws {
        let fromURL = try QueryReader.query(items: Self.everyKey[sample])
        #expect(fromURL != SearchQuery())
        let written = BatchQueryLine.json(fromURL)
        #expect(try QueryReader.batchLine(written).query == fromURL, "\(written)")
        let given = Set(Self.everyKey[sample].map(\.key))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(written.utf8)) as? [String: Any])
        #expect(given.isSubset(of: Set(object.keys)), "\(given.subtracting(object.keys))")
        // Each key's value changed, the rest as they were, makes another valid query (no key is read and dropped).
        for key in given {
            let changed = try QueryReader.query(items: QuerySamples.changing(key, in: Self.everyKey[sample]))
            #expect(changed != fromURL, "\(key)")
        }
    }

    /// The page asks only for keys the schema (or a chart's size and words) has.
    @Test func thePageAsksOnlyForSchemaKeys() {
        let asked = Set(SearchPage.script.matches(of: /\bp\.set\("([a-z_]+)"/).map { String($0.1) })
        #expect(!asked.isEmpty)
        #expect(asked.isSubset(of: Set(QuerySchema.keys + QuerySchema.chart.map(\.key) + QuerySchema.displayKeys)), "\(asked)")
    }

    /// The tables the docs show of the schema, the routes' keys and the error codes are made from them
    /// (`UPDATE_DOCS=1 swift test --filter SurfaceTests` writes them).
    @Test(arguments: [
        ("query-semantics.md", "parameters", QuerySchema.markdownTable),
        ("command-line.md", "route keys", QuerySchema.routeKeysTable),
        ("errors.md", "codes", ErrorCode.markdownTable),
    ])
    func theDocsTablesAreMadeFromTheCode(file: String, name: String, table: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = root.path + "/docs/" + file
        let document = try String(contentsOfFile: path, encoding: .utf8)
        let begin = try #require(document.firstMatch(of: try Regex("<!-- \(name): made from [A-Za-z]+ -->\n"))).range
        let stop = try #require(document.range(of: "<!-- end of \(name) -->"))
        if ProcessInfo.processInfo.environment["UPDATE_DOCS"] == "1" {
            try (document[..<begin.upperBound] + table + document[stop.lowerBound...]).write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(String(document[begin.upperBound..<stop.lowerBound]) == table, "run UPDATE_DOCS=1 swift test --filter SurfaceTests")
    }

    /// No doc lists a search's keys by hand: a list of eight or more of them in a row is the table's to give
    /// (a short list of the keys of one feature, or a table's cell of a key's choices, is fine).
    @Test func noDocListsTheKeysByHand() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let keys = Set(QuerySchema.keys)
        for file in try FileManager.default.contentsOfDirectory(atPath: root.path + "/docs") where file.hasSuffix(".md") {
            let text = try String(contentsOfFile: root.path + "/docs/" + file, encoding: .utf8)
                .split(separator: "\n").filter { !$0.hasPrefix("|") }.joined(separator: "\n")
            // Runs of backquoted keys separated only by commas (a hand-written list of keys).
            for run in text.matches(of: /(?:`[a-z_]+`,\s*){4,}`[a-z_]+`/) {
                let named = String(run.output).matches(of: /`([a-z_]+)`/).map { String($0.1) }
                #expect(named.filter(keys.contains).count < 8, "docs/\(file) lists keys by hand: \(run.output.prefix(80))")
            }
        }
    }
}
