import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StayData
import StaySearch
import StaySearchTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `staysearch serve` as a client sees it: a real process on a free port, real HTTP requests, answers compared
/// with the command line's.
@Suite(.serialized) struct ServeCommandTests {
    @Test func routesAnswerAsTheCommandLineDoes() throws {
        let index = Scratch.path("serve.ssx")
        #expect(try CommandRunner.run(["import", "Antwerp=\(CommandRunner.packageRoot.path)/Data/antwerp", "--output", index]).status == 0)
        let server = try RunningServer(arguments: ["--index", index])
        defer { server.stop() }

        #expect(try server.get("/healthz").status == 200)
        // A search: the same JSON as `staysearch search --format json` (took_us aside).
        let query = "region=zuid&checkin=2024-07-12&checkout=2024-07-15&adults=2&limit=3&facets=room_type&facets=amenities&amenities=wifi&bbox=51.19,4.38,51.23,4.43"
        let searched = try server.get("/v1/search?" + query)
        #expect(searched.status == 200)
        let cli = try CommandRunner.run(["search", "--index", index, "--region", "zuid", "--checkin", "2024-07-12", "--checkout", "2024-07-15",
                                         "--adults", "2", "--limit", "3", "--facets", "room_type,amenities", "--amenity", "wifi",
                                         "--bbox", "51.19,4.38,51.23,4.43", "--format", "json"])
        #expect(cli.status == 0, "\(cli.stderr)")
        #expect(searched.body.replacing(/,"took_us":\d+/, with: "") == cli.stdout)
        #expect(searched.body.contains(#""total":"#) && !searched.body.hasPrefix(#"{"total":0,"#))
        // Bad input: 400 with the command line's message.
        let bad = try server.get("/v1/search?region=zuidd")
        #expect(bad.status == 400 && bad.body == ExpectedError.json("unknown region 'zuidd'; did you mean 'Zuid'?", code: "unknown_region") + "\n")
        #expect(try server.get("/v1/search?checkin=2024-07-15&checkout=2024-07-12").status == 400)
        #expect(try server.get("/v1/search?colour=red").body.contains("unknown key 'colour'"))
        // Region suggestions, as a search box asks for them.
        let regions = try server.get("/v1/regions?prefix=zu&limit=2")
        #expect(regions.body == #"[{"path":["Antwerp","Zuid"],"listings":131},{"path":["Antwerp","Zurenborg"],"listings":41}]"# + "\n")
        // A listing with its quote: `staysearch listing --format json`.
        let listing = try server.get("/v1/listings/50904?checkin=2024-07-12&checkout=2024-07-14&adults=2")
        let cliListing = try CommandRunner.run(["listing", "50904", "--index", index, "--checkin", "2024-07-12", "--checkout", "2024-07-14",
                                                "--adults", "2", "--format", "json"])
        #expect(listing.status == 200 && listing.body == cliListing.stdout)
        #expect(try server.get("/v1/listings/1").status == 404)
        #expect(try server.get("/v1/listings/abc").status == 400)
        // Batch: JSON lines in and out, a bad line answered in its place.
        let batch = try server.post("/v1/search/batch", body: #"{"region": "zuid", "limit": 1}"# + "\nnot json\n")
        let lines = batch.body.split(separator: "\n")
        #expect(batch.status == 200 && lines.count == 2 && lines[0].hasPrefix(#"{"total":131,"#) && lines[1].hasPrefix(#"{"error":"not a JSON object"#))
        // Live changes need the write key: none is 401, another 403, and nothing is applied.
        let unkeyed = #"{"op": "book", "id": "50904", "checkin": "2024-07-20", "checkout": "2024-07-22"}"#
        #expect(try server.post("/v1/changes", body: unkeyed, key: nil).status == 401)
        #expect(try server.post("/v1/changes", body: unkeyed, key: "another-key-0123456789").status == 403)
        // Live changes: answered line by line, seen by the next search, in the journal.
        let changes = try server.post("/v1/changes", body: """
            {"op": "book", "id": "50904", "checkin": "2024-07-12", "checkout": "2024-07-14"}
            {"op": "book", "id": "50904", "checkin": "2024-07-13", "checkout": "2024-07-15"}
            {"op": "listing", "id": "77", "name": "New loft", "city": "Antwerp", "neighbourhood": "Zuid", "room_type": "Entire home/apt", "accommodates": 2}
            {"op": "price", "id": "77", "from": "2024-07-01", "to": "2024-08-01", "price": 42}
            {"op": "availability", "id": "77", "from": "2024-07-01", "to": "2024-08-01", "available": true}
            """)
        #expect(changes.body.split(separator: "\n").map { $0.hasPrefix(#"{"ok":true"#) } == [true, false, true, true, true], "\(changes.body)")
        let cheapest = try server.get("/v1/search?region=zuid&checkin=2024-07-12&checkout=2024-07-15&limit=1&sort=price")
        #expect(cheapest.body.contains(#""id":"77","name":"New loft""#) && cheapest.body.contains(#""total_price":126.00"#), "\(cheapest.body)")
        #expect(try server.get("/v1/regions?prefix=zuid&limit=1").body.contains(#""listings":132"#))
        // Limits: a body over 10 MiB, an unknown route.
        #expect(try server.post("/v1/changes", body: String(repeating: " ", count: 10 << 20 + 1)).status == 413)
        #expect(try server.get("/v2/nothing").status == 404)
        // Charts and calendars: PNGs of the asked size; the calendar's JSON as `calendar --format json` gives it.
        let histogram = try server.get("/v1/histogram.png?region=zuid&checkin=2024-07-12&checkout=2024-07-15&width=640&height=300")
        #expect(histogram.status == 200 && histogram.contentType == "image/png" && histogram.pngSize?.width == 640 && histogram.pngSize?.height == 300)
        let map = try server.get("/v1/map.png?region=zuid&limit=5&scale=2")
        #expect(map.status == 200 && map.pngSize?.width == 1_600 && map.pngSize?.height == 1_200)
        #expect(try server.get("/v1/map.png?region=zuid&width=5").status == 400)
        // Bounded answers: a picture of more than 16 megapixels, a quote of years.
        #expect(try server.get("/v1/map.png?width=4000&height=3000&scale=4").body.contains("at most 16 million"))
        #expect(try server.get("/v1/listings/50904?checkin=2024-07-01&checkout=2026-07-01").body
                == ExpectedError.json("a quote covers at most 366 nights (got 730)", code: "quote_too_long") + "\n")
        let calendar = try server.get("/v1/listings/50904/calendar?month=2024-07&months=2")
        let cliCalendar = try CommandRunner.run(["calendar", "50904", "--index", index, "--month", "2024-07", "--months", "2", "--format", "json"])
        #expect(calendar.status == 200 && calendar.body == cliCalendar.stdout, "\(calendar.body.prefix(300))")
        #expect(try server.get("/v1/listings/50904/calendar.png?month=2024-07").pngSize != nil)
        #expect(try server.get("/v1/listings/50904/calendar?month=2024-13").status == 400)
        // Metrics: request counts and latency histograms by route, in Prometheus' text format.
        let metrics = try server.get("/metrics").body
        #expect(metrics.contains(#"hb_requests{http_route="/v1/search",http_request_method="GET",http_response_status_code="400"} 3"#),
                "\(metrics.prefix(2_000))")
        #expect(metrics.contains(#"http_server_request_duration_bucket{http_route="/v1/listings/{id}",http_request_method="GET",http_response_status_code="200",le="#),
                "\(metrics.prefix(2_000))")
        // SIGTERM: a clean stop; the journal holds the four accepted changes.
        #expect(server.stop() == 0)
        let journal = try ChangeJournal.read(path: index + ".journal", identity: try IndexFileReader.identity(ofIndexAt: index))
        #expect(journal.changes.count == 4 && journal.warnings.isEmpty)
    }

    /// A write-key file that cannot be read or holds no good key stops `serve` before it listens.
    @Test func aBadWriteKeyFileIsOneLine() throws {
        let short = Scratch.path("short-keys.txt")
        try "# keys\nshort\n".write(toFile: short, atomically: true, encoding: .utf8)
        for (file, message) in [("/nonexistent/keys.txt", "/nonexistent/keys.txt: cannot read the write keys"),
                                (short, "short-keys.txt:2: a write key must be at least 16 characters without spaces")] {
            let output = try CommandRunner.run(["serve", "--port", "0", "--write-key-file", file])
            #expect(output.status == 64 && output.stdout.isEmpty, "\(output.stderr)")
            #expect(output.stderr.hasPrefix("staysearch: error: ") && output.stderr.contains(message), "\(output.stderr)")
            #expect(output.stderr.split(separator: "\n").count == 1)
        }
    }

    /// Bookings of the same nights from many connections at once: exactly one wins, and searches running
    /// meanwhile all succeed.
    @Test func racingBookingsOverHTTPHaveOneWinner() throws {
        let index = Scratch.path("race.ssx")
        #expect(try CommandRunner.run(["import", "Antwerp=\(CommandRunner.packageRoot.path)/Data/antwerp", "--output", index]).status == 0)
        let server = try RunningServer(arguments: ["--index", index])
        defer { server.stop() }
        let free = try server.get("/v1/search?checkin=2024-07-20&checkout=2024-07-23&limit=1")
        let id = try #require(free.body.firstMatch(of: /"id":"(\d+)"/)?.1)
        let booking = #"{"op": "book", "id": "\#(id)", "checkin": "2024-07-20", "checkout": "2024-07-23"}"#
        let answers = Answers()
        DispatchQueue.concurrentPerform(iterations: 24) { k in
            if k % 3 == 0 {
                answers.add(try? server.get("/v1/search?region=antwerp&checkin=2024-07-20&checkout=2024-07-22&limit=5"))
            } else {
                answers.add(try? server.post("/v1/changes", body: booking + "\n"))
            }
        }
        let all = answers.all
        // Each booking is a body of one line, answered with its own status: one 200, the rest 409.
        #expect(all.count == 24 && all.filter { $0.status == 200 }.count == 9 && all.filter { $0.status == 409 }.count == 15)
        #expect(all.filter { $0.body.hasPrefix(#"{"ok":true"#) }.count == 1)
        #expect(all.filter { $0.body.contains("cannot be booked for that stay") }.count == 15)
    }
}

