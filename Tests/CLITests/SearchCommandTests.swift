import Foundation
import StaySearch
import StaySearchAPI
import StaySearchCLI
import StaySearchTestSupport
import Testing

@Suite(.serialized) struct SearchCommandTests {
    private let stay = ["--region", "Centraal Station", "--checkin", "2024-07-12", "--checkout", "2024-07-15", "--adults", "2"]

    @Test func searchesTheShippedDataFromAnyFolder() throws {
        let output = try CommandRunner.run(["search"] + stay, in: "/")
        #expect(output.status == 0)
        #expect(output.stderr.isEmpty)
        #expect(output.stdout.contains("69 listings match for 3 nights (showing 1–20)"))
        #expect(output.stdout.contains("Kamer vlak bij Centraal Station (5)"))
        #expect(output.stdout.contains("Prices: 69 listings, $44 to "))
        #expect(output.stdout.contains("average $1,258.13 a night"))
    }

    /// `--locale ko --currency KRW`: the table's words, prices and summaries in Korean and won; JSON as it was;
    /// the recommended order the same in both.
    @Test func writesKoreanAndWonWhenAsked() throws {
        let korean = try CommandRunner.run(["search"] + stay + ["--locale", "ko", "--currency", "KRW", "--limit", "3", "--sort", "recommended"])
        #expect(korean.status == 0, "\(korean.stderr)")
        #expect(korean.stdout.contains("조건에 맞는 숙소 69곳 3박 (1–3번 표시)"))
        #expect(korean.stdout.contains("가격: 숙소 69곳, ₩44–"))
        #expect(korean.stdout.contains("1박 평균 ₩1,258\n"))
        let english = try CommandRunner.run(["search"] + stay + ["--limit", "3", "--sort", "recommended"])
        let names = { (text: String) in text.split(separator: "\n").dropFirst(2).prefix(3).map { String($0.prefix(40)) } }
        #expect(names(korean.stdout) == names(english.stdout))
        let json = try CommandRunner.run(["search"] + stay + ["--locale", "ko", "--format", "json", "--limit", "1"])
        #expect(json.stdout.contains(#""nightly_price":"#) && !json.stdout.contains("₩"))
        let bad = try CommandRunner.run(["search", "--locale", "fr"])
        #expect(bad.status == 64 && bad.stderr.contains("unknown locale 'fr'; use en or ko"))
    }

