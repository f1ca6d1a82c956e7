/// The OpenAPI 3 description of `staysearch serve`, served at `/openapi.json` (kept true by
/// `ServeCommandTests`: every path answers, and the search parameters are exactly the keys the server takes).
enum OpenAPIDocument {
    /// The query keys of a search, with their types, in the document's form.
    private static let searchParameters: [(name: String, schema: String, description: String)] = [
        ("region", #"{"type":"string"}"#, "City, neighbourhood group or neighbourhood (folded; a path with /)"),
        ("checkin", #"{"type":"string","format":"date"}"#, "Check-in date"),
        ("checkout", #"{"type":"string","format":"date"}"#, "Check-out date"),
        ("flexible_days", #"{"type":"integer","minimum":0,"maximum":7}"#, "Shift the stay up to this many days either way"),
        ("checkin_from", #"{"type":"string","format":"date"}"#, "First check-in of a window"),
        ("checkin_to", #"{"type":"string","format":"date"}"#, "Last check-in of a window"),
        ("nights", #"{"type":"integer","minimum":1,"maximum":365}"#, "Nights of a stay in a window"),
        ("checkin_weekdays", #"{"type":"array","items":{"type":"string"}}"#, "Check-in weekdays of a window: mon … sun"),
        ("adults", #"{"type":"integer","minimum":1}"#, "Adults"),
        ("children", #"{"type":"integer","minimum":0}"#, "Children"),
        ("infants", #"{"type":"integer","minimum":0,"maximum":5}"#, "Infants"),
        ("min_price", #"{"type":"number","minimum":0}"#, "Lowest nightly price"),
        ("max_price", #"{"type":"number","minimum":0}"#, "Highest nightly price"),
        ("room_type", #"{"type":"string"}"#, "Room type"),
        ("sort", #"{"type":"string","enum":["price","price-desc","rating","reviews","distance"]}"#, "Order of results"),
        ("limit", #"{"type":"integer","minimum":0,"maximum":1000}"#, "Results on the page"),
        ("offset", #"{"type":"integer","minimum":0}"#, "Results skipped"),
        ("bins", #"{"type":"integer","minimum":1,"maximum":200}"#, "Histogram bins"),
        ("hist_min", #"{"type":"number","minimum":0}"#, "Histogram's lower edge"),
        ("hist_max", #"{"type":"number","minimum":0}"#, "Histogram's upper edge"),
        ("bedrooms", #"{"type":"integer","minimum":0}"#, "At least this many bedrooms"),
        ("beds", #"{"type":"integer","minimum":0}"#, "At least this many beds"),
        ("bathrooms", #"{"type":"number","minimum":0}"#, "At least this many bathrooms (halves allowed)"),
        ("property_type", #"{"type":"array","items":{"type":"string"}}"#, "Any of these property types"),
        ("amenities", #"{"type":"array","items":{"type":"string"}}"#, "All of these amenities"),
        ("instant_bookable", #"{"type":"boolean"}"#, "Instant book only"),
        ("superhost", #"{"type":"boolean"}"#, "Superhosts only"),
        ("bbox", #"{"type":"string"}"#, "Map box: south,west,north,east"),
        ("near", #"{"type":"string"}"#, "Centre: lat,lon"),
        ("radius_km", #"{"type":"number","minimum":0,"exclusiveMinimum":true}"#, "Radius around near"),
        ("facets", #"{"type":"array","items":{"type":"string","enum":["room_type","property_type","amenities","bedrooms","instant_bookable","superhost"]}}"#, "Facets to count"),
        ("facet_limit", #"{"type":"integer","minimum":1,"maximum":100}"#, "Values per facet"),
    ]

    /// The query keys `GET /v1/search` takes.
    static var searchKeys: [String] { searchParameters.map(\.name) }

    private static func parameter(_ name: String, _ schema: String, _ description: String, in place: String = "query",
                                  required: Bool = false) -> String {
        let explode = schema.contains(#""array""#) ? #","style":"form","explode":true"# : ""
        return #"{"name":"\#(name)","in":"\#(place)","required":\#(required),"description":"\#(description)","schema":\#(schema)\#(explode)}"#
    }

    private static var search: [String] { searchParameters.map { parameter($0.name, $0.schema, $0.description) } }
    private static let chartSize = [
        parameter("width", #"{"type":"integer","minimum":200,"maximum":4000}"#, "Width in pixels"),
        parameter("height", #"{"type":"integer","minimum":150,"maximum":3000}"#, "Height in pixels"),
        parameter("scale", #"{"type":"integer","minimum":1,"maximum":4}"#, "1 for normal screens, 2 for high-density ones"),
    ]
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

    private static func post(_ summary: String, _ ok: String) -> String {
        #"{"post":{"summary":"\#(summary)","requestBody":\#(linesBody),"responses":{"200":\#(ok),"400":\#(bad),"413":\#(tooLarge)}}}"#
    }

    /// The document.
    static let text: String = {
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
                parameter("checkin", #"{"type":"string","format":"date"}"#, "Check-in date"),
                parameter("checkout", #"{"type":"string","format":"date"}"#, "Check-out date"),
                parameter("adults", #"{"type":"integer","minimum":0}"#, "Adults"),
                parameter("children", #"{"type":"integer","minimum":0}"#, "Children"),
                parameter("infants", #"{"type":"integer","minimum":0,"maximum":5}"#, "Infants"),
            ], json, notFound: true)),
            ("/v1/listings/{id}/calendar", get("A listing's calendar by month", [
                listingID,
                parameter("month", #"{"type":"string","pattern":"^[0-9]{4}-[0-9]{2}$"}"#, "First month, YYYY-MM"),
                parameter("months", #"{"type":"integer","minimum":1,"maximum":12}"#, "Months"),
            ], json, notFound: true)),
            ("/v1/listings/{id}/calendar.png", get("A listing's calendar as a picture", [
                listingID,
                parameter("month", #"{"type":"string","pattern":"^[0-9]{4}-[0-9]{2}$"}"#, "First month, YYYY-MM"),
                parameter("months", #"{"type":"integer","minimum":1,"maximum":12}"#, "Months"),
            ], png, notFound: true)),
            ("/v1/changes", post("Live changes (JSON lines), answered line by line once journalled", lines)),
            ("/v1/index", #"{"get":{"summary":"The index: the days its calendars cover","responses":{"200":\#(json)}}}"#),
            ("/healthz", #"{"get":{"summary":"200 once the index is loaded","responses":{"200":\#(json)}}}"#),
            ("/metrics", #"{"get":{"summary":"Prometheus metrics","responses":{"200":{"description":"Prometheus text format","content":{"text/plain":{"schema":{"type":"string"}}}}}}}"#),
            ("/openapi.json", #"{"get":{"summary":"This document","responses":{"200":\#(json)}}}"#),
            ("/", #"{"get":{"summary":"The search page","responses":{"200":{"description":"HTML","content":{"text/html":{"schema":{"type":"string"}}}}}}}"#),
        ]
        let body = paths.map { #""\#($0.0)":\#($0.1)"# }.joined(separator: ",")
        return #"{"openapi":"3.0.3","info":{"title":"staysearch","version":"1","description":"Accommodation search: listings by region, dates, guests and price, with the price histogram; live calendar changes."},"servers":[{"url":"/"}],"paths":{\#(body)}}"#
    }()
}
