/// The OpenAPI 3 description of `staysearch serve`, served at `/openapi.json`. Its search, chart and quote
/// parameters are made from ``QuerySchema``; the route tests check that every path answers.
package enum OpenAPIDocument {
    /// A query parameter of the schema, in the document's form.
    private static func parameter(_ parameter: QueryParameter) -> String {
        Self.parameter(parameter.key, schema(of: parameter.kind), parameter.help)
    }

    /// The JSON schema of a value of `kind`.
    private static func schema(of kind: QueryParameter.Kind) -> String {
        var writer = JSONWriter()
        writer.beginObject()
        switch kind {
        case .text, .coordinates:
            writer.field("type", string: "string")
        case .date:
            writer.field("type", string: "string")
            writer.field("format", string: "date")
        case .whole(let range):
            writer.field("type", string: "integer")
            writer.field("minimum", number: range?.lowerBound ?? 0)
            if let upper = range?.upperBound, upper < Int.max { writer.field("maximum", number: upper) }
        case .money, .halves:
            writer.field("type", string: "number")
            writer.field("minimum", number: 0)
        case .kilometres:
            writer.field("type", string: "number")
            writer.field("minimum", number: 0)
            writer.field("exclusiveMinimum", bool: true)
        case .flag:
            writer.field("type", string: "boolean")
        case .choice(let names):
            writer.field("type", string: "string")
            writer.key("enum")
            strings(names, into: &writer)
        case .names(let choices, _):
            writer.field("type", string: "array")
            writer.key("items")
            writer.beginObject()
            writer.field("type", string: "string")
            if let choices {
                writer.key("enum")
                strings(choices, into: &writer)
            }
            writer.endObject()
        }
        writer.endObject()
        return writer.text
    }

    private static func strings(_ names: [String], into writer: inout JSONWriter) {
        writer.beginArray()
        for name in names { writer.string(name) }
        writer.endArray()
    }

    private static func parameter(_ name: String, _ schema: String, _ description: String, in place: String = "query",
                                  required: Bool = false) -> String {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("name", string: name)
        writer.field("in", string: place)
        writer.field("required", bool: required)
        writer.field("description", string: description)
        writer.key("schema")
        writer.number(schema)
        if schema.contains(#""array""#) {
            writer.field("style", string: "form")
            writer.field("explode", bool: true)
        }
        writer.endObject()
        return writer.text
    }

    /// A route's key besides a search's, in the document's form.
    private static func parameter(_ parameter: RouteParameter) -> String {
        var writer = JSONWriter()
        writer.beginObject()
        switch parameter.kind {
        case let .text(pattern, _):
            writer.field("type", string: "string")
            if let pattern { writer.field("pattern", string: "^\(pattern)$") }
        case let .whole(range):
            writer.field("type", string: "integer")
            writer.field("minimum", number: range.lowerBound)
            if range.upperBound < Int.max { writer.field("maximum", number: range.upperBound) }
        case let .choice(names):
            writer.field("type", string: "string")
            writer.key("enum")
            strings(names, into: &writer)
        }
        writer.endObject()
        return Self.parameter(parameter.key, writer.text, parameter.help)
    }

    private static var search: [String] { QuerySchema.search.map(parameter) + [minimumPosition] }
    private static var priceCalendar: [String] {
        QuerySchema.priceCalendar.map(parameter) + QuerySchema.priceCalendarRoute.map(parameter) + [minimumPosition]
    }
    /// Read-your-writes on a replica (`serve --follow`).
    private static let minimumPosition = parameter(QuerySchema.minimumPosition)
    private static var display: [String] { QuerySchema.display.map(parameter) }

    private static var chartSize: [String] {
        QuerySchema.chart.map { parameter($0.key, schema(of: .whole($0.range)), $0.help) } + display
    }
    private static let listingID = parameter("id", #"{"type":"string","pattern":"^[0-9]{1,19}$"}"#, "Listing id", in: "path", required: true)
    private static let json = #"{"description":"JSON","content":{"application/json":{"schema":{"type":"object"}}}}"#
    private static let jsonArray = #"{"description":"JSON","content":{"application/json":{"schema":{"type":"array","items":{"type":"object"}}}}}"#
    private static let geoJSON = #"{"description":"GeoJSON FeatureCollection of MultiLineStrings, properties city and name","content":{"application/geo+json":{"schema":{"type":"object"}}}}"#
    private static let lines = #"{"description":"JSON lines, one answer a line (a refused line: an error object)","content":{"application/json":{"schema":{"type":"string"}}}}"#
    private static let png = #"{"description":"PNG","content":{"image/png":{"schema":{"type":"string","format":"binary"}}}}"#
    private static let mapPNG = #"{"description":"PNG","headers":{"X-Map-Pins":{"description":"Where each result's pin is: id@x,y in logical pixels, space-separated, in the order of the results","schema":{"type":"string"}},"X-Map-View":{"description":"The degrees of the picture's edges, SOUTH,WEST,NORTH,EAST (linear in both between them)","schema":{"type":"string"}}},"content":{"image/png":{"schema":{"type":"string","format":"binary"}}}}"#
    private static let linesBody = #"{"required":true,"content":{"text/plain":{"schema":{"type":"string"}}}}"#
    private static let health = #"{"description":"Ready: {\"ok\": true, …}","content":{"application/json":{"schema":{"type":"object"}}}}"#

    /// The codes every route may answer: another method than its own, a failure inside the server.
    private static let everywhere: [ErrorCode] = [.methodNotAllowed, .internalError]
    /// The codes of a read: its keys, and a replica's read-your-writes.
    private static let reads: [ErrorCode] = [.invalidParameter, .unknownParameter, .invalidPosition, .positionWithoutFollow, .positionNotReached]

    /// The responses of `codes`, one a status, each naming its codes and pointing at the error object.
    private static func errors(_ codes: [ErrorCode]) -> String {
        let byStatus = Dictionary(grouping: codes + everywhere, by: \.status)
        return byStatus.keys.sorted().map { status in
            let names = byStatus[status]!.map(\.rawValue)
            var writer = JSONWriter()
            writer.beginObject()
            writer.field("description", string: "An error object; code: \(names.joined(separator: ", "))")
            writer.key("content")
            writer.number(##"{"application/json":{"schema":{"$ref":"#/components/schemas/Error"}}}"##)
            writer.endObject()
            return #""\#(status)":\#(writer.text)"#
        }.joined(separator: ",")
    }

    /// The error object's schema: every code and kind.
    private static var errorSchema: String {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("type", string: "object")
        writer.key("required")
        strings(["error", "message", "code", "type"], into: &writer)
        writer.key("properties")
        writer.beginObject()
        writer.key("error")
        writer.number(#"{"type":"string","description":"The message again, for clients that read only this field"}"#)
        writer.key("message")
        writer.number(#"{"type":"string","description":"What is wrong, for people"}"#)
        writer.key("code")
        writer.beginObject()
        writer.field("type", string: "string")
        writer.field("description", string: "What is wrong, for programs: stable names, listed in docs/errors.md")
        writer.key("enum")
        strings(ErrorCode.allCases.map(\.rawValue), into: &writer)
        writer.endObject()
        writer.key("type")
        writer.beginObject()
        writer.field("type", string: "string")
        writer.key("enum")
        strings(ErrorKind.allCases.map(\.rawValue), into: &writer)
        writer.endObject()
        writer.endObject()
        writer.endObject()
        return writer.text
    }

    private static func get(_ summary: String, _ parameters: [String], _ ok: String, _ codes: [ErrorCode] = reads) -> String {
        #"{"get":{"summary":"\#(summary)","parameters":[\#(parameters.joined(separator: ","))],"responses":{"200":\#(ok),\#(errors(codes))}}}"#
    }

    private static func post(_ summary: String, _ ok: String, writes: Bool = false) -> String {
        let security = writes ? #","security":[{"writeKey":[]}]"# : ""
        let codes: [ErrorCode] = writes
            ? [.invalidChange, .nightsOutsideCalendar, .nightsBeforeToday, .invalidStayRule, .listingIncomplete, .changesNeedSavedIndex, .missingWriteKey,
               .invalidWriteKey, .writesDisabled, .listingNotFound, .nightsNotAvailable, .bodyTooLarge, .databaseUnreachable]
            : [.invalidParameter, .unknownParameter, .invalidPosition, .positionWithoutFollow, .positionNotReached, .bodyTooLarge]
        return #"{"post":{"summary":"\#(summary)","requestBody":\#(linesBody)\#(security),"responses":{"200":\#(ok),\#(errors(codes))}}}"#
    }

    /// The document's path of a route's (`:id` → `{id}`).
    package static func path(of route: Route) -> String {
        route.path.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
    }

    /// The document.
    package static let text: String = {
        let listing: [ErrorCode] = reads + [.invalidListingID, .listingNotFound]
        let searches: [ErrorCode] = reads + [.unknownRegion, .checkInBeforeToday, .datesOutsideCalendar]
        let paths = [
            ("/v1/search", get("Search listings: the search object", search, json, searches)),
            ("/v1/search/batch", post("Many searches: JSON lines of queries in, of answers out", lines)),
            ("/v1/histogram.png", get("The price histogram of a search", search + chartSize, png, searches)),
            ("/v1/map.png", get("The results of a search on a map", search + chartSize, mapPNG, searches)),
            ("/v1/price-calendar", get("For each check-in day of a month: the stays of a number of nights, their lowest and median total",
                                       priceCalendar, json, searches)),
            ("/v1/price-calendar.png", get("The price calendar as a picture", priceCalendar + display, png, searches)),
            ("/v1/regions", get("Region suggestions", QuerySchema.regions.map(parameter) + [minimumPosition], jsonArray)),
            ("/v1/neighbourhoods.geojson", get("The neighbourhoods' outlines the index keeps", [minimumPosition], geoJSON)),
            ("/v1/listings/{id}", get("A listing, with a quote for a stay", [
                listingID,
            ] + QuerySchema.stay.map(parameter) + [minimumPosition], json, listing + [.quoteTooLong, .checkInBeforeToday])),
            ("/v1/listings/{id}/calendar", get("A listing's calendar by month", [listingID] + QuerySchema.calendar.map(parameter) + [minimumPosition],
                                               json, listing)),
            ("/v1/listings/{id}/calendar.png", get("A listing's calendar as a picture",
                                                   [listingID] + QuerySchema.calendar.map(parameter) + display + [minimumPosition], png, listing)),
            ("/v1/changes", post("Live changes (JSON lines), answered line by line once journalled (on a replica: once the database committed them, with their change-log positions); a body of one line is answered with that line's status; needs a write key", lines, writes: true)),
            ("/v1/index", #"{"get":{"summary":"The index: the days its calendars cover, and today","responses":{"200":\#(json),\#(errors([]))}}}"#),
            ("/healthz", #"{"get":{"summary":"200 once the index is loaded; on a replica, 503 while it is further behind the change log than --max-lag","responses":{"200":\#(health),\#(errors([.replicaNotReady]))}}}"#),
            ("/metrics", #"{"get":{"summary":"Prometheus metrics","responses":{"200":{"description":"Prometheus text format","content":{"text/plain":{"schema":{"type":"string"}}}}}}}"#),
            ("/openapi.json", #"{"get":{"summary":"This document","responses":{"200":\#(json)}}}"#),
            ("/", #"{"get":{"summary":"The search page","responses":{"200":{"description":"HTML","content":{"text/html":{"schema":{"type":"string"}}}}}}}"#),
            ("/page.css", #"{"get":{"summary":"The search page's style","responses":{"200":{"description":"CSS","content":{"text/css":{"schema":{"type":"string"}}}}}}}"#),
            ("/page.js", #"{"get":{"summary":"The search page's script","responses":{"200":{"description":"JavaScript","content":{"text/javascript":{"schema":{"type":"string"}}}}}}}"#),
            ("/favicon.svg", #"{"get":{"summary":"The search page's icon","responses":{"200":{"description":"SVG","content":{"image/svg+xml":{"schema":{"type":"string"}}}}}}}"#),
        ]
        let body = paths.map { #""\#($0.0)":\#($0.1)"# }.joined(separator: ",")
        return #"{"openapi":"3.0.3","info":{"title":"staysearch","version":"1","description":"Accommodation search: listings by region, dates, guests and price, with the price histogram; live calendar changes. Every error is an object with error, message, code and type (docs/errors.md)."},"servers":[{"url":"/"}],"components":{"securitySchemes":{"writeKey":{"type":"http","scheme":"bearer","description":"A key of serve --write-key-file"}},"schemas":{"Error":\#(errorSchema)}},"paths":{\#(body)}}"#
    }()
}