    @Test func filtersByDetailsAndMapAreaWithFacets() throws {
        let box = ["--region", "antwerp", "--amenity", "wifi", "--amenity", "Kitchen", "--bbox", "51.19,4.38,51.23,4.43",
                   "--room-type", "Entire home/apt", "--bedrooms", "2", "--facets", "room_type,bedrooms", "--facet-limit", "3"]
        let json = try CommandRunner.run(["search"] + box + ["--format", "json", "--limit", "1"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["total"] as? Int == 668)       // checked with Python (see RealSampleTests)
        let facets = try #require(object["facets"] as? [String: [[String: Any]]])
        #expect(facets["room_type"]?.map { $0["count"] as! Int } == [668, 13, 1])
        #expect(facets["bedrooms"]?.map { $0["value"] as! Int } == [1, 2, 3])
        let table = try CommandRunner.run(["search"] + box + ["--limit", "2"])
        #expect(table.stdout.contains("Filters (homes each leaves):"))
        #expect(table.stdout.contains("  Bedrooms: 1 856 · 2 486 · 3 124"))

        let near = try CommandRunner.run(["search", "--near", "51.2172,4.4212", "--radius-km", "1", "--sort", "distance",
                                          "--limit", "1", "--format", "json"])
        let nearest = try #require((try JSONSerialization.jsonObject(with: Data(near.stdout.utf8)) as? [String: Any])?["results"] as? [[String: Any]])
        #expect(nearest.first?["id"] as? String == "667089215393425719")
        #expect(nearest.first?["distance_km"] as? Double == 0.078)
        let nearTable = try CommandRunner.run(["search", "--near", "51.2172,4.4212", "--radius-km", "1", "--sort", "distance", "--limit", "1"])
        #expect(nearTable.stdout.contains("0.08 km"))
    }

    @Test func findsEachListingsCheapestStayWithFlexibleDates() throws {
        let table = try CommandRunner.run(["search"] + stay + ["--flexible-days", "3", "--limit", "3"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("for 3 nights, check-in 2024-07-09 to 2024-07-15 (± 3 days), cheapest stay each (showing 1–3)"))
        #expect(table.stdout.contains("Stay"))
        let json = try CommandRunner.run(["search", "--region", "Centraal Station", "--checkin-from", "2024-08-01", "--checkin-to", "2024-08-31",
                                          "--nights", "2", "--checkin-weekdays", "fri,SAT", "--limit", "50", "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["nights"] as? Int == 2)
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results.count == 50)
        let fridaysAndSaturdays: Set<String> = ["2024-08-02", "2024-08-03", "2024-08-09", "2024-08-10", "2024-08-16", "2024-08-17",
                                                "2024-08-23", "2024-08-24", "2024-08-30", "2024-08-31"]
        for result in results {
            let checkIn = try #require(result["checkin"] as? String)
            #expect(fridaysAndSaturdays.contains(checkIn))
            #expect(result["checkout"] as? String == Day(iso: checkIn)!.advanced(by: 2).description)
        }
        let csv = try CommandRunner.run(["search"] + stay + ["--flexible-days", "1", "--limit", "2", "--format", "csv"])
        #expect(csv.stdout.hasPrefix("id,name,") && csv.stdout.split(separator: "\n")[0].hasSuffix(",checkin,checkout"))

        for (flags, message) in [(["--flexible-days", "9"], "flexible days must be from 0 to 7 (got 9)"),
                                 (["--checkin-weekdays", "fry"], "unknown weekday 'fry'"),
                                 (["--nights", "3"], "not both")] {
            let bad = try CommandRunner.run(["search"] + stay + flags)
            #expect(bad.status != 0)
            #expect(bad.stderr.contains(message), "\(bad.stderr)")
            #expect(bad.stderr.split(separator: "\n").count <= 3)
        }
    }

    @Test func drawsTheResultsOnAMap() throws {
        let path = NSTemporaryDirectory() + "staysearch-map-\(getpid()).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = try CommandRunner.run(["search"] + stay + ["--limit", "5", "--map", path, "--map-scale", "2"])
        #expect(output.status == 0, "\(output.stderr)")
        let png = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(png.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        // Width and height from the PNG header: 1600 × 1200.
        #expect(png[16..<24] == Data([0, 0, 0x06, 0x40, 0, 0, 0x04, 0xB0]))
        let map = try CommandRunner.run(["map", "--region", "zuid", "--output", path])
        #expect(map.stdout.hasPrefix("wrote \(path) (800×600): 20 pins, 131 listings match"))
        #expect(try CommandRunner.run(["map", "--region", "zuid", "--output", path, "--map-scale", "9"]).status == 64)
    }

    @Test func listsAmenitiesAndPropertyTypes() throws {
        let amenities = try CommandRunner.run(["amenities", "--prefix", "WI", "--limit", "2"])
        #expect(amenities.status == 0)
        #expect(amenities.stdout == "Wifi  (2,625)\nWine glasses  (1,432)\n")
        let types = try CommandRunner.run(["property-types", "--json"])
        #expect(types.stdout.hasPrefix(#"{"name":"Entire rental unit","listings":1562}"#))
        #expect(try CommandRunner.run(["amenities", "--prefix", "helipad"]).status == 1)
    }

    @Test func rejectsBadDetailFilters() throws {
        for (arguments, message) in [
            (["--bbox", "51,4,52"], "bbox '51,4,52' is not SOUTH,WEST,NORTH,EAST"),
            (["--bbox", "52,4,51,5"], "bbox south 52.0 is above north 51.0"),
            (["--amenity", "wfi"], "unknown amenity 'wfi'; did you mean 'Wifi'"),
            (["--property-type", "Igloo"], "unknown property type 'Igloo'"),
            (["--sort", "distance"], "sort distance needs near LAT,LON"),
            (["--radius-km", "2"], "radius km given without near"),
            (["--near", "91,4"], "near latitude 91.0 is not a coordinate"),
            (["--bathrooms", "1.25"], "bathrooms '1.25' is not a number of halves"),
            (["--facets", "colour"], "unknown facet 'colour'"),
        ] {
            let output = try CommandRunner.run(["search"] + arguments)
            #expect(output.status == 64, "\(arguments)")
            #expect(output.stderr.contains(message), "\(arguments): \(output.stderr)")
            #expect(output.stdout.isEmpty)
        }
    }

    @Test func printsTheJSONOfTheSpec() throws {
        let output = try CommandRunner.run(["search"] + stay + ["--format", "json", "--limit", "3", "--bins", "5", "--hist-min", "0", "--hist-max", "500"])
        #expect(output.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(object["total"] as? Int == 69)
        #expect(object["nights"] as? Int == 3)
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results.count == 3)
        #expect(results[0]["id"] as? String == "1188186300730889815")
        #expect(results[0]["total_price"] as? Double == 132)
        #expect(results[0]["nightly_price"] as? Double == 44)
        #expect(results[0]["neighbourhood_group"] is NSNull)
        #expect(results[0]["rating"] is NSNull)
        #expect(results[1]["rating"] as? Double == 4.88)
        #expect(Set(results[0].keys) == ["id", "name", "city", "neighbourhood_group", "neighbourhood", "room_type", "accommodates",
                                         "nightly_price", "total_price", "rating", "reviews", "latitude", "longitude"])
        let histogram = try #require(object["histogram"] as? [String: Any])
        #expect(histogram["lo"] as? Double == 0 && histogram["hi"] as? Double == 500)
        #expect(histogram["bins"] as? Int == 5)
        #expect(histogram["counts"] as? [Int] == [13, 25, 9, 2, 3])      // bins of $100; checked with Python
        #expect(histogram["overflow"] as? Int == 17)
        let counts = try #require(histogram["counts"] as? [Int])
        #expect(counts.reduce(0, +) + (histogram["overflow"] as! Int) + (histogram["underflow"] as! Int) == 69)
        #expect(histogram["count"] as? Int == 69)
        #expect(histogram["average_nightly_price"] as? Double == 1258.13)
    }

    @Test func withoutDatesNightsAndTotalsAreNull() throws {
        let output = try CommandRunner.run(["search", "--region", "ZUID", "--format", "json", "--limit", "1", "--sort", "rating"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(object["nights"] is NSNull)
        let first = try #require((object["results"] as? [[String: Any]])?.first)
        #expect(first["total_price"] is NSNull)
        #expect(first["neighbourhood"] as? String == "Zuid")
    }

    @Test func printsCSV() throws {
        let output = try CommandRunner.run(["search"] + stay + ["--format", "csv", "--limit", "2"])
        let lines = output.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("id,name,city,neighbourhood_group,neighbourhood,room_type"))
        #expect(lines[1].hasPrefix("1188186300730889815,Kamer vlak bij Centraal Station (5),Antwerp,,Centraal Station,Private room,2,44.00,132.00,"))
    }

    /// Every bad input of docs/query-semantics.md: one line on stderr, nothing on stdout, a non-zero exit.
    @Test(arguments: [
        (["--checkin", "2024-07-12", "--checkout", "2024-07-12"], "checkout 2024-07-12 must be after checkin 2024-07-12"),
        (["--checkin", "2024-07-15", "--checkout", "2024-07-12"], "must be after checkin"),
        (["--checkin", "2024-07-12"], "checkin given without checkout"),
        (["--checkout", "2024-07-12"], "checkout given without checkin"),
        (["--checkin", "2024-02-30", "--checkout", "2024-03-02"], "checkin '2024-02-30' is not a date; use YYYY-MM-DD"),
        (["--checkin", "12/07/2024", "--checkout", "2024-07-15"], "is not a date"),
        (["--min-price", "200", "--max-price", "100"], "min price 200.00 is above max price 100.00"),
        (["--min-price", "-5"], "min price '-5' is not a price"),
        (["--max-price", "cheap"], "max price 'cheap' is not a price"),
        (["--children", "-1"], "children must be 0 or more (got -1)"),
        (["--adults", "0"], "adults must be at least 1 (got 0)"),
        (["--adults", "two"], "--adults must be a whole number"),
        (["--infants", "6"], "infants must be from 0 to 5 (got 6)"),
        (["--limit", "5000"], "limit must be from 0 to 1000 (got 5000)"),
        (["--offset", "-1"], "offset must be from 0 to 1000000 (got -1)"),
        (["--bins", "0"], "bins must be from 1 to 1000 (got 0)"),
        (["--hist-min", "100", "--hist-max", "50"], "hist max 50.00 must be above hist min 100.00"),
        (["--sort", "cheapest"], "unknown sort 'cheapest'; use one of: price, price-desc, rating, reviews"),
        (["--room-type", "Castle"], "unknown room type 'Castle'; use one of: 'Entire home/apt', 'Hotel room', 'Private room', 'Shared room'"),
        (["--region", "Centraal Statoin"], "unknown region 'Centraal Statoin'; did you mean 'Centraal Station'"),
        (["--format", "xml"], "The value 'xml' is invalid for '--format"),
        (["--colour"], "Unknown option '--colour'"),
        (["--data", "/nonexistent"], "/nonexistent: no listings.csv or listings.csv.gz here"),
    ] as [([String], String)])
    func rejectsBadInput(arguments: [String], message: String) throws {
        let output = try CommandRunner.run(["search"] + arguments)
        #expect(output.status != 0)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.hasPrefix("staysearch: error: "), "\(output.stderr)")
        #expect(output.stderr.contains(message), "\(output.stderr)")
        #expect(output.stderr.split(separator: "\n").count == 1, "one line: \(output.stderr)")
    }

    /// Today is the data's date unless `--today` says otherwise: a stay before it or outside the data's days
    /// is refused with exit status 64 and a line that says why.
    @Test func searchesKeepToToday() throws {
        let past = try CommandRunner.run(["search", "--checkin", "2024-06-20", "--checkout", "2024-06-22"])
        #expect(past.status == 64 && past.stderr == "staysearch: error: check-in 2024-06-20 is before today (2024-06-29): a stay starts today or later\n")
        let moved = try CommandRunner.run(["search", "--today", "2024-07-13", "--checkin", "2024-07-12", "--checkout", "2024-07-14"])
        #expect(moved.status == 64 && moved.stderr.contains("before today (2024-07-13)"))
        let beyond = try CommandRunner.run(["histogram", "--checkin", "2025-07-20", "--checkout", "2025-07-22"])
        #expect(beyond.status == 64 && beyond.stderr.contains("which cover the nights of 2024-06-29 to 2025-06-28"), "\(beyond.stderr)")
        let window = try CommandRunner.run(["search", "--today", "2024-07-13", "--checkin-from", "2024-07-01", "--checkin-to", "2024-07-20",
                                            "--nights", "2", "--limit", "50", "--format", "csv"])
        #expect(window.status == 0)
        let checkIns = window.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",").suffix(2).first.map(String.init) ?? "" }
        #expect(!checkIns.isEmpty && checkIns.allSatisfy { $0 >= "2024-07-13" }, "\(checkIns.prefix(5))")
        let badToday = try CommandRunner.run(["search", "--today", "2024-13-01"])
        #expect(badToday.status == 64 && badToday.stderr.contains("--today '2024-13-01' is not a date"))
        let quote = try CommandRunner.run(["listing", "50904", "--today", "2024-07-13", "--checkin", "2024-07-12", "--checkout", "2024-07-14"])
        #expect(quote.status == 64 && quote.stderr.contains("before today"))
    }

