import Foundation
import StaySearch
@testable import StaySearchAPI
import StaySearchTestSupport
import Testing

/// Every surface names exactly the schema's keys: the JSON-lines reader and the URL reader read each of them
/// into the same query, the page asks only for keys the schema has, and the docs' parameter table is the
/// schema's. (The command line's flags are checked in `CLITests`; the OpenAPI document in ``RouteTests``.)
struct SurfaceTests {
    /// Two queries that between them set every key of the schema (the dates of a stay and of a window cannot
    /// be in one query), as URL items. A key added to the schema must be added here.
    static let everyKey: [[(key: String, value: String)]] = [
        [("region", "zuid"), ("checkin", "2024-07-12"), ("checkout", "2024-07-15"), ("flexible_days", "2"),
         ("adults", "2"), ("children", "1"), ("infants", "1"), ("min_price", "40.5"), ("max_price", "300"),
         ("room_type", "Private room"), ("sort", "distance"), ("limit", "7"), ("offset", "3"), ("bins", "12"),
         ("hist_min", "10"), ("hist_max", "400.25"), ("bedrooms", "1"), ("beds", "2"), ("bathrooms", "1.5"),
         ("property_type", "Entire condo"), ("property_type", "Room in hotel"), ("amenities", "Wifi"), ("amenities", "Kitchen"),
         ("instant_bookable", "true"), ("superhost", "true"), ("bbox", "51.19,4.38,51.23,4.43"), ("near", "51.2,4.4"),
         ("radius_km", "2.5"), ("facets", "room_type,amenities"), ("facet_limit", "5")],
        [("checkin_from", "2024-08-01"), ("checkin_to", "2024-08-31"), ("nights", "2"), ("checkin_weekdays", "fri,sat")],
    ]

    @Test func theSamplesSetEveryKey() {
        #expect(Set(Self.everyKey.flatMap { $0.map(\.key) }) == Set(QuerySchema.keys))
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
        // Each key given alone with the others' values left out changes the query (no key is read and dropped).
        for key in given where !["checkin", "checkout", "checkin_from", "checkin_to", "nights", "near"].contains(key) {
            let without = Self.everyKey[sample].filter { $0.key != key }
            if let other = try? QueryReader.query(items: without) { #expect(other != fromURL, "\(key)") }
        }
    }

    /// The page asks only for keys the schema (or a chart's size and words) has.
    @Test func thePageAsksOnlyForSchemaKeys() {
        let asked = Set(SearchPage.script.matches(of: /\bp\.set\("([a-z_]+)"/).map { String($0.1) })
        #expect(!asked.isEmpty)
        #expect(asked.isSubset(of: Set(QuerySchema.keys + QuerySchema.chart.map(\.key) + QuerySchema.displayKeys)), "\(asked)")
    }

    /// The parameter table of docs/query-semantics.md is the schema's (`UPDATE_DOCS=1 swift test --filter
    /// SurfaceTests` writes it).
    @Test func theDocsTableIsTheSchemas() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = root.path + "/docs/query-semantics.md"
        let document = try String(contentsOfFile: path, encoding: .utf8)
        let begin = "<!-- parameters: made from QuerySchema -->\n", end = "<!-- end of parameters -->"
        let start = try #require(document.range(of: begin)), stop = try #require(document.range(of: end))
        let table = QuerySchema.markdownTable
        if ProcessInfo.processInfo.environment["UPDATE_DOCS"] == "1" {
            try (document[..<start.upperBound] + table + document[stop.lowerBound...]).write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(String(document[start.upperBound..<stop.lowerBound]) == table, "run UPDATE_DOCS=1 swift test --filter SurfaceTests")
    }
}
