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

    private static var search: [String] { QuerySchema.search.map(parameter) + [minimumPosition] }
    /// Read-your-writes on a replica (`serve --follow`).
    private static let minimumPosition = parameter(
        SearchServer.minimumPosition, #"{"type":"integer","minimum":0}"#,
        "On a replica (serve --follow): answer once the changes up to this change-log position (a write's answer gives it) are applied here; waits up to 5 s, then 503. Refused without --follow.")
    private static var display: [String] {
        [parameter("locale", #"{"type":"string","enum":["en","ko"]}"#, "Language of the picture's words, dates and prices (default: the server's --locale, else the request's Accept-Language, else en)"),
         parameter("currency", #"{"type":"string","pattern":"^[A-Za-z]{3}$"}"#, "Currency the prices are in, for display (default: the server's --currency, else the language's)")]
    }

    private static var chartSize: [String] {
        QuerySchema.chart.map { parameter($0.key, schema(of: .whole($0.range)), $0.help) } + display
    }
    private static let listingID = parameter("id", #"{"type":"string","pattern":"^[0-9]{1,19}$"}"#, "Listing id", in: "path", required: true)
    private static let json = #"{"description":"JSON","content":{"application/json":{"schema":{"type":"object"}}}}"#
    private static let jsonArray = #"{"description":"JSON","content":{"application/json":{"schema":{"type":"array","items":{"type":"object"}}}}}"#
    private static let lines = #"{"description":"JSON lines, one answer a line","content":{"application/json":{"schema":{"type":"string"}}}}"#
    private static let png = #"{"description":"PNG","content":{"image/png":{"schema":{"type":"string","format":"binary"}}}}"#
    private static let mapPNG = #"{"description":"PNG","headers":{"X-Map-Pins":{"description":"Where each result's pin is: id@x,y in logical pixels, space-separated, in the order of the results","schema":{"type":"string"}}},"content":{"image/png":{"schema":{"type":"string","format":"binary"}}}}"#
    private static let bad = #"{"description":"Bad input: {\"error\": \"…\"}","content":{"application/json":{"schema":{"type":"object","properties":{"error":{"type":"string"}}}}}}"#
    private static let notFound = #"{"description":"No such listing","content":{"application/json":{"schema":{"type":"object"}}}}"#
    private static let tooLarge = #"{"description":"A body over 10 MiB"}"#
    private static let linesBody = #"{"required":true,"content":{"text/plain":{"schema":{"type":"string"}}}}"#

    private static func get(_ summary: String, _ parameters: [String], _ ok: String, notFound: Bool = false) -> String {
        #"{"get":{"summary":"\#(summary)","parameters":[\#(parameters.joined(separator: ","))],"responses":{"200":\#(ok),"400":\#(bad)\#(notFound ? #","404":"# + Self.notFound : "")}}}"#
    }

    private static func post(_ summary: String, _ ok: String, writes: Bool = false) -> String {
        let security = writes ? #","security":[{"writeKey":[]}]"# : ""
        let refusals = writes ? #","401":\#(noKey),"403":\#(wrongKey)"# : ""
        return #"{"post":{"summary":"\#(summary)","requestBody":\#(linesBody)\#(security),"responses":{"200":\#(ok),"400":\#(bad)\#(refusals),"413":\#(tooLarge)}}}"#
    }

    private static let noKey = #"{"description":"No Authorization: Bearer header","content":{"application/json":{"schema":{"type":"object","properties":{"error":{"type":"string"}}}}}}"#
    private static let wrongKey = #"{"description":"A key that is not accepted, or writes disabled (no --write-key-file)","content":{"application/json":{"schema":{"type":"object","properties":{"error":{"type":"string"}}}}}}"#

    /// The document.
    package static let text: String = {
        let paths = [
            ("/v1/search", get("Search listings: the search object", search, json)),
            ("/v1/search/batch", post("Many searches: JSON lines of queries in, of answers out", lines)),
            ("/v1/histogram.png", get("The price histogram of a search", search + chartSize, png)),
            ("/v1/map.png", get("The results of a search on a map", search + chartSize, mapPNG)),
            ("/v1/regions", get("Region suggestions", [
                parameter("prefix", #"{"type":"string"}"#, "Start (or part) of a name, folded"),
                parameter("limit", #"{"type":"integer","minimum":1,"maximum":100}"#, "Suggestions at most"),
            ], jsonArray)),
            ("/v1/listings/{id}", get("A listing, with a quote for a stay", [
                listingID,
            ] + QuerySchema.stay.map(parameter) + [minimumPosition], json, notFound: true)),
            ("/v1/listings/{id}/calendar", get("A listing's calendar by month", [
                listingID,
                parameter("month", #"{"type":"string","pattern":"^[0-9]{4}-[0-9]{2}$"}"#, "First month, YYYY-MM"),
                parameter("months", #"{"type":"integer","minimum":1,"maximum":12}"#, "Months"),
            ], json, notFound: true)),
            ("/v1/listings/{id}/calendar.png", get("A listing's calendar as a picture", [
                listingID,
                parameter("month", #"{"type":"string","pattern":"^[0-9]{4}-[0-9]{2}$"}"#, "First month, YYYY-MM"),
                parameter("months", #"{"type":"integer","minimum":1,"maximum":12}"#, "Months"),
            ] + display, png, notFound: true)),
            ("/v1/changes", post("Live changes (JSON lines), answered line by line once journalled (on a replica: once the database committed them, with their change-log positions; a single refused change is 409, 404 or 400); needs a write key", lines, writes: true)),
            ("/v1/index", #"{"get":{"summary":"The index: the days its calendars cover","responses":{"200":\#(json)}}}"#),
            ("/healthz", #"{"get":{"summary":"200 once the index is loaded; on a replica, 503 while it is further behind the change log than --max-lag","responses":{"200":\#(json),"503":\#(json)}}}"#),
            ("/metrics", #"{"get":{"summary":"Prometheus metrics","responses":{"200":{"description":"Prometheus text format","content":{"text/plain":{"schema":{"type":"string"}}}}}}}"#),
            ("/openapi.json", #"{"get":{"summary":"This document","responses":{"200":\#(json)}}}"#),
            ("/", #"{"get":{"summary":"The search page","responses":{"200":{"description":"HTML","content":{"text/html":{"schema":{"type":"string"}}}}}}}"#),
        ]
        let body = paths.map { #""\#($0.0)":\#($0.1)"# }.joined(separator: ",")
        return #"{"openapi":"3.0.3","info":{"title":"staysearch","version":"1","description":"Accommodation search: listings by region, dates, guests and price, with the price histogram; live calendar changes."},"servers":[{"url":"/"}],"components":{"securitySchemes":{"writeKey":{"type":"http","scheme":"bearer","description":"A key of serve --write-key-file"}}},"paths":{\#(body)}}"#
    }()
}
