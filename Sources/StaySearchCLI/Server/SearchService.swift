import Foundation
import PriceGraph
import StayData
import StaySearch

/// What `staysearch serve` answers, route by route, as status and JSON text: the same answers and error
/// messages as the command line, over one shared live index. Free of HTTP types, so that the routes are
/// thin and this can be tested as it is.
final class SearchService: @unchecked Sendable {
    /// An answer: HTTP status, content type, body.
    struct Answer: Sendable {
        var status: Int
        var contentType = "application/json"
        var body: [UInt8]
        /// More response headers, e.g. where a map's pins are.
        var headers: [(name: String, value: String)] = []

        static func ok(_ body: String) -> Answer { Answer(status: 200, body: Array(body.utf8)) }
        static func png(_ bytes: [UInt8]) -> Answer { Answer(status: 200, contentType: "image/png", body: bytes) }
        static func error(_ status: Int, _ message: String) -> Answer {
            Answer(status: status, body: Array((ResultFormatting.jsonError(message) + "\n").utf8))
        }
        /// The body as text (JSON answers).
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// The most nights a listing's quote covers.
    static let longestQuote = 366
    /// The most pixels a chart has (after `scale`).
    static let largestPicture = 16_000_000

    let live: LiveIndex
    /// The journal of `--index`, where accepted changes go before they are answered; nil for `--data`.
    private let journal: ChangeJournal?
    /// One group of changes at a time: applied, journalled, synced.
    private let changesLock = NSLock()

    init(live: LiveIndex, journal: ChangeJournal?) {
        self.live = live
        self.journal = journal
    }

    /// `GET /v1/search?…`: the search object of the query string's keys.
    func search(_ items: [(key: String, value: String)]) -> Answer {
        do {
            let query = try BatchQuery.parse(queryItems: items)
            let start = Standard.now()
            let result = try live.search(query)
            return .ok(ResultFormatting.json(result, tookMicroseconds: Int(((Standard.now() - start) * 1e6).rounded())) + "\n")
        } catch {
            return .error(400, Self.message(of: error))
        }
    }

    /// `GET /v1/histogram.png?…` and `GET /v1/map.png?…`: the charts of that search, `width`, `height` and
    /// `scale` as the command line takes them.
    func chart(_ items: [(key: String, value: String)], map: Bool) -> Answer {
        var width = map ? 800 : 800, height = map ? 600 : 360, scale = 1
        var queryItems: [(key: String, value: String)] = []
        for (key, value) in items {
            switch key {
            case "width":
                guard let number = Int(value), (200...4_000).contains(number) else { return .error(400, "width must be from 200 to 4000 (got \(value))") }
                width = number
            case "height":
                guard let number = Int(value), (150...3_000).contains(number) else { return .error(400, "height must be from 150 to 3000 (got \(value))") }
                height = number
            case "scale":
                guard let number = Int(value), (1...4).contains(number) else { return .error(400, "scale must be from 1 to 4 (got \(value))") }
                scale = number
            default: queryItems.append((key, value))
            }
        }
        // The picture is width × height × scale² pixels of 4 bytes: bounded, so that one request cannot take
        // gigabytes.
        guard width * height * scale * scale <= SearchService.largestPicture else {
            return .error(400, "the picture would be \(width * scale)×\(height * scale) pixels; at most \(SearchService.largestPicture / 1_000_000) million")
        }
        do {
            let query = try BatchQuery.parse(queryItems: queryItems)
            let result = try live.search(query)
            let titles = ChartOutput.titles(query: query, result: result, regionPath: { self.live.regionPath(named: $0) })
            if map {
                let drawn = try MapOutput.map(query: query, result: result, matches: try live.matchPositions(query),
                                              boundaries: live.neighbourhoodShapes(), title: titles.0, width: width, height: height, scale: scale)
                var answer = Answer.png(drawn.png)
                // Where each result's pin is, in logical pixels, so that a page can make them clickable.
                let pins = zip(result.matches, drawn.pins).map { match, pin in "\(match.id)@\(pin.x / scale),\(pin.y / scale)" }
                answer.headers = [("X-Map-Pins", pins.joined(separator: " "))]
                return answer
            }
            return .png(try ChartOutput.histogramPNG(query: query, result: result, titles: titles, width: width, height: height, scale: scale))
        } catch let error as GraphError {
            return .error(500, "the chart could not be drawn: \(error.description)")
        } catch {
            return .error(400, Self.message(of: error))
        }
    }

    /// `GET /v1/index`: what a client needs before its first search: the days the calendars cover.
    func indexInfo() -> Answer {
        let span = live.calendarSpan
        var json = JSONWriter()
        json.beginObject()
        json.key("calendar")
        json.beginObject()
        json.field("first", string: span.first.description)
        json.field("last", string: span.first.advanced(by: max(0, span.dayCount - 1)).description)
        json.field("days", number: span.dayCount)
        json.endObject()
        json.endObject()
        return .ok(json.text + "\n")
    }