    @Test func exitCodesSayWhatKindOfFailure() throws {
        #expect(try CommandRunner.run(["search", "--adults", "0"]).status == 64)
        #expect(try CommandRunner.run(["search", "--region", "Atlantis"]).status == 64)
        #expect(try CommandRunner.run(["search", "--data", "/nonexistent"]).status == 65)
        #expect(try CommandRunner.run(["frobnicate"]).status == 64)
    }

    @Test func helpHasExamples() throws {
        for command in [["--help"], ["search", "--help"], ["batch", "--help"], ["regions", "--help"]] {
            let output = try CommandRunner.run(command)
            #expect(output.status == 0)
            #expect(output.stdout.contains("Example"), "\(command)")
        }
    }

    @Test func regionsListsTheTreeAndFindsNames() throws {
        let tree = try CommandRunner.run(["regions"])
        #expect(tree.status == 0)
        #expect(tree.stdout.hasPrefix("Antwerp  (2,870)\n"))
        #expect(tree.stdout.split(separator: "\n").count == 58)
        let found = try CommandRunner.run(["regions", "--prefix", "CENTRAAL"])
        #expect(found.stdout.hasPrefix("Antwerp / Centraal Station  ("))
        let json = try CommandRunner.run(["regions", "--json", "--prefix", "zuid"])
        #expect(json.stdout.contains("\"path\":\"Antwerp/Zuid\""))
        let missing = try CommandRunner.run(["regions", "--prefix", "qqqq"])
        #expect(missing.status != 0 && missing.stderr.contains("no region name contains 'qqqq'"))
    }
}