/// Answers gathered from several threads.
private final class Answers: @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [RunningServer.Reply] = []
    func add(_ reply: RunningServer.Reply?) { lock.withLock { if let reply { answers.append(reply) } } }
    var all: [RunningServer.Reply] { lock.withLock { answers } }
}

/// A `staysearch serve` process on a free port of 127.0.0.1.
final class RunningServer: @unchecked Sendable {
    struct Reply: Sendable {
        var status: Int
        var data: Data
        var contentType: String
        var headers: [String: String] = [:]
        var body: String { String(decoding: data, as: UTF8.self) }

        /// The width and height of a PNG body (from its IHDR chunk), nil when it is not a PNG.
        var pngSize: (width: Int, height: Int)? {
            let bytes = [UInt8](data)
            guard bytes.count > 24, bytes.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { return nil }
            func number(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
            return (number(16), number(20))
        }
    }

    private let process = Process()
    let port: Int
    /// The key of the server's write-key file, sent with every POST.
    static let writeKey = "serve-tests-write-key-0123456789"

    /// Starts the server (with a write-key file of ``writeKey``) and waits for the line that names its port.
    init(arguments: [String]) throws {
        let keyFile = Scratch.path("keys.txt")
        try "\(Self.writeKey)\n".write(toFile: keyFile, atomically: true, encoding: .utf8)
        process.executableURL = CommandRunner.binary
        process.arguments = ["serve", "--port", "0", "--write-key-file", keyFile] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let match = text.firstMatch(of: /127\.0\.0\.1:(\d+)/), let port = Int(match.1) else {
            process.terminate()
            throw CommandFailure(message: "the server did not say its port: \(text)")
        }
        self.port = port
    }

