import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StayData
import StaySearch
@testable import StaySearchAPI
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
    static func service() throws -> SearchService {
        let index = try sample.get()
        let path = Scratch.path("routes.ssx")
        _ = try IndexFileWriter.save(index, to: path)
        let opened = try LiveIndexFile.open(from: path)
        return SearchService(live: opened.live, journal: opened.journal)
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
            #expect(bad.status == .badRequest && String(buffer: bad.body) == #"{"error":"unknown region 'zuidd'; did you mean 'Zuid'?"}"# + "\n")
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
            #expect(noAdults.status == .badRequest && String(buffer: noAdults.body) == #"{"error":"adults must be at least 1 (got 0)"}"# + "\n")
            let region = try await client.execute(uri: "/v1/listings/50904?region=zuid", method: .get)
            #expect(region.status == .badRequest && String(buffer: region.body).contains("unknown key 'region'; keys are checkin, checkout, adults, children, infants"))
            #expect(try await client.execute(uri: "/v1/listings/1", method: .get).status == .notFound)
        }
    }

    /// Every error, the router's own included, is `{"error": "…"}` with its status.
    @Test func everyErrorHasOneShape() async throws {
        try await Self.withClient { client in
            let unknown = try await client.execute(uri: "/v2/nothing", method: .get)
            #expect(unknown.status == .notFound && String(buffer: unknown.body) == #"{"error":"no such route: GET /v2/nothing"}"# + "\n")
            #expect(unknown.headers[.contentType] == "application/json")
            let deleted = try await client.execute(uri: "/v1/changes", method: .delete)
            #expect(deleted.status == .methodNotAllowed && deleted.headers[.allow] == "POST")
            #expect(String(buffer: deleted.body) == #"{"error":"DELETE is not allowed on /v1/changes; use POST"}"# + "\n")
            let posted = try await client.execute(uri: "/v1/listings/50904/calendar", method: .post)
            #expect(posted.status == .methodNotAllowed && posted.headers[.allow] == "GET")
            let large = try await client.execute(uri: "/v1/changes", method: .post, headers: Self.writing,
                                                 body: ByteBuffer(repeating: UInt8(ascii: " "), count: SearchServer.largestBody + 1))
            #expect(large.status == .contentTooLarge && String(buffer: large.body) == #"{"error":"the body is over 10 MiB"}"# + "\n")
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
            #expect(String(buffer: none.body) == #"{"error":"a write needs the header Authorization: Bearer KEY"}"# + "\n")
            let wrong = try await client.execute(uri: "/v1/changes", method: .post,
                                                 headers: [.authorization: "Bearer \(Self.writeKey)x"], body: booking)
            #expect(wrong.status == .forbidden && String(buffer: wrong.body) == #"{"error":"the write key is not accepted"}"# + "\n")
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
            #expect(narrow.status == .badRequest && String(buffer: narrow.body) == #"{"error":"width must be from 200 to 4000 (got 5)"}"# + "\n")
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
            let served = Set(SearchServer.routes.filter { !["/page.css", "/page.js", "/favicon.svg"].contains($0.path) }
                .map { "\($0.method.rawValue.lowercased()) \($0.path.replacingOccurrences(of: ":id", with: "{id}"))" })
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
        }
    }

    /// The page's parts under a strict content security policy, and query strings as browsers encode them.
    @Test func thePageAndItsParts() async throws {
        try await Self.withClient { client in
            // The days the calendars cover (the sample's: a year from its scrape), asked before the first search.
            let span = try await client.execute(uri: "/v1/index", method: .get)
            #expect(String(buffer: span.body) == #"{"calendar":{"first":"2024-06-29","last":"2025-06-28","days":365}}"# + "\n")
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