    /// `GET /v1/listings/{id}/calendar?month=YYYY-MM&months=N` (JSON, as `calendar --format json`), or its picture.
    func calendar(id text: String, _ items: [(key: String, value: String)], png: Bool) -> Answer {
        guard let id = Int64(text) else { return .error(400, "'\(text)' is not a listing id") }
        var month: CalendarCommand.Month?, months = 1
        for (key, value) in items {
            switch key {
            case "month":
                do { month = try CalendarCommand.Month.parse(value) } catch { return .error(400, "month '\(value)' is not a month; use YYYY-MM, e.g. 2024-07") }
            case "months":
                guard let number = Int(value), (1...12).contains(number) else { return .error(400, "months must be from 1 to 12 (got \(value))") }
                months = number
            default: return .error(400, "unknown key '\(key)'; keys are month, months")
            }
        }
        let answer = live.withListing(id: id) { index, row -> Answer in
            let first = month ?? CalendarCommand.Month(year: index.firstDay.components.year, month: index.firstDay.components.month)
            let grids = CalendarCommand.grids(index: index, row: row, from: first, count: months, firstWeekday: 0)
            guard png else { return .ok(CalendarCommand.json(id: id, grids) + "\n") }
            let chart = CalendarChart(months: grids, title: "\(ListingFormatting.title(index.listing(atRow: row))) (\(id))",
                                      fonts: FontLocator.sans())
            do throws(GraphError) { return .png(try chart.render().pngData()) } catch { return .error(500, "the calendar could not be drawn: \(error.description)") }
        }
        return answer ?? .error(404, "no listing has id \(id)")
    }

    /// `POST /v1/search/batch`: JSON lines of queries in, a JSON line each out (as `staysearch batch`).
    func batch(_ body: String) -> Answer {
        var output = ""
        for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
            let text = line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
            if text.allSatisfy(\.isWhitespace) { continue }
            do {
                let (query, mapPath) = try BatchQuery.parse(text)
                guard mapPath == nil else { throw BatchLineError("map is not written by the server; ask GET /v1/map.png") }
                let start = Standard.now()
                let result = try live.search(query)
                output += ResultFormatting.json(result, tookMicroseconds: Int(((Standard.now() - start) * 1e6).rounded())) + "\n"
            } catch {
                output += ResultFormatting.jsonError(Self.message(of: error)) + "\n"
            }
        }
        return .ok(output)
    }

    /// `GET /v1/regions?prefix=P&limit=N`: region suggestions with their listings now.
    func regions(_ items: [(key: String, value: String)]) -> Answer {
        var prefix = "", limit = 10
        for (key, value) in items {
            switch key {
            case "prefix": prefix = value
            case "limit":
                guard let number = Int(value), (1...100).contains(number) else { return .error(400, "limit must be a whole number from 1 to 100") }
                limit = number
            default: return .error(400, "unknown key '\(key)'; keys are prefix, limit")
            }
        }
        var json = JSONWriter()
        json.beginArray()
        for suggestion in live.regionSuggestions(prefix: prefix, limit: limit) {
            json.beginObject()
            json.key("path")
            json.beginArray()
            for name in suggestion.path { json.string(name) }
            json.endArray()
            json.field("listings", number: suggestion.listings)
            json.endObject()
        }
        json.endArray()
        return .ok(json.text + "\n")
    }

    /// `GET /v1/listings/{id}?checkin=&checkout=&adults=…`: the listing with its quote (as `listing --format json`).
    func listing(id text: String, _ items: [(key: String, value: String)]) -> Answer {
        guard let id = Int64(text) else { return .error(400, "'\(text)' is not a listing id") }
        var checkIn: Day?, checkOut: Day?, guests = 0, adults: Int?
        do {
            for (key, value) in items {
                switch key {
                case "checkin": checkIn = try QueryParsing.day(value, field: "checkin")
                case "checkout": checkOut = try QueryParsing.day(value, field: "checkout")
                case "adults", "children":
                    guard let number = Int(value), (0...10_000).contains(number) else { return .error(400, "\(key) must be a whole number from 0 to 10000") }
                    guests += number
                    if key == "adults" { adults = number }
                case "infants":
                    guard let number = Int(value), (0...5).contains(number) else { return .error(400, "infants must be a whole number from 0 to 5") }
                default: return .error(400, "unknown key '\(key)'; keys are checkin, checkout, adults, children, infants")
                }
            }
        } catch {
            return .error(400, Self.message(of: error))
        }
        if adults == nil { guests += 1 }
        if (checkIn == nil) != (checkOut == nil) { return .error(400, "give both checkin and checkout, or neither") }
        if let checkIn, let checkOut, checkOut <= checkIn {
            return .error(400, "checkout \(checkOut) must be after checkin \(checkIn) (at least one night)")
        }
        // A quote lists every night: the server bounds it (a stay of years would be an answer of gigabytes).
        if let checkIn, let checkOut, checkIn.distance(to: checkOut) > SearchService.longestQuote {
            return .error(400, "a quote covers at most \(SearchService.longestQuote) nights (got \(checkIn.distance(to: checkOut)))")
        }
        let stay = checkIn.flatMap { checkIn in checkOut.map { (checkIn, $0) } }
        let body = live.withListing(id: id) { index, row in
            let quote = stay.map { index.quote(row: row, checkIn: $0.0, checkOut: $0.1, guests: guests) }
            return ListingFormatting.json(index: index, row: row, quote: quote)
        }
        guard let body else { return .error(404, "no listing has id \(id)") }
        return .ok(body + "\n")
    }

    /// `POST /v1/changes`: live changes as JSON lines, answered line by line once the accepted ones are in the
    /// journal and on disk (as `staysearch update`).
    func changes(_ body: String) -> Answer {
        guard let journal else {
            return .error(400, "changes need a saved index (serve --index FILE): they are journalled beside it")
        }
        let lines = body.split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
        return changesLock.withLock {
            do {
                return .ok(try UpdateCommand.answer(lines, live: live, journal: journal))
            } catch {
                return .error(500, "the changes could not be written to the journal: \(Self.message(of: error)); none of them is acknowledged")
            }
        }
    }

    /// Closes the journal (at shutdown, once no request is running).
    func close() {
        changesLock.withLock { journal?.close() }
    }

    private static func message(of error: any Error) -> String {
        switch error {
        case let error as QueryError: return error.description
        case let error as BatchLineError: return error.message
        case let error as DataError: return error.description
        case let error as CommandFailure: return error.message
        default: return "\(error)"
        }
    }
}