/// The command line names exactly the schema's keys: `search --help` lists a flag for every key and no query
/// flag the schema lacks.
struct CommandLineSurfaceTests {
    /// The options of `search` that are not keys of a query (the platform's service fee and taxes are the
    /// deployment's settings, the same for every query).
    static let commandOptions: Set<String> = ["data", "index", "stats", "today", "threads", "format", "png", "map",
                                              "map-width", "map-height", "map-scale", "help", "version",
                                              "locale", "currency", "service-fee", "tax"]

    @Test func searchHelpListsEverySchemaFlag() throws {
        let help = try CommandRunner.run(["search", "--help"])
        #expect(help.status == 0)
        let flags = Set(help.stdout.matches(of: /(?m)^  --([a-z0-9-]+)/).map { String($0.1) })
        let schema = Set(QuerySchema.search.map(\.flag))
        #expect(schema.subtracting(flags).isEmpty, "missing: \(schema.subtracting(flags))")
        let chart = Set(QuerySchema.chart.map(\.key))
        #expect(chart.isSubset(of: flags))
        #expect(flags.subtracting(schema).subtracting(chart).subtracting(Self.commandOptions).isEmpty, "not in the schema: \(flags.subtracting(schema))")
    }
}

/// Every flag of `search`, `histogram` and `map` reaches the query: the samples that set every key of the
/// schema, given as flags, read into the same query as the URL reader makes of them, and each flag's value
/// changed changes the query.
@Suite struct QueryFlagTests {
    /// `items` as command-line arguments (a flag of the schema's kind `.flag` is given bare).
    static func arguments(_ items: [(key: String, value: String)]) -> [String] {
        items.flatMap { key, value -> [String] in
            let parameter = QuerySchema.parameter(key)!
            return parameter.kind == .flag ? ["--\(parameter.flag)"] : ["--\(parameter.flag)", value]
        }
    }

    @Test(arguments: 0..<2) func everyFlagReachesTheQuery(sample: Int) throws {
        let items = QuerySamples.everyKey[sample]
        let expected = try QueryReader.query(items: items)
        let options = try QueryOptions.parse(Self.arguments(items))
        #expect(options.query == expected)
        for key in Set(items.map(\.key)) {
            let changed = try QueryOptions.parse(Self.arguments(QuerySamples.changing(key, in: items)))
            #expect(changed.query != expected, "--\(QuerySchema.parameter(key)!.flag) does not reach the query")
            #expect(changed.query == (try QueryReader.query(items: QuerySamples.changing(key, in: items))))
        }
    }

    /// Every key of the schema has a flag, and every query flag is a key.
    @Test func theFlagsAreTheSchemasKeys() {
        func names(_ mirror: Mirror) -> [String] { mirror.children.compactMap { child in child.label.map { String($0.dropFirst()) } } }
        let properties: [String] = names(Mirror(reflecting: QueryOptions())).filter { $0 != "stay" } + names(Mirror(reflecting: StayOptions()))
        let keys: Set<String> = Set(properties.map { QueryOptions.schemaKey(ofProperty: $0) })
        #expect(keys == Set(QuerySchema.keys))
    }
}
