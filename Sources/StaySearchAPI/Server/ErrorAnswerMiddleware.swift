import Hummingbird

/// Answers every error of the server in one shape, `{"error": "…"}` with its status: an unknown path (404),
/// a known path with a method it does not take (405, with `Allow`), a body over the limit (413), and
/// anything a handler throws (500).
struct ErrorAnswerMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The methods a path is served with; empty for a path that is not served.
    let allowedMethods: @Sendable (String) -> [HTTPRequest.Method]

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError {
            if error.status == .notFound {
                let allowed = allowedMethods(request.uri.path)
                if !allowed.isEmpty {
                    let names = allowed.map(\.rawValue).joined(separator: ", ")
                    var response = SearchServer.respond(.error(405, "\(request.method.rawValue) is not allowed on \(request.uri.path); use \(names)"))
                    response.headers[.allow] = names
                    return response
                }
                return SearchServer.respond(.error(404, "no such route: \(request.method.rawValue) \(request.uri.path)"))
            }
            if error.status == .contentTooLarge {
                return SearchServer.respond(.error(413, "the body is over \(SearchServer.largestBody >> 20) MiB"))
            }
            return SearchServer.respond(.error(error.status.code, error.status.reasonPhrase.lowercased()))
        } catch {
            return SearchServer.respond(.error(500, "internal error: \(error)"))
        }
    }
}