    /// Stops it with SIGTERM and returns its exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    func get(_ path: String) throws -> Reply { try send(path, method: "GET", body: nil) }
    func post(_ path: String, body: String, key: String? = RunningServer.writeKey) throws -> Reply {
        try send(path, method: "POST", body: Data(body.utf8), key: key)
    }

    private func send(_ path: String, method: String, body: Data?, key: String? = nil) throws -> Reply {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        if let key { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
        request.httpBody = body
        request.timeoutInterval = 30
        let done = DispatchSemaphore(value: 0)
        let result = ReplyBox()
        URLSession.shared.dataTask(with: request) { data, response, error in
            if let response = response as? HTTPURLResponse {
                var headers: [String: String] = [:]
                for (name, value) in response.allHeaderFields {
                    if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
                }
                result.reply = Reply(status: response.statusCode, data: data ?? Data(),
                                     contentType: response.value(forHTTPHeaderField: "Content-Type") ?? "", headers: headers)
            } else {
                result.error = "\(error.map { "\($0)" } ?? "no response")"
            }
            done.signal()
        }.resume()
        done.wait()
        guard let reply = result.reply else { throw CommandFailure(message: "\(method) \(path): \(result.error ?? "")") }
        return reply
    }
}

/// What a request's completion handler hands back.
private final class ReplyBox: @unchecked Sendable {
    var reply: RunningServer.Reply?
    var error: String?
}

/// A failure of a test helper, with what happened.
struct CommandFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
