import Foundation
import StaySearch
import StaySearchAPI
import StaySearchTestSupport
import Testing

@Suite(.serialized) struct BatchCommandTests {
    @Test func answersEachLineInOrderAndGoesOnAfterBadLines() throws {
        let lines = [
            #"{"region": "Centraal Station", "checkin": "2024-07-12", "checkout": "2024-07-15", "adults": 2, "limit": 1}"#,
            #"{"region": "Centraal Station", "checkin": "2024-07-12"#,
            #"{"adults": 0}"#,
            "",
            #"{"region": "Atlantis"}"#,
            #"{"colour": "red"}"#,
            #"{"min_price": 50.5, "max_price": "80", "room_type": "Private room", "sort": "price-desc", "hist_min": 0, "hist_max": 100, "bins": 4}"#,
        ]
        let output = try CommandRunner.run(["batch", "--queries", "-"], input: lines.joined(separator: "\n") + "\n")
        #expect(output.status == 0)
        let answers = output.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(answers.count == lines.count)
        let objects = try answers.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(objects[0]["total"] as? Int == 69)
        #expect((objects[0]["took_us"] as? Int).map { $0 >= 0 } == true)
        #expect(objects[1]["error"] as? String == "a string is not closed")
        #expect(objects[2]["error"] as? String == "adults must be at least 1 (got 0)")
        #expect(objects[3]["error"] != nil)
        #expect((objects[4]["error"] as? String)?.hasPrefix("unknown region 'Atlantis'") == true)
        #expect((objects[5]["error"] as? String)?.hasPrefix("unknown key 'colour'") == true)
        let priced = try #require(objects[6]["results"] as? [[String: Any]])
        #expect(priced.allSatisfy { ($0["nightly_price"] as! Double) >= 50.5 && ($0["nightly_price"] as! Double) <= 80 })
        #expect(priced.map { $0["nightly_price"] as! Double } == priced.map { $0["nightly_price"] as! Double }.sorted(by: >))
    }

    @Test func takesFlexibleDatesAndWindows() throws {
        let lines = [
            #"{"region": "Centraal Station", "checkin": "2024-07-12", "checkout": "2024-07-15", "adults": 2, "flexible_days": 3, "limit": 2}"#,
            #"{"region": "Centraal Station", "checkin_from": "2024-08-01", "checkin_to": "2024-08-31", "nights": 2, "checkin_weekdays": ["fri"], "limit": 2}"#,
            #"{"region": "Centraal Station", "checkin_from": "2024-08-01", "checkin_to": "2024-08-31", "nights": 2, "checkin_weekdays": "fri,sat"}"#,
            #"{"checkin_from": "2024-03-01", "nights": 2}"#,
            #"{"checkin_from": "2024-03-01", "checkin_to": "2024-05-31", "nights": 2}"#,
        ]
        let output = try CommandRunner.run(["batch", "--queries", "-"], input: lines.joined(separator: "\n") + "\n")
        #expect(output.status == 0)
        let objects = try output.stdout.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(objects.count == lines.count)
        let shifted = try #require(objects[0]["results"] as? [[String: Any]])
        #expect(shifted.count == 2 && shifted.allSatisfy { ($0["checkin"] as? String)?.hasPrefix("2024-07-") == true })
        let fridays = try #require(objects[1]["results"] as? [[String: Any]])
        #expect(fridays.count == 2 && fridays.allSatisfy { ["2024-08-02", "2024-08-09", "2024-08-16", "2024-08-23", "2024-08-30"].contains($0["checkin"] as! String) })
        #expect((objects[2]["total"] as! Int) >= (objects[1]["total"] as! Int))
        #expect(objects[3]["error"] as? String == "a check-in window needs checkin from, checkin to and nights; checkin to is missing")
        #expect(objects[4]["error"] as? String == "a check-in window may have at most 62 days (got 92)")
    }

    /// A saved index held in huge pages (the default) or mapped answers every line the same; a mode that
    /// does not exist is refused.
    @Test func anIndexHeldEitherWayGivesTheSameAnswers() throws {
        let directory = Scratch.directory("batch-memory")
        let index = directory + "/generated.ssx"
        #expect(try CommandRunner.run(["generate", "--listings", "3000", "--seed", "9", "--pricing", "dynamic", "--output", index]).status == 0)
        let lines = [
            #"{"adults": 2, "limit": 5}"#,
            #"{"checkin": "2025-07-10", "checkout": "2025-07-14", "adults": 2, "sort": "recommended"}"#,
            #"{"checkin": "2025-09-01", "checkout": "2025-09-08", "max_price": 150, "facets": ["room_type"]}"#,
        ].joined(separator: "\n") + "\n"
        var answers: [String] = []
        for memory in [[], ["--index-memory", "mapped"], ["--index-memory", "huge-pages"]] {
            let output = try CommandRunner.run(["batch", "--index", index, "--queries", "-", "--threads", "1"] + memory, input: lines)
            #expect(output.status == 0, "\(memory): \(output.stderr)")
            answers.append(output.stdout.replacing(/"took_us":\d+/, with: ""))
        }
        #expect(answers.count == 3 && answers.allSatisfy { $0 == answers[0] })
        #expect(answers[0].split(separator: "\n").count == 3 && !answers[0].contains("error"))
        let wrong = try CommandRunner.run(["batch", "--index", index, "--queries", "-", "--index-memory", "disk"], input: lines)
        #expect(wrong.status != 0 && wrong.stderr.contains("--index-memory"))
    }

