import Foundation
import Hummingbird
import Logging
import Metrics
import NIOCore
import Prometheus

/// The Hummingbird application of `staysearch serve`: routes that hand their request to ``SearchService``
/// and its answer back, request logs, Prometheus metrics (request counts and latency histograms by route,
/// method and status at `/metrics`), and a graceful stop on SIGTERM and SIGINT.
package enum SearchServer {
    /// The largest request body taken (a bigger one is answered 413).
    package static let largestBody = 10 << 20

    /// Every route: its method, its path (`:id` stands for a listing's id) and what answers it. The router
    /// registers exactly these; an error answer for one of these paths with another method is 405 with
    /// `Allow`; the route tests check that each one answers and that the OpenAPI document has each.
    package static let routes: [Route] = [
        Route(.get, "/") { request, _, server in
            let answer = server.service.page(acceptLanguage: request.headers[.acceptLanguage])
            var response = page(answer.text, type: answer.contentType)
            for header in answer.headers { response.headers[.init(header.name)!] = header.value }
            return response
        },
        Route(.get, "/page.css") { _, _, _ in page(SearchPage.style, type: "text/css; charset=utf-8") },
        Route(.get, "/page.js") { _, _, _ in page(SearchPage.script, type: "text/javascript; charset=utf-8") },
        Route(.get, "/favicon.svg") { _, _, _ in page(SearchPage.icon, type: "image/svg+xml") },
        Route(.get, "/healthz") { _, _, server in respond(server.service.systemOfRecord?.health() ?? .ok("{\"ok\":true}\n")) },
        Route(.get, "/metrics") { _, _, server in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(string: server.registry.emitToString())))
        },
        Route(.get, "/openapi.json") { _, _, _ in respond(.ok(OpenAPIDocument.text + "\n")) },
        Route(.get, "/v1/index") { _, _, server in respond(server.service.indexInfo()) },
        Route(.get, "/v1/search") { request, _, server in
            try await reading(request, server.service) { respond(server.service.search($0)) }
        },
        Route(.post, "/v1/search/batch") { request, _, server in
            try await reading(request, server.service) { _ in respond(server.service.batch(try await text(of: request))) }
        },
        Route(.get, "/v1/regions") { request, _, server in
            try await reading(request, server.service) { respond(server.service.regions($0)) }
        },
        Route(.get, "/v1/neighbourhoods.geojson") { request, _, server in
            try await reading(request, server.service) { respond(server.service.neighbourhoods($0)) }
        },
        Route(.get, "/v1/histogram.png") { request, _, server in
            try await reading(request, server.service) {
                respond(server.service.chart($0, map: false, acceptLanguage: request.headers[.acceptLanguage]))
            }
        },
        Route(.get, "/v1/map.png") { request, _, server in
            try await reading(request, server.service) {
                respond(server.service.chart($0, map: true, acceptLanguage: request.headers[.acceptLanguage]))
            }
        },
        Route(.get, "/v1/price-calendar") { request, _, server in
            try await reading(request, server.service) { respond(server.service.priceCalendar($0, png: false)) }
        },
        Route(.get, "/v1/price-calendar.png") { request, _, server in
            try await reading(request, server.service) {
                respond(server.service.priceCalendar($0, png: true, acceptLanguage: request.headers[.acceptLanguage]))
            }
        },
        Route(.get, "/v1/listings/:id") { request, context, server in
            try await reading(request, server.service) { respond(server.service.listing(id: context.parameters.get("id") ?? "", $0)) }
        },
        Route(.get, "/v1/listings/:id/calendar") { request, context, server in
            try await reading(request, server.service) {
                respond(server.service.calendar(id: context.parameters.get("id") ?? "", $0, png: false))
            }
        },
        Route(.get, "/v1/listings/:id/calendar.png") { request, context, server in
            try await reading(request, server.service) {
                respond(server.service.calendar(id: context.parameters.get("id") ?? "", $0, png: true,
                                                acceptLanguage: request.headers[.acceptLanguage]))
            }
        },
        Route(.post, "/v1/changes") { request, _, server in
            // The key is checked before the body is read.
            if let refusal = refusal(of: request, writeKeys: server.writeKeys) { return refusal }
            let body = try await text(of: request)
            guard let systemOfRecord = server.service.systemOfRecord else { return respond(server.service.changes(body)) }
            return respond(await server.service.write(SearchService.lines(of: body), to: systemOfRecord))
        },
    ]

    /// Sets up the process's metrics (once, before any metric is made): what `/metrics` shows.
    package static func bootstrapMetrics() -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }

    /// Serves until SIGTERM or SIGINT; requests in flight finish first. `registry` is what
    /// ``bootstrapMetrics()`` made.
    package static func run(_ service: SearchService, writeKeys: WriteKeys?, host: String, port: Int, corsOrigins: [String] = [],
                            metrics registry: PrometheusCollectorRegistry) async throws {
        var logger = Logger(label: "staysearch")
        logger.logLevel = .info
        let router = router(service, writeKeys: writeKeys, metrics: registry, corsOrigins: corsOrigins, logRequests: true)
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "staysearch"),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                Standard.write("staysearch: serving http://\(host):\(bound)/ (SIGTERM or Ctrl-C stops it)\n")
            },
            logger: logger)
        try await app.runService()
    }

    /// The routes of ``routes`` over `service`, each error answered in the shape of ``APIError``; `/metrics`
    /// shows `registry`. Writes need a key of `writeKeys` (none: writes are refused); reads are open. Pages
    /// of `corsOrigins` (`*`: any) may call the API from their own origin.
    package static func router(_ service: SearchService, writeKeys: WriteKeys?,
                               metrics registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
                               corsOrigins: [String] = [], logRequests: Bool = false) -> Router<BasicRequestContext> {
        let router = Router()
        if !corsOrigins.isEmpty { router.middlewares.add(CrossOriginMiddleware(origins: corsOrigins, allowedMethods: allowedMethods)) }
        if logRequests { router.middlewares.add(LogRequestsMiddleware(.info)) }
        router.middlewares.add(MetricsMiddleware())
        router.middlewares.add(ErrorAnswerMiddleware(allowedMethods: allowedMethods))
        let server = Route.Server(service: service, writeKeys: writeKeys, registry: registry)
        for route in routes {
            router.on(RouterPath(route.path), method: route.method) { request, context in
                try await route.answer(request, context, server)
            }
        }
        return router
    }

    /// The methods ``routes`` answer at `path`: none when no route has that path.
    package static func allowedMethods(at path: String) -> [HTTPRequest.Method] {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return routes.filter { route in
            let pattern = route.path.split(separator: "/", omittingEmptySubsequences: false)
            return pattern.count == parts.count
                && zip(pattern, parts).allSatisfy { $0.hasPrefix(":") ? !$1.isEmpty : $0 == $1 }
        }.map(\.method)
    }

    /// The answer to a write without a valid key, or nil when its key is one of `writeKeys`.
    static func refusal(of request: Request, writeKeys: WriteKeys?) -> Response? {
        guard let writeKeys else {
            return respond(.error(APIError(.writesDisabled, "writes are disabled: start serve with --write-key-file FILE")))
        }
        switch writeKeys.verdict(authorization: request.headers[.authorization]) {
        case .allowed:
            return nil
        case .missing:
            var response = respond(.error(APIError(.missingWriteKey, "a write needs the header Authorization: Bearer KEY")))
            response.headers[.wwwAuthenticate] = "Bearer"
            return response
        case .wrong:
            return respond(.error(APIError(.invalidWriteKey, "the write key is not accepted")))
        }
    }

    /// The key of a read that must see the changes up to a log position (read-your-writes on a replica).
    package static let minimumPosition = QuerySchema.minimumPosition.key
    /// How long a read waits for ``minimumPosition``.
    package static let positionWait = Duration.seconds(5)

    /// Answers a read with `answer` of its query's keys, once this replica has applied the changes up to
    /// the request's `min_position` (if it has one): without `serve --follow` a position is refused; a
    /// replica that does not reach it in ``positionWait`` answers 503.
    static func reading(_ request: Request, _ service: SearchService,
                                _ answer: ([(key: String, value: String)]) async throws -> Response) async throws -> Response {
        var items = items(of: request)
        guard let at = items.firstIndex(where: { $0.key == minimumPosition }) else { return try await answer(items) }
        let text = items.remove(at: at).value
        guard (try? QuerySchema.minimumPosition.check(text)) != nil, let position = UInt64(text) else {
            return respond(.error(APIError(.invalidPosition, "min_position must be a log position, a whole number (got '\(text)')")))
        }
        guard let systemOfRecord = service.systemOfRecord else {
            return respond(.error(APIError(.positionWithoutFollow, "min_position needs a replica that follows a database (serve --follow)")))
        }
        guard await systemOfRecord.waitUntilApplied(position, timeout: positionWait) else {
            return respond(.error(APIError(.positionNotReached, "this replica has applied the changes up to position "
                + "\(systemOfRecord.appliedPosition), not yet \(position); try again or ask another replica")))
        }
        return try await answer(items)
    }

    /// The query string's keys and values, in order, decoded.
    /// Form encoding: `+` is a space (what browsers' `URLSearchParams` send), `%2B` a plus; a key or value
    /// whose percent-encoding is not UTF-8 stays as it came (and is then refused as an unknown name or value).
    private static func items(of request: Request) -> [(key: String, value: String)] {
        guard let query = request.uri.query, !query.isEmpty else { return [] }
        func decoded(_ part: Substring) -> String {
            let spaced = part.replacingOccurrences(of: "+", with: " ")
            return spaced.removingPercentEncoding ?? spaced
        }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            guard let equals = pair.firstIndex(of: "=") else { return (decoded(pair), "") }
            return (decoded(pair[..<equals]), decoded(pair[pair.index(after: equals)...]))
        }
    }

    /// The request body as text, up to ``largestBody`` bytes (beyond: 413).
    static func text(of request: Request) async throws -> String {
        var request = request
        let buffer = try await request.collectBody(upTo: largestBody)
        return String(decoding: buffer.readableBytesView, as: UTF8.self)
    }

    static func respond(_ answer: SearchService.Answer) -> Response {
        var response = Response(status: .init(code: answer.status), headers: [.contentType: answer.contentType],
                                body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
        for header in answer.headers {
            // The names are this program's own constants, valid field names.
            response.headers[.init(header.name)!] = header.value
        }
        return response
    }

    /// A part of the search page: scripts only from this server, no inline code, pictures from here or blobs.
    static func page(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [
            .contentType: type, .cacheControl: "no-cache",
            .contentSecurityPolicy: "default-src 'self'; img-src 'self' blob:; base-uri 'none'; frame-ancestors 'none'",
            .xContentTypeOptions: "nosniff",
        ], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
