import Foundation
import PriceGraph
import StayData
import StaySearch

/// What `staysearch serve` answers, route by route, as status and JSON text: the same answers and error
/// messages as the command line, over one shared live index. Free of HTTP types, so that the routes are
/// thin and this can be tested as it is.
package final class SearchService: @unchecked Sendable {
    /// An answer: HTTP status, content type, body.
    package struct Answer: Sendable {
        package var status: Int
        package var contentType = "application/json"
        package var body: [UInt8]
        /// More response headers, e.g. where a map's pins are.
        package var headers: [(name: String, value: String)] = []

        package init(status: Int, contentType: String = "application/json", body: [UInt8]) {
            self.status = status
            self.contentType = contentType
            self.body = body
        }

        package static func ok(_ body: String) -> Answer { Answer(status: 200, body: Array(body.utf8)) }
        static func png(_ bytes: [UInt8]) -> Answer { Answer(status: 200, contentType: "image/png", body: bytes) }
        package static func error(_ status: Int, _ message: String) -> Answer {
            Answer(status: status, body: Array((ResultFormatting.jsonError(message) + "\n").utf8))
        }
        /// The body as text (JSON answers).
        package var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// The most nights a listing's quote covers.
    package static let longestQuote = 366

    package let live: LiveIndex
    /// The journal of `--index`, where accepted changes go before they are answered; nil for `--data` and
    /// for a replica, whose journal is its follower's.
    private let journal: ChangeJournal?
    /// The database that decides changes and whose log this index follows (`serve --follow`), if any.
    package let systemOfRecord: (any SystemOfRecord)?
    /// One group of changes at a time: applied, journalled, synced.
    private let changesLock = NSLock()
    /// The language pages and pictures are written in (`serve --locale`); nil: each request's `Accept-Language`.
    package let language: DisplayStyle.Language?
    /// The currency prices are shown in (`serve --currency`); nil: the language's.
    package let currency: String?

    package init(live: LiveIndex, journal: ChangeJournal?, systemOfRecord: (any SystemOfRecord)? = nil,
                 language: DisplayStyle.Language? = nil, currency: String? = nil) {
        self.live = live
        self.journal = journal
        self.systemOfRecord = systemOfRecord
        self.language = language
        self.currency = currency
    }

    /// The style of an answer: `locale` and `currency` keys of the request first, then the server's settings,
    /// then `Accept-Language`; the items without those keys.
    package func style(_ items: [(key: String, value: String)], acceptLanguage: String?) throws -> (DisplayStyle, [(key: String, value: String)]) {
        var locale: String?, currency: String?
        var rest: [(key: String, value: String)] = []
        for item in items {
            switch item.key {
            case "locale": locale = item.value
            case "currency": currency = item.value
            default: rest.append(item)
            }
        }
        let language = try locale.map { _ in try DisplayStyle(locale: locale, currency: nil).language }
            ?? self.language ?? acceptLanguage.flatMap(DisplayStyle.language(acceptedBy:)) ?? .english
        let style = try DisplayStyle(locale: language.rawValue, currency: currency ?? self.currency)
        return (style, rest)
    }

    /// `GET /`: the search page, its `<html>` element telling the script the language and currency.
    package func page(acceptLanguage: String?) -> Answer {
        let style = (try? self.style([], acceptLanguage: acceptLanguage).0) ?? .standard
        let html = SearchPage.html.replacingOccurrences(
            of: #"<html lang="en">"#, with: #"<html lang="\#(style.language.rawValue)" data-currency="\#(style.currency)">"#)
        var answer = Answer(status: 200, contentType: "text/html; charset=utf-8", body: Array(html.utf8))
        answer.headers = [("Content-Language", style.language.rawValue), ("Vary", "Accept-Language")]
        return answer
    }

    /// `GET /v1/search?…`: the search object of the query string's keys.
    package func search(_ items: [(key: String, value: String)]) -> Answer {
        do {
            let query = try QueryReader.query(items: items)
            let start = Standard.now()
            let result = try live.search(query)
            return .ok(ResultFormatting.json(result, tookMicroseconds: Int(((Standard.now() - start) * 1e6).rounded())) + "\n")
        } catch {
            return .error(400, Self.message(of: error))
        }
    }

    /// `GET /v1/histogram.png?…` and `GET /v1/map.png?…`: the charts of that search, `width`, `height` and
    /// `scale` as the command line takes them.
    package func chart(_ items: [(key: String, value: String)], map: Bool, acceptLanguage: String? = nil) -> Answer {
        let width: Int, height: Int, scale: Int, queryItems: [(key: String, value: String)]
        let style: DisplayStyle, rest: [(key: String, value: String)]
        do { (style, rest) = try self.style(items, acceptLanguage: acceptLanguage) } catch { return .error(400, Self.message(of: error)) }
        do {
            let read = try (map ? ChartSize.map : ChartSize.histogram).reading(rest)
            (width, height, scale, queryItems) = (read.size.width, read.size.height, read.size.scale, read.rest)
        } catch {
            return .error(400, error.message)
        }
        do {
            let query = try QueryReader.query(items: queryItems)
            let result = try live.search(query)
            let titles = ChartOutput.titles(query: query, result: result, regionPath: { self.live.regionPath(named: $0) }, style: style)
            if map {
                let drawn = try MapOutput.map(query: query, result: result, matches: try live.matchPositions(query),
                                              boundaries: live.neighbourhoodShapes(), title: titles.0, width: width, height: height, scale: scale,
                                              style: style)
                var answer = Answer.png(drawn.png)
                // Where each result's pin is, in logical pixels, so that a page can make them clickable.
                let pins = zip(result.matches, drawn.pins).map { match, pin in "\(match.id)@\(pin.x / scale),\(pin.y / scale)" }
                answer.headers = [("X-Map-Pins", pins.joined(separator: " "))]
                return answer
            }
            return .png(try ChartOutput.histogramPNG(query: query, result: result, titles: titles, width: width, height: height, scale: scale,
                                                     style: style))
        } catch let error as GraphError {
            return .error(500, "the chart could not be drawn: \(error.description)")
        } catch {
            return .error(400, Self.message(of: error))
        }
    }

    /// `GET /v1/index`: what a client needs before its first search: the days the calendars cover.
    package func indexInfo() -> Answer {
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
    package func calendar(id text: String, _ items: [(key: String, value: String)], png: Bool, acceptLanguage: String? = nil) -> Answer {
        guard let id = Int64(text) else { return .error(400, "'\(text)' is not a listing id") }
        let style: DisplayStyle, rest: [(key: String, value: String)]
        do { (style, rest) = try self.style(items, acceptLanguage: acceptLanguage) } catch { return .error(400, Self.message(of: error)) }
        var month: CalendarGrids.Month?, months = 1
        for (key, value) in rest {
            switch key {
            case "month":
                do { month = try CalendarGrids.Month.parse(value) } catch { return .error(400, error.message) }
            case "months":
                guard let number = Int(value), (1...12).contains(number) else { return .error(400, "months must be from 1 to 12 (got \(value))") }
                months = number
            default: return .error(400, "unknown key '\(key)'; keys are month, months, locale, currency")
            }
        }
        let answer = live.withListing(id: id) { index, row -> Answer in
            let first = month ?? CalendarGrids.Month(year: index.firstDay.components.year, month: index.firstDay.components.month)
            let grids = CalendarGrids.grids(index: index, row: row, from: first, count: months, firstWeekday: style.firstWeekday, style: style)
            guard png else { return .ok(CalendarGrids.json(id: id, grids) + "\n") }
            let chart = CalendarChart(months: grids, title: "\(ListingFormatting.title(index.listing(atRow: row))) (\(id))",
                                      fonts: FontLocator.sans(for: style.language))
            do throws(GraphError) { return .png(try chart.render().pngData()) } catch { return .error(500, "the calendar could not be drawn: \(error.description)") }
        }
        return answer ?? .error(404, "no listing has id \(id)")
    }

    /// `POST /v1/search/batch`: JSON lines of queries in, a JSON line each out (as `staysearch batch`).
    package func batch(_ body: String) -> Answer {
        var output = ""
        for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
            let text = line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
            if text.allSatisfy(\.isWhitespace) { continue }
            do {
                let (query, mapPath) = try QueryReader.batchLine(text)
                guard mapPath == nil else { throw InputError("map is not written by the server; ask GET /v1/map.png") }
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
    package func regions(_ items: [(key: String, value: String)]) -> Answer {
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
    package func listing(id text: String, _ items: [(key: String, value: String)]) -> Answer {
        guard let id = Int64(text) else { return .error(400, "'\(text)' is not a listing id") }
        let stay: SearchQuery
        do {
            stay = try QueryReader.query(items: items, allowed: QuerySchema.stay)
        } catch {
            return .error(400, Self.message(of: error))
        }
        // A quote lists every night: the server bounds it (a stay of years would be an answer of gigabytes).
        if let nights = stay.nights, nights > SearchService.longestQuote {
            return .error(400, "a quote covers at most \(SearchService.longestQuote) nights (got \(nights))")
        }
        let guests = stay.guests
        let body = live.withListing(id: id) { index, row in
            let quote = stay.checkIn.flatMap { checkIn in stay.checkOut.map { index.quote(row: row, checkIn: checkIn, checkOut: $0, guests: guests) } }
            return ListingFormatting.json(index: index, row: row, quote: quote)
        }
        guard let body else { return .error(404, "no listing has id \(id)") }
        return .ok(body + "\n")
    }

    /// `POST /v1/changes`: live changes as JSON lines, answered line by line once the accepted ones are in the
    /// journal and on disk (as `staysearch update`).
    package func changes(_ body: String) -> Answer {
        guard let journal else {
            return .error(400, "changes need a saved index (serve --index FILE): they are journalled beside it")
        }
        let lines = SearchService.lines(of: body)
        return changesLock.withLock {
            do {
                return .ok(try ChangeBatch.answer(lines, live: live, journal: journal))
            } catch {
                return .error(500, "the changes could not be written to the journal: \(Self.message(of: error)); none of them is acknowledged")
            }
        }
    }

    /// The lines of a body of changes, without their line ends; blank lines are left out.
    package static func lines(of body: String) -> [String] {
        body.split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
            .filter { !$0.allSatisfy(\.isWhitespace) }
    }

    /// Closes the journal (at shutdown, once no request is running).
    package func close() {
        changesLock.withLock { journal?.close() }
    }

    private static func message(of error: any Error) -> String {
        switch error {
        case let error as QueryError: return error.description
        case let error as InputError: return error.message
        case let error as DataError: return error.description
        default: return "\(error)"
        }
    }
}
