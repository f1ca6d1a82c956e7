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
        /// The answer of `error`, with its code's status.
        package static func error(_ error: APIError) -> Answer {
            Answer(status: error.status, body: Array((error.json + "\n").utf8))
        }
        /// The answer of a request that failed with `error` (see ``APIError/init(_:revealing:)``).
        package static func failure(_ error: any Error) -> Answer { .error(APIError(error)) }
        /// The answer of an internal failure: `details` go to the log, the client learns only that it happened.
        static func internalFailure(_ details: String) -> Answer {
            Standard.error("staysearch: error: \(details)")
            return .error(.internalError)
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
    /// The platform's service fee and cities' taxes: a replica's system of record's at its applied position
    /// (`db settings`), else `serve --service-fee` and `--tax`.
    package var platform: PlatformFees { systemOfRecord?.platform ?? startPlatform }
    private let startPlatform: PlatformFees

    /// Today and the days the data covers: searches before today, or wholly outside those days, and changes
    /// to nights before today are refused. A replica's today is its system of record's, as the change log
    /// announces it (and its days, as far as the log's window has rolled); until it has, and elsewhere, the
    /// one fixed when the service starts, with a window as long as the saved index's calendars.
    package var clock: StayClock {
        let span = live.calendarSpan
        guard let today = systemOfRecord?.today else {
            return StayClock(today: startToday, first: span.first, dayCount: span.dayCount, window: window)
        }
        return StayClock(today: today, first: span.first, dayCount: span.dayCount)
    }
    private let startToday: Day?
    private let window: Int

    /// - Parameter today: today's date (`serve --today`); nil: the data's own date, the first day of its calendars.
    package init(live: LiveIndex, journal: ChangeJournal?, systemOfRecord: (any SystemOfRecord)? = nil,
                 language: DisplayStyle.Language? = nil, currency: String? = nil, today: Day? = nil,
                 platform: PlatformFees = PlatformFees()) {
        startToday = today
        startPlatform = platform
        window = live.calendarSpan.first.distance(to: live.frozenCalendarEnd)
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

    /// `query` prepared by the clock, with the platform's service fee.
    private func prepared(_ query: SearchQuery) throws(QueryError) -> SearchQuery {
        var query = try clock.prepared(query)
        query.serviceFeeBasisPoints = platform.serviceFeeBasisPoints
        return query
    }

    /// `GET /v1/search?…`: the search object of the query string's keys.
    package func search(_ items: [(key: String, value: String)]) -> Answer {
        do {
            let query = try prepared(QueryReader.query(items: items))
            let start = Standard.now()
            let result = try live.search(query)
            return .ok(ResultFormatting.json(result, tookMicroseconds: Int(((Standard.now() - start) * 1e6).rounded())) + "\n")
        } catch {
            return .failure(error)
        }
    }

    /// `GET /v1/histogram.png?…` and `GET /v1/map.png?…`: the charts of that search, `width`, `height` and
    /// `scale` as the command line takes them.
    package func chart(_ items: [(key: String, value: String)], map: Bool, acceptLanguage: String? = nil) -> Answer {
        let width: Int, height: Int, scale: Int, queryItems: [(key: String, value: String)]
        let style: DisplayStyle, rest: [(key: String, value: String)]
        do { (style, rest) = try self.style(items, acceptLanguage: acceptLanguage) } catch { return .failure(error) }
        do {
            let read = try (map ? ChartSize.map : ChartSize.histogram).reading(rest)
            (width, height, scale, queryItems) = (read.size.width, read.size.height, read.size.scale, read.rest)
        } catch {
            return .failure(error)
        }
        do {
            let query = try prepared(QueryReader.query(items: queryItems))
            let result = try live.search(query)
            let titles = ChartOutput.titles(query: query, result: result, regionPath: { self.live.regionPath(named: $0) },
                                            includesFees: live.pricesIncludeFees(query), style: style)
            if map {
                let drawn = try MapOutput.map(query: query, result: result, matches: try live.matchPositions(query),
                                              boundaries: live.neighbourhoodShapes(), title: titles.0, width: width, height: height, scale: scale,
                                              style: style)
                var answer = Answer.png(drawn.png)
                // Where each result's pin is, in logical pixels, so that a page can make them clickable.
                let pins = zip(result.matches, drawn.pins).map { match, pin in "\(match.id)@\(pin.x / scale),\(pin.y / scale)" }
                // And the degrees of its edges, so that a page can draw over it (the neighbourhoods' outlines).
                let view = [drawn.view.south, drawn.view.west, drawn.view.north, drawn.view.east].map(Self.degrees)
                answer.headers = [("X-Map-Pins", pins.joined(separator: " ")), ("X-Map-View", view.joined(separator: ","))]
                return answer
            }
            return .png(try ChartOutput.histogramPNG(query: query, result: result, titles: titles, width: width, height: height, scale: scale,
                                                     style: style))
        } catch let error as GraphError {
            return .internalFailure("the chart could not be drawn: \(error.description)")
        } catch {
            return .failure(error)
        }
    }

    /// `GET /v1/index`: what a client needs before its first search: the days the calendars cover, and today.
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
        json.field("today", string: clock.today.description)
        json.key("fees")
        json.beginObject()
        json.field("service_fee_percent", number: PlatformFees.percentText(platform.serviceFeeBasisPoints))
        json.key("taxes")
        json.beginObject()
        for tax in platform.taxes { json.field(tax.city, number: PlatformFees.percentText(tax.basisPoints)) }
        json.endObject()
        json.endObject()
        json.endObject()
        return .ok(json.text + "\n")
    }

    /// `GET /v1/listings/{id}/calendar?month=YYYY-MM&months=N` (JSON, as `calendar --format json`), or its picture.
    package func calendar(id text: String, _ items: [(key: String, value: String)], png: Bool, acceptLanguage: String? = nil) -> Answer {
        guard let id = Int64(text) else { return .error(Self.notAnID(text)) }
        let style: DisplayStyle, month: CalendarGrids.Month?, months: Int
        do {
            let rest: [(key: String, value: String)]
            (style, rest) = try self.style(items, acceptLanguage: acceptLanguage)
            let values = try RouteParameter.read(rest, allowed: QuerySchema.calendar + (png ? QuerySchema.display : []))
            month = try values[QuerySchema.month.key].map(CalendarGrids.Month.parse)
            months = values[QuerySchema.months.key].flatMap { Int($0) } ?? 1
        } catch {
            return .failure(error)
        }
        let clock = self.clock
        let answer = live.withListing(id: id) { index, row -> Answer in
            let first = month ?? CalendarGrids.Month(year: clock.today.components.year, month: clock.today.components.month)
            let grids = CalendarGrids.grids(index: index, row: row, from: first, count: months, firstWeekday: style.firstWeekday, style: style,
                                            clock: clock)
            guard png else { return .ok(CalendarGrids.json(id: id, grids) + "\n") }
            let chart = CalendarChart(months: grids, title: "\(ListingFormatting.title(index.listing(atRow: row))) (\(id))",
                                      fonts: FontLocator.sans(for: style.language))
            do throws(GraphError) { return .png(try chart.render().pngData()) } catch {
                return .internalFailure("the calendar could not be drawn: \(error.description)")
            }
        }
        return answer ?? .error(Self.notFound(id))
    }

    /// `GET /v1/price-calendar?…` and `/v1/price-calendar.png?…`: for each check-in day of a month (or of
    /// `checkin_from` … `checkin_to`), the stays of `nights` nights the search finds and their lowest and
    /// median total (docs/query-semantics.md, "Price calendar").
    package func priceCalendar(_ items: [(key: String, value: String)], png: Bool, acceptLanguage: String? = nil) -> Answer {
        do {
            var style = DisplayStyle.standard, rest = items
            if png { (style, rest) = try self.style(items, acceptLanguage: acceptLanguage) }
            let clock = self.clock
            var query = try PriceCalendarRequest.query(rest, today: clock.today, extraKeys: png ? QuerySchema.display.map(\.key) : [])
            query.serviceFeeBasisPoints = platform.serviceFeeBasisPoints
            let start = Standard.now()
            let calendar = try live.priceCalendar(query)
            guard png else {
                let took = Int(((Standard.now() - start) * 1e6).rounded())
                return .ok(PriceCalendarFormatting.json(calendar, tookMicroseconds: took) + "\n")
            }
            let months = PriceCalendarMonth.months(of: calendar, firstWeekday: style.firstWeekday, style: style)
            let chart = PriceCalendarChart(months: months, title: PriceCalendarFormatting.title(calendar, query: query, style: style),
                                           nights: calendar.nights, fonts: FontLocator.sans(for: style.language))
            do throws(GraphError) { return .png(try chart.render().pngData()) } catch {
                return .internalFailure("the price calendar could not be drawn: \(error.description)")
            }
        } catch {
            return .failure(error)
        }
    }

    /// `POST /v1/search/batch`: JSON lines of queries in, a JSON line each out (as `staysearch batch`).
    package func batch(_ body: String) -> Answer {
        var output = ""
        for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
            let text = line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
            if text.allSatisfy(\.isWhitespace) { continue }
            do {
                let (read, mapPath) = try QueryReader.batchLine(text)
                guard mapPath == nil else { throw InputError("map is not written by the server; ask GET /v1/map.png") }
                let query = try prepared(read)
                let start = Standard.now()
                let result = try live.search(query)
                output += ResultFormatting.json(result, tookMicroseconds: Int(((Standard.now() - start) * 1e6).rounded())) + "\n"
            } catch {
                output += APIError(error).json + "\n"
            }
        }
        return .ok(output)
    }

    /// `GET /v1/neighbourhoods.geojson`: the neighbourhoods' outlines the index keeps (from the cities'
    /// `neighbourhoods.geojson`), a GeoJSON FeatureCollection of MultiLineStrings (a shape's rings, outer
    /// boundaries and holes alike) with each one's `city` and `name`. Empty when the data had none.
    package func neighbourhoods(_ items: [(key: String, value: String)]) -> Answer {
        do { _ = try RouteParameter.read(items, allowed: []) } catch { return .failure(error) }
        var json = JSONWriter()
        json.beginObject()
        json.field("type", string: "FeatureCollection")
        json.key("features")
        json.beginArray()
        for shape in live.neighbourhoodShapes() {
            json.beginObject()
            json.field("type", string: "Feature")
            json.key("properties")
            json.beginObject()
            json.field("city", string: shape.city)
            json.field("name", string: shape.name)
            json.endObject()
            json.key("geometry")
            json.beginObject()
            json.field("type", string: "MultiLineString")
            json.key("coordinates")
            json.beginArray()
            for ring in shape.rings {
                json.beginArray()
                for point in ring {
                    json.beginArray()
                    json.number(Self.degrees(point.longitude))
                    json.number(Self.degrees(point.latitude))
                    json.endArray()
                }
                json.endArray()
            }
            json.endArray()
            json.endObject()
            json.endObject()
        }
        json.endArray()
        json.endObject()
        var answer = Answer.ok(json.text + "\n")
        answer.contentType = "application/geo+json"
        return answer
    }

    /// Degrees to seven decimals (about a centimetre), as the index keeps them, without trailing zeros.
    static func degrees(_ value: Double) -> String {
        let units = Int64((value * 1e7).rounded())
        let whole = units.magnitude / 10_000_000, fraction = units.magnitude % 10_000_000
        var text = (units < 0 ? "-" : "") + String(whole)
        if fraction != 0 {
            var digits = String(fraction)
            digits = String(repeating: "0", count: 7 - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return text
    }

    /// `GET /v1/regions?prefix=P&limit=N`: region suggestions with their listings now.
    package func regions(_ items: [(key: String, value: String)]) -> Answer {
        let values: [String: String]
        do { values = try RouteParameter.read(items, allowed: QuerySchema.regions) } catch { return .failure(error) }
        let prefix = values[QuerySchema.regionPrefix.key] ?? ""
        let limit = values[QuerySchema.regionLimit.key].flatMap { Int($0) } ?? 10
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
        guard let id = Int64(text) else { return .error(Self.notAnID(text)) }
        let stay: SearchQuery
        do {
            stay = try QueryReader.query(items: items, allowed: QuerySchema.stay)
        } catch {
            return .failure(error)
        }
        if let checkIn = stay.checkIn, checkIn < clock.today {
            return .failure(QueryError.checkInBeforeToday(checkIn: checkIn, today: clock.today))
        }
        // A quote lists every night: the server bounds it (a stay of years would be an answer of gigabytes).
        if let nights = stay.nights, nights > SearchService.longestQuote {
            return .error(APIError(.quoteTooLong, "a quote covers at most \(SearchService.longestQuote) nights (got \(nights))"))
        }
        let guests = stay.guests, covered = clock.end
        let body = live.withListing(id: id) { index, row in
            let quote = stay.checkIn.flatMap { checkIn in
                stay.checkOut.map {
                    index.quote(row: row, checkIn: checkIn, checkOut: $0, guests: guests, coveredUntil: covered, platform: platform)
                }
            }
            return ListingFormatting.json(index: index, row: row, quote: quote, today: clock.today)
        }
        guard let body else { return .error(Self.notFound(id)) }
        return .ok(body + "\n")
    }

    /// `POST /v1/changes`: live changes as JSON lines, answered line by line once the accepted ones are in the
    /// journal and on disk (as `staysearch update`).
    package func changes(_ body: String) -> Answer {
        guard let journal else {
            return .error(APIError(.changesNeedSavedIndex, "changes need a saved index (serve --index FILE): they are journalled beside it"))
        }
        let lines = SearchService.lines(of: body)
        return changesLock.withLock {
            do {
                let answers = try ChangeBatch.answer(lines, live: live, journal: journal, clock: clock)
                // A body of one line is answered with that line's status, as a replica answers it.
                let status = lines.count == 1 ? answers.errors[0]?.status ?? 200 : 200
                return Answer(status: status, body: Array(answers.text.utf8))
            } catch {
                Standard.error("staysearch: error: the changes could not be written to the journal: \(APIError(error, revealing: true).message)")
                return .error(APIError(.internalError, "the changes could not be written to the journal; none of them is acknowledged (the server's log has the details)"))
            }
        }
    }

    /// `POST /v1/changes` on a replica: the lines sent to the database that decides them, but for changes to
    /// nights before today, which are refused here (the same refusal as a single server's); the answers in
    /// the lines' order.
    package func write(_ lines: [String], to systemOfRecord: any SystemOfRecord) async -> Answer {
        let refusals: [APIError?] = lines.map { line in
            if case .failure(let error) = ChangeLine.read(line, clock: clock), error.code == .nightsBeforeToday { return error }
            return nil
        }
        guard refusals.contains(where: { $0 != nil }) else { return await systemOfRecord.write(lines) }
        let sent = zip(lines, refusals).filter { $0.1 == nil }.map(\.0)
        var answered: [Substring] = []
        if !sent.isEmpty { answered = await systemOfRecord.write(sent).text.split(separator: "\n") }
        var output = "", next = answered.makeIterator()
        for refusal in refusals {
            if let refusal { output += refusal.json + "\n" } else { output += (next.next().map(String.init) ?? APIError.internalError.json) + "\n" }
        }
        return Answer(status: lines.count == 1 ? refusals[0]!.status : 200, body: Array(output.utf8))
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

    private static func notAnID(_ text: String) -> APIError { APIError(.invalidListingID, "'\(text)' is not a listing id") }

    private static func notFound(_ id: Int64) -> APIError { APIError(.listingNotFound, "no listing has id \(id)") }
}