    @Test func aMissingQueriesFileIsAnError() throws {
        let output = try CommandRunner.run(["batch", "--queries", "/nonexistent.jsonl"])
        #expect(output.status != 0)
        #expect(output.stderr == "staysearch: error: /nonexistent.jsonl: cannot open: No such file or directory\n")
    }

    /// A line with "map" also draws its results on a map; a map that cannot be written is that line's error.
    @Test func drawsMapsForLinesThatAskForThem() throws {
        let path = NSTemporaryDirectory() + "staysearch-batch-map-\(getpid()).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let lines = [#"{"region": "zuid", "amenities": ["wifi"], "limit": 3, "map": "\#(path)"}"#,
                     #"{"region": "zuid", "map": "/nonexistent-folder/x.png"}"#, #"{"region": "zuid", "map": ""}"#]
        let output = try CommandRunner.run(["batch", "--queries", "-"], input: lines.joined(separator: "\n") + "\n")
        let answers = output.stdout.split(separator: "\n").map(String.init)
        #expect(answers.count == 3)
        #expect(answers[0].hasPrefix(#"{"total":"#))
        let png = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(png[16..<24] == Data([0, 0, 0x03, 0x20, 0, 0, 0x02, 0x58]))      // 800 × 600
        #expect(answers[1].hasPrefix(#"{"error":"/nonexistent-folder/x.png: cannot"#), "\(answers[1])")
        #expect(answers[2] == ExpectedError.json("map must name a PNG file", code: "invalid_parameter"))
    }

    /// `batch` over CSV files written from random data agrees with the brute-force reference.
    @Test(arguments: 0..<6)
    func batchAgreesWithTheReference(seed: Int) throws {
        let data = TestDataset.random(seed: UInt64(seed) + 5_000, maximumListings: 200)
        let directory = Scratch.path("batch")
        let dataArguments = try data.writeInsideAirbnb(to: directory).flatMap { ["--data", $0] }
        var random = SeededGenerator(seed: UInt64(seed))
        let queries = (0..<150).map { _ in data.randomQuery(using: &random) }
        let output = try CommandRunner.run(["batch", "--queries", "-"] + dataArguments,
                                           input: queries.map(BatchQueryLine.json).joined(separator: "\n") + "\n")
        #expect(output.status == 0, "\(output.stderr)")
        let answers = output.stdout.split(separator: "\n")
        #expect(answers.count == queries.count)
        // The command's today is the data's first day: the reference answers each query as the clock prepares it.
        let index = data.makeIndex().index
        let clock = StayClock(today: nil, first: index.firstDay, dayCount: index.dayCount)
        for (query, line) in zip(queries, answers) {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            guard let prepared = try? clock.prepared(query), let expected = try? ReferenceSearch.search(prepared, in: data.inFileOrder) else {
                #expect(object["error"] != nil, "\(query) should fail")
                continue
            }
            #expect(object["total"] as? Int == expected.total, "\(query)")
            let results = object["results"] as? [[String: Any]] ?? []
            #expect(results.map { Int64($0["id"] as! String)! } == expected.ids, "\(query)")
            #expect(results.map { cents($0["nightly_price"]) } == expected.nightlyPrices, "\(query)")
            #expect(results.map { $0["total_price"] is NSNull ? nil : cents($0["total_price"]) } == expected.totalPrices)
            #expect(results.map { ($0["checkin"] as? String).flatMap(Day.init(iso:)) } == expected.checkIns, "\(query)")
            // Facets: every value and count, in order.
            let facets = object["facets"] as? [String: [[String: Any]]] ?? [:]
            #expect(facets.count == expected.facets.count, "\(query)")
            for counts in expected.facets {
                let got = (facets[counts.facet.rawValue] ?? []).map { "\($0["value"]!)=\($0["count"]!)" }
                let want = counts.entries.map { entry -> String in
                    switch entry.value {
                    case .text(let text): return "\(text)=\(entry.count)"
                    case .number(let number): return "\(number)=\(entry.count)"
                    case .flag(let flag): return "\(flag ? 1 : 0)=\(entry.count)"
                    }
                }
                #expect(got == want, "\(counts.facet) of \(query)")
            }
            // distance_km: the exact distance rounded to metres.
            let distances = results.map { ($0["distance_km"] as? NSNumber)?.doubleValue }
            #expect(distances == expected.distances.map { $0.map { ($0 * 1000).rounded() / 1000 } }, "\(query)")
            for (result, id) in zip(results, expected.ids) {
                #expect(result["name"] as? String == data.listings.first { $0.id == id }!.name)
            }
            let histogram = object["histogram"] as! [String: Any]
            #expect(histogram["counts"] as? [Int] == expected.histogram.counts, "\(query)")
            #expect(cents(histogram["lo"]) == expected.histogram.lo.minorUnits && cents(histogram["hi"]) == expected.histogram.hi.minorUnits)
            #expect(histogram["underflow"] as? Int == expected.histogram.underflow && histogram["overflow"] as? Int == expected.histogram.overflow)
            #expect(histogram["count"] as? Int == expected.histogram.count)
            #expect((histogram["average_nightly_price"] as? NSNumber).map { cents($0) } == expected.histogram.averageNightlyPrice?.minorUnits)
        }
    }

    private func cents(_ value: Any?) -> Int64 {
        Int64(((value as! NSNumber).doubleValue * 100).rounded())
    }
}
