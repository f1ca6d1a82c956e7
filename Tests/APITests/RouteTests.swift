import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StayData
import StaySearch
import StaySearchAPI
import StaySearchTestSupport
import Testing

/// The server's routes in process (HummingbirdTesting, no socket): answers, error shapes, limits and the
/// page, over the shipped Antwerp sample saved as an index with its journal.
@Suite(.serialized) struct RouteTests {
    /// The shipped sample, loaded once.
    static let sample: Result<ListingIndex, DataError> = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return Result { () throws(DataError) in
            try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: "Antwerp", path: root.path + "/Data/antwerp")]).index
        }
    }()

    /// A service over a fresh copy of the sample, so that changes in one test do not reach another.
    static func service(today: Day? = nil) throws -> SearchService {
        let index = try sample.get()
        let path = Scratch.path("routes-\(UInt32.random(in: 0...UInt32.max)).ssx")
        _ = try IndexFileWriter.save(index, to: path)
        let opened = try LiveIndexFile.open(from: path)
        return SearchService(live: opened.live, journal: opened.journal, today: today)
    }

    /// The shipped sample with a `neighbourhoods.geojson` of two neighbourhoods beside it, in `folder`.
    static func writeOutlinedSample(to folder: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for file in ["listings.csv.gz", "calendar.csv.gz"] {
            try FileManager.default.createSymbolicLink(atPath: folder + "/" + file, withDestinationPath: root.path + "/Data/antwerp/" + file)
        }
        try #"""
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"neighbourhood": "Zuid", "neighbourhood_group": null},
               "geometry": {"type": "Polygon", "coordinates": [[[4.38, 51.18], [4.41, 51.18], [4.41, 51.21], [4.38, 51.21], [4.38, 51.18]]]}},
              {"type": "Feature", "properties": {"neighbourhood": "Centraal Station"},
               "geometry": {"type": "Polygon", "coordinates": [[[4.415, 51.215], [4.43, 51.215], [4.43, 51.222], [4.415, 51.215]]]}}
            ]}
            """#.write(toFile: folder + "/neighbourhoods.geojson", atomically: true, encoding: .utf8)
    }

    /// The key the tests write with.
    static let writeKey = "route-tests-write-key-0123456789"
    static let writing: HTTPFields = [.authorization: "Bearer \(writeKey)"]

    /// Runs `body` against the router of a fresh service (writes need ``writeKey``, or are refused when
    /// `acceptsWrites` is false).
    static func withClient(acceptsWrites: Bool = true,
                           _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let keys = acceptsWrites ? try WriteKeys(fileText: "# the tests' key\n\(writeKey)\n", path: "keys.txt") : nil
        let app = Application(router: SearchServer.router(try service(), writeKeys: keys))
        try await app.test(.router, body)
    }

    @Test func searchesAnswerWithTheSearchObject() async throws {
        try await Self.withClient { client in
            let searched = try await client.execute(uri: "/v1/search?region=zuid&checkin=2024-07-12&checkout=2024-07-15&adults=2&limit=3", method: .get)
            #expect(searched.status == .ok && searched.headers[.contentType] == "application/json")
            let body = String(buffer: searched.body)
            #expect(body.hasPrefix(#"{"total":"#) && !body.hasPrefix(#"{"total":0,"#) && body.hasSuffix("}\n"))
            let bad = try await client.execute(uri: "/v1/search?region=zuidd", method: .get)
            #expect(bad.status == .badRequest && String(buffer: bad.body) == ExpectedError.json("unknown region 'zuidd'; did you mean 'Zuid'?", code: "unknown_region") + "\n")
            let batch = try await client.execute(uri: "/v1/search/batch", method: .post,
                                                 body: ByteBuffer(string: #"{"region": "zuid", "limit": 1}"# + "\nnot json\n"))
            let lines = String(buffer: batch.body).split(separator: "\n")
            #expect(lines.count == 2 && lines[0].hasPrefix(#"{"total":131,"#) && lines[1].hasPrefix(#"{"error":"not a JSON object"#))
        }
    }

    /// The listing route reads its stay through the schema, as the command line does: no adults is refused.
    @Test func aListingsQuoteTakesTheStayKeysOnly() async throws {
        try await Self.withClient { client in
            let quoted = try await client.execute(uri: "/v1/listings/50904?checkin=2024-07-12&checkout=2024-07-14&adults=2", method: .get)
            #expect(quoted.status == .ok && String(buffer: quoted.body).contains(#""quote":"#))
            let noAdults = try await client.execute(uri: "/v1/listings/50904?adults=0", method: .get)
            #expect(noAdults.status == .badRequest && String(buffer: noAdults.body) == ExpectedError.json("adults must be at least 1 (got 0)", code: "invalid_parameter") + "\n")
            let region = try await client.execute(uri: "/v1/listings/50904?region=zuid", method: .get)
            #expect(region.status == .badRequest && String(buffer: region.body).contains("unknown key 'region'; keys are checkin, checkout, adults, children, infants"))
            #expect(try await client.execute(uri: "/v1/listings/1", method: .get).status == .notFound)
        }
    }

    /// Every error, the router's own included, is one error object (`error`, `message`, `code`, `type`) with
    /// its code's status.
    @Test func everyErrorHasOneShape() async throws {
        try await Self.withClient { client in
            let unknown = try await client.execute(uri: "/v2/nothing", method: .get)
            #expect(unknown.status == .notFound && String(buffer: unknown.body) == ExpectedError.json("no such route: GET /v2/nothing", code: "route_not_found") + "\n")
            #expect(unknown.headers[.contentType] == "application/json")
            let deleted = try await client.execute(uri: "/v1/changes", method: .delete)
            #expect(deleted.status == .methodNotAllowed && deleted.headers[.allow] == "POST")
            #expect(String(buffer: deleted.body) == ExpectedError.json("DELETE is not allowed on /v1/changes; use POST", code: "method_not_allowed") + "\n")
            let posted = try await client.execute(uri: "/v1/listings/50904/calendar", method: .post)
            #expect(posted.status == .methodNotAllowed && posted.headers[.allow] == "GET")
            let large = try await client.execute(uri: "/v1/changes", method: .post, headers: Self.writing,
                                                 body: ByteBuffer(repeating: UInt8(ascii: " "), count: SearchServer.largestBody + 1))
            #expect(large.status == .contentTooLarge && String(buffer: large.body) == ExpectedError.json("the body is over 10 MiB", code: "body_too_large") + "\n")
            let chart = try await client.execute(uri: "/v1/map.png?width=4000&height=3000&scale=4", method: .get)
            #expect(chart.status == .badRequest && String(buffer: chart.body).contains("at most 16 million"))
        }
    }

    /// Live changes are answered line by line and seen by the next search.
    @Test func changesAreSeenByTheNextSearch() async throws {
        try await Self.withClient { client in
            let changes = try await client.execute(uri: "/v1/changes", method: .post, headers: Self.writing, body: ByteBuffer(string: """
                {"op": "listing", "id": "77", "name": "New loft", "city": "Antwerp", "neighbourhood": "Zuid", "room_type": "Entire home/apt", "accommodates": 2}
                {"op": "price", "id": "77", "from": "2024-07-01", "to": "2024-08-01", "price": 42}
                {"op": "availability", "id": "77", "from": "2024-07-01", "to": "2024-08-01", "available": true}
                {"op": "book", "id": "77", "checkin": "2024-07-20", "checkout": "2024-07-19"}
                """))
            #expect(String(buffer: changes.body).split(separator: "\n").map { $0.hasPrefix(#"{"ok":true"#) } == [true, true, true, false])
            let cheapest = try await client.execute(uri: "/v1/search?region=zuid&checkin=2024-07-12&checkout=2024-07-15&limit=1", method: .get)
            #expect(String(buffer: cheapest.body).contains(#""id":"77","name":"New loft""#))
        }
    }

    /// Writes need a key of the key file, named as a bearer token; reads need none.
    @Test func writesNeedAKey() async throws {
        let booking = ByteBuffer(string: #"{"op": "book", "id": "50904", "checkin": "2024-07-12", "checkout": "2024-07-14"}"# + "\n")
        try await Self.withClient { client in
            let none = try await client.execute(uri: "/v1/changes", method: .post, body: booking)
            #expect(none.status == .unauthorized && none.headers[.wwwAuthenticate] == "Bearer")
            #expect(String(buffer: none.body) == ExpectedError.json("a write needs the header Authorization: Bearer KEY", code: "missing_write_key", type: "auth") + "\n")
            let wrong = try await client.execute(uri: "/v1/changes", method: .post,
                                                 headers: [.authorization: "Bearer \(Self.writeKey)x"], body: booking)
            #expect(wrong.status == .forbidden && String(buffer: wrong.body) == ExpectedError.json("the write key is not accepted", code: "invalid_write_key", type: "auth") + "\n")
            let basic = try await client.execute(uri: "/v1/changes", method: .post, headers: [.authorization: "Basic \(Self.writeKey)"], body: booking)
            #expect(basic.status == .unauthorized)
            let right = try await client.execute(uri: "/v1/changes", method: .post,
                                                 headers: [.authorization: "bearer \(Self.writeKey)"], body: booking)
            #expect(right.status == .ok && String(buffer: right.body).hasPrefix(#"{"ok":true"#))
            // Reads, the batch of searches included, stay open.
            #expect(try await client.execute(uri: "/v1/search?limit=1", method: .get).status == .ok)
            #expect(try await client.execute(uri: "/v1/search/batch", method: .post, body: ByteBuffer(string: "{}\n")).status == .ok)
        }
        try await Self.withClient(acceptsWrites: false) { client in
            let refused = try await client.execute(uri: "/v1/changes", method: .post, headers: Self.writing, body: booking)
            #expect(refused.status == .forbidden && String(buffer: refused.body).contains("writes are disabled"))
        }
    }

    /// Charts and calendars: PNGs of the asked size, sizes read through the schema's bounds.
    @Test func chartsAndCalendars() async throws {
        try await Self.withClient { client in
            let histogram = try await client.execute(uri: "/v1/histogram.png?region=zuid&width=640&height=300", method: .get)
            #expect(histogram.status == .ok && histogram.headers[.contentType] == "image/png")
            #expect(Array(histogram.body.readableBytesView.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            // The map says where each result's pin is: the search's page, in order, inside the picture.
            let searched = try await client.execute(uri: "/v1/search?region=zuid&limit=4", method: .get)
            let ids = String(buffer: searched.body).matches(of: /"id":"(\d+)"/).map { String($0.1) }
            let map = try await client.execute(uri: "/v1/map.png?region=zuid&limit=4&width=500&height=400&scale=2", method: .get)
            let pins = try #require(map.headers[HTTPField.Name("X-Map-Pins")!]).split(separator: " ").map { $0.split(separator: "@") }
            #expect(pins.map { String($0[0]) } == ids && ids.count == 4)
            for pin in pins {
                let xy = pin[1].split(separator: ",").compactMap { Int($0) }
                #expect(xy.count == 2 && (0...500).contains(xy[0]) && (34...400).contains(xy[1]), "\(pin)")
            }
            let narrow = try await client.execute(uri: "/v1/map.png?width=5", method: .get)
            #expect(narrow.status == .badRequest && String(buffer: narrow.body) == ExpectedError.json("width must be from 200 to 4000 (got 5)", code: "invalid_parameter") + "\n")
            let calendar = try await client.execute(uri: "/v1/listings/50904/calendar?month=2024-07&months=2", method: .get)
            #expect(calendar.status == .ok && String(buffer: calendar.body).hasPrefix(#"{"id":"50904","#))
            #expect(try await client.execute(uri: "/v1/listings/50904/calendar?month=2024-13", method: .get).status == .badRequest)
        }
    }

    /// `/openapi.json` is true to the server: every documented path and method answers (none is unknown),
    /// every route is documented, and the search, chart and quote parameters are the schema's.
    @Test func theOpenAPIDocumentDescribesTheServer() async throws {
        try await Self.withClient { client in
            let text = try await client.execute(uri: "/openapi.json", method: .get).body
            let document = try #require(try JSONSerialization.jsonObject(with: Data(buffer: text)) as? [String: Any])
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            let served = Set(SearchServer.routes.map { "\($0.method.rawValue.lowercased()) \($0.path.replacingOccurrences(of: ":id", with: "{id}"))" })
            #expect(Set(paths.flatMap { path, operations in operations.keys.map { "\($0) \(path)" } }) == served)
            for (path, operations) in paths {
                for method in operations.keys {
                    let uri = path.replacingOccurrences(of: "{id}", with: "50904")
                    let reply = try await client.execute(uri: uri, method: method == "get" ? .get : .post, body: ByteBuffer(string: "\n"))
                    #expect(reply.status != .notFound && reply.status.code < 500, "\(method) \(path): \(reply.status)")
                }
            }
            func names(_ path: String) throws -> [String] {
                let operation = try #require(paths[path]?["get"] as? [String: Any])
                return try #require(operation["parameters"] as? [[String: Any]]).compactMap { $0["name"] as? String }
            }
            #expect(try names("/v1/search") == QuerySchema.keys + [SearchServer.minimumPosition])
            #expect(try names("/v1/map.png") == QuerySchema.keys + [SearchServer.minimumPosition] + QuerySchema.chart.map(\.key)
                + QuerySchema.displayKeys)
            #expect(try names("/v1/listings/{id}") == ["id"] + QuerySchema.stayKeys + [SearchServer.minimumPosition])
            #expect(try names("/v1/regions") == QuerySchema.regions.map(\.key) + [SearchServer.minimumPosition])
            #expect(try names("/v1/listings/{id}/calendar") == ["id"] + QuerySchema.calendar.map(\.key) + [SearchServer.minimumPosition])
            // The route keys' bounds are the table's: what the document says is what the server takes.
            let regions = try #require(paths["/v1/regions"]?["get"] as? [String: Any])
            let limit = try #require((regions["parameters"] as? [[String: Any]])?.first { $0["name"] as? String == "limit" }?["schema"] as? [String: Any])
            #expect(limit["minimum"] as? Int == 1 && limit["maximum"] as? Int == 100)
            #expect(try await client.execute(uri: "/v1/regions?limit=100", method: .get).status == .ok)
            #expect(try await client.execute(uri: "/v1/regions?limit=101", method: .get).status == .badRequest)
            // Every error code is in the error object's schema, and every error response points at it.
            let components = try #require(document["components"] as? [String: Any])
            let schemas = try #require(components["schemas"] as? [String: Any])
            let errorSchema = try #require(schemas["Error"] as? [String: Any])
            let properties = try #require(errorSchema["properties"] as? [String: [String: Any]])
            #expect(properties["code"]?["enum"] as? [String] == ErrorCode.allCases.map(\.rawValue))
            var documentedCodes = Set<String>()
            for (path, operations) in paths {
                for (method, operation) in operations {
                    let responses = try #require((operation as? [String: Any])?["responses"] as? [String: [String: Any]])
                    for (status, response) in responses where Int(status)! >= 400 {
                        let description = try #require(response["description"] as? String)
                        let codes = description.components(separatedBy: "code: ").last!.components(separatedBy: ", ")
                        #expect(codes.allSatisfy { ErrorCode(rawValue: $0)?.status == Int(status) }, "\(method) \(path) \(status): \(codes)")
                        documentedCodes.formUnion(codes)
                    }
                }
            }
            // All but a path that is not served (no path of the document can answer it).
            let expected = Set(ErrorCode.allCases.map(\.rawValue)).subtracting([ErrorCode.routeNotFound.rawValue])
            #expect(documentedCodes == expected, "\(expected.symmetricDifference(documentedCodes))")
        }
    }

    /// A program can tell refusals apart by code: an unknown listing, nights already booked, a bad change
    /// line, an unknown key of a route; each refused line of a body of changes carries its own.
    @Test func errorsCarryCodesAProgramCanBranchOn() async throws {
        try await Self.withClient { client in
            func code(_ uri: String) async throws -> (Int, String?) {
                let reply = try await client.execute(uri: uri, method: .get)
                let object = try JSONSerialization.jsonObject(with: Data(buffer: reply.body)) as? [String: Any]
                return (reply.status.code, object?["code"] as? String)
            }
            #expect(try await code("/v1/listings/1") == (404, "listing_not_found"))
            #expect(try await code("/v1/listings/abc") == (400, "invalid_listing_id"))
            #expect(try await code("/v1/regions?prefx=zu") == (400, "unknown_parameter"))
            #expect(try await code("/v1/search?colour=red") == (400, "unknown_parameter"))
            #expect(try await code("/v1/search?limit=-1") == (400, "invalid_parameter"))
            #expect(try await code("/v1/listings/50904/calendar?month=2024-13") == (400, "invalid_parameter"))
            #expect(try await code("/v1/listings/50904/calendar?months=13") == (400, "invalid_parameter"))
            #expect(try await code("/v1/search?min_position=7") == (400, "position_without_follow"))
            #expect(try await code("/v1/search?min_position=x") == (400, "invalid_position"))
            let booking = #"{"op": "book", "id": "50904", "checkin": "2024-07-12", "checkout": "2024-07-14"}"#
            let first = try await client.execute(uri: "/v1/changes", method: .post, headers: Self.writing, body: ByteBuffer(string: booking + "\n"))
            #expect(String(buffer: first.body).hasPrefix(#"{"ok":true"#))
            let lines = try await client.execute(uri: "/v1/changes", method: .post, headers: Self.writing, body: ByteBuffer(string: """
                \(booking)
                {"op": "book", "id": "1", "checkin": "2024-07-12", "checkout": "2024-07-14"}
                {"op": "paint", "id": "50904"}
                {"op": "book", "id": "50904", "checkin": "2025-07-12", "checkout": "2025-07-14"}
                {"op": "book", "id": "50904", "checkin": "2019-07-12", "checkout": "2019-07-14"}
                {"op": "rules", "id": "50904", "from": "2024-07-01", "to": "2024-07-05", "minimum_nights": 9, "maximum_nights": 3}
                """))
            let codes = String(buffer: lines.body).split(separator: "\n").map { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["code"] as? String
            }
            #expect(codes == ["nights_not_available", "listing_not_found", "invalid_change", "nights_outside_calendar", "nights_before_today",
                              "invalid_stay_rule"])
            // A body of one line is answered with that line's status.
            let single = try await client.execute(uri: "/v1/changes", method: .post, headers: Self.writing, body: ByteBuffer(string: booking + "\n"))
            #expect(single.status == .conflict && String(buffer: single.body).contains(#""code":"nights_not_available""#))
        }
    }

    /// Today is the data's own date unless the server is told another: a stay before it, a stay outside the
    /// days the data covers and a change to past nights are refused with their codes; a window's past
    /// check-ins are left out.
    @Test func theServerKeepsToItsToday() async throws {
        @Sendable func code(_ reply: TestResponse) -> String? {
            ((try? JSONSerialization.jsonObject(with: Data(buffer: reply.body))) as? [String: Any])?["code"] as? String
        }
        try await Self.withClient { client in
            let past = try await client.execute(uri: "/v1/search?checkin=2024-06-20&checkout=2024-06-22", method: .get)
            #expect(past.status == .badRequest && code(past) == "check_in_before_today")
            let beyond = try await client.execute(uri: "/v1/search?checkin=2025-07-20&checkout=2025-07-22", method: .get)
            #expect(beyond.status == .badRequest && code(beyond) == "dates_outside_calendar")
            #expect(String(buffer: beyond.body).contains("cover the nights of 2024-06-29 to 2025-06-28"))
            #expect(try await client.execute(uri: "/v1/search?checkin=2024-06-29&checkout=2024-07-01", method: .get).status == .ok)
        }
        let keys = try WriteKeys(fileText: "\(Self.writeKey)\n", path: "keys.txt")
        let service = try Self.service(today: Day(iso: "2024-07-13"))
        try await Application(router: SearchServer.router(service, writeKeys: keys)).test(.router) { client in
            let info = try await client.execute(uri: "/v1/index", method: .get)
            #expect(String(buffer: info.body).contains(#""today":"2024-07-13""#))
            let yesterday = try await client.execute(uri: "/v1/search?checkin=2024-07-12&checkout=2024-07-14", method: .get)
            #expect(code(yesterday) == "check_in_before_today")
            let quote = try await client.execute(uri: "/v1/listings/50904?checkin=2024-07-12&checkout=2024-07-14", method: .get)
            #expect(code(quote) == "check_in_before_today")
            let booking = try await client.execute(uri: "/v1/changes", method: .post, headers: Self.writing, body: ByteBuffer(string:
                #"{"op": "book", "id": "50904", "checkin": "2024-07-12", "checkout": "2024-07-14"}"# + "\n"))
            #expect(booking.status == .badRequest && code(booking) == "nights_before_today", "\(String(buffer: booking.body))")
            let window = try await client.execute(uri: "/v1/search?checkin_from=2024-07-01&checkin_to=2024-07-20&nights=2&limit=100", method: .get)
            let results = try #require((try JSONSerialization.jsonObject(with: Data(buffer: window.body)) as? [String: Any])?["results"] as? [[String: Any]])
            #expect(!results.isEmpty && results.allSatisfy { ($0["checkin"] as? String ?? "") >= "2024-07-13" })
        }
    }

    /// With `--cors-origin`, pages of that origin may call the API (preflight included); others are answered
    /// without the headers that would let their browser hand the answer over.
    @Test func pagesOfAllowedOriginsMayCallTheAPI() async throws {
        let app = Application(router: SearchServer.router(try Self.service(), writeKeys: nil, corsOrigins: ["https://app.example.com"]))
        try await app.test(.router) { client in
            let allowed = try await client.execute(uri: "/v1/search?limit=1", method: .get, headers: [.origin: "https://app.example.com"])
            #expect(allowed.status == .ok && allowed.headers[.accessControlAllowOrigin] == "https://app.example.com")
            #expect(allowed.headers[.vary]?.contains("Origin") == true && allowed.headers[.accessControlExposeHeaders]?.contains("X-Map-Pins") == true)
            let preflight = try await client.execute(uri: "/v1/changes", method: .options, headers: [
                .origin: "https://app.example.com", .accessControlRequestMethod: "POST", .accessControlRequestHeaders: "authorization"])
            #expect(preflight.status == .noContent && preflight.headers[.accessControlAllowMethods] == "POST, OPTIONS")
            #expect(preflight.headers[.accessControlAllowHeaders]?.contains("Authorization") == true)
            let refusedError = try await client.execute(uri: "/v1/listings/1", method: .get, headers: [.origin: "https://app.example.com"])
            #expect(refusedError.status == .notFound && refusedError.headers[.accessControlAllowOrigin] == "https://app.example.com")
            let other = try await client.execute(uri: "/v1/search?limit=1", method: .get, headers: [.origin: "https://evil.example.org"])
            #expect(other.status == .ok && other.headers[.accessControlAllowOrigin] == nil)
        }
        // Without --cors-origin no answer carries the header.
        try await Self.withClient { client in
            let plain = try await client.execute(uri: "/v1/search?limit=1", method: .get, headers: [.origin: "https://app.example.com"])
            #expect(plain.headers[.accessControlAllowOrigin] == nil)
        }
    }

    /// The neighbourhoods' outlines the index keeps, as GeoJSON, and the degrees of a map's edges.
    @Test func neighbourhoodOutlinesAreServedAsGeoJSON() async throws {
        let folder = Scratch.path("outlined")
        try Self.writeOutlinedSample(to: folder)
        let index = try InsideAirbnbLoader().loadIndex(from: [DatasetFolder(city: "Antwerp", path: folder)]).index
        let path = Scratch.path("outlined.ssx")
        _ = try IndexFileWriter.save(index, to: path)
        let opened = try LiveIndexFile.open(from: path)
        let app = Application(router: SearchServer.router(SearchService(live: opened.live, journal: opened.journal), writeKeys: nil))
        try await app.test(.router) { client in
            let reply = try await client.execute(uri: "/v1/neighbourhoods.geojson", method: .get)
            #expect(reply.status == .ok && reply.headers[.contentType] == "application/geo+json")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(buffer: reply.body)) as? [String: Any])
            let features = try #require(document["features"] as? [[String: Any]])
            #expect(document["type"] as? String == "FeatureCollection" && features.count == 2)
            let first = try #require(features.first)
            #expect((first["properties"] as? [String: String]) == ["city": "Antwerp", "name": "Zuid"])
            let geometry = try #require(first["geometry"] as? [String: Any])
            #expect(geometry["type"] as? String == "MultiLineString")
            let ring = try #require((geometry["coordinates"] as? [[[Double]]])?.first)
            #expect(ring.first == [4.38, 51.18] && ring.count == 5)
            let map = try await client.execute(uri: "/v1/map.png?region=zuid&width=400&height=300", method: .get)
            let view = try #require(map.headers[HTTPField.Name("X-Map-View")!]).split(separator: ",").compactMap { Double($0) }
            #expect(view.count == 4 && view[0] < view[2] && view[1] < view[3], "\(view)")
            #expect(try await client.execute(uri: "/v1/neighbourhoods.geojson?city=x", method: .get).status == .badRequest)
        }
    }

    /// The page's parts under a strict content security policy, and query strings as browsers encode them.
    @Test func thePageAndItsParts() async throws {
        try await Self.withClient { client in
            // The days the calendars cover (the sample's: a year from its scrape), asked before the first search.
            let span = try await client.execute(uri: "/v1/index", method: .get)
            #expect(String(buffer: span.body) == #"{"calendar":{"first":"2024-06-29","last":"2025-06-28","days":365},"today":"2024-06-29","#
                + #""fees":{"service_fee_percent":0,"taxes":{}}}"# + "\n")
            let page = try await client.execute(uri: "/", method: .get)
            #expect(page.status == .ok && page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.headers[.contentSecurityPolicy]?.hasPrefix("default-src 'self'") == true)
            let body = String(buffer: page.body)
            #expect(body.contains(#"<script src="/page.js" defer></script>"#) && !body.contains("<script>") && !body.contains("style=\""))
            #expect(try await client.execute(uri: "/page.js", method: .get).headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(try await client.execute(uri: "/page.css", method: .get).headers[.contentType] == "text/css; charset=utf-8")
            #expect(try await client.execute(uri: "/favicon.svg", method: .get).headers[.contentType] == "image/svg+xml")
            // The page's language follows Accept-Language (this server has no --locale); its currency the language's.
            #expect(body.contains(#"<html lang="en" data-currency="USD">"#))
            let korean = try await client.execute(uri: "/", method: .get, headers: [.acceptLanguage: "ko-KR,ko;q=0.9,en;q=0.8"])
            #expect(String(buffer: korean.body).contains(#"<html lang="ko" data-currency="KRW">"#))
            #expect(korean.headers[.contentLanguage] == "ko" && korean.headers[.vary] == "Accept-Language")
            let map = try await client.execute(uri: "/v1/map.png?region=zuid&locale=ko&currency=KRW", method: .get)
            #expect(map.status == .ok && map.headers[.contentType] == "image/png")
            let badLocale = try await client.execute(uri: "/v1/histogram.png?locale=xx", method: .get)
            #expect(badLocale.status == .badRequest && String(buffer: badLocale.body).contains("unknown locale 'xx'; use en or ko"))
            let spaced = try await client.execute(uri: "/v1/search?region=Antwerp%2FHistorisch+Centrum&limit=0", method: .get)
            #expect(String(buffer: spaced.body).hasPrefix(#"{"total":396,"#))
            let plus = try await client.execute(uri: "/v1/search?region=Historisch%2BCentrum", method: .get)
            #expect(String(buffer: plus.body).contains("unknown region 'Historisch+Centrum'"))
        }
    }
}
