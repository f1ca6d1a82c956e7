import Hummingbird

/// Lets pages of other origins call the API (`serve --cors-origin`): a request whose `Origin` is one of
/// `origins` (or any, with `*`) is answered with `Access-Control-Allow-Origin` naming it, and its preflight
/// (`OPTIONS` with `Access-Control-Request-Method`) with the methods its path takes, the headers a write
/// needs and the map's pin headers exposed. A request from another origin is answered as before, without
/// those headers, so that its browser keeps the answer from the page.
struct CrossOriginMiddleware<Context: RequestContext>: RouterMiddleware {
    let origins: [String]
    /// The methods a path is served with; empty for a path that is not served.
    let allowedMethods: @Sendable (String) -> [HTTPRequest.Method]

    /// How long a browser may keep a preflight's answer, in seconds.
    static var preflightLifetime: Int { 600 }
    /// The response headers a page may read besides the simple ones.
    static var exposedHeaders: String { "X-Map-Pins, X-Map-View, Content-Language" }

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let origin = request.headers[.origin], origins.contains("*") || origins.contains(origin) else {
            return try await next(request, context)
        }
        let allowed = origins.contains("*") ? "*" : origin
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            let methods = allowedMethods(request.uri.path)
            guard !methods.isEmpty else { return try await next(request, context) }
            var response = Response(status: .noContent)
            response.headers[.accessControlAllowOrigin] = allowed
            response.headers[.accessControlAllowMethods] = (methods + [.options]).map(\.rawValue).joined(separator: ", ")
            response.headers[.accessControlAllowHeaders] = "Authorization, Content-Type"
            response.headers[.accessControlMaxAge] = String(Self.preflightLifetime)
            response.headers[.vary] = "Origin"
            return response
        }
        var response = try await next(request, context)
        response.headers[.accessControlAllowOrigin] = allowed
        response.headers[.accessControlExposeHeaders] = Self.exposedHeaders
        response.headers[.vary] = response.headers[.vary].map { $0 + ", Origin" } ?? "Origin"
        return response
    }
}
