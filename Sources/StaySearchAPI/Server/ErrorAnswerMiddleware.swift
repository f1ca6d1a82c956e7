import Hummingbird

/// Answers every error of the server in the shape of ``APIError`` with its status: an unknown path (404),
/// a known path with a method it does not take (405, with `Allow`), a body over the limit (413), and
/// anything a handler throws (500, whose details go to the log and not to the client).
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
                    var response = SearchServer.respond(.error(APIError(
                        .methodNotAllowed, "\(request.method.rawValue) is not allowed on \(request.uri.path); use \(names)")))
                    response.headers[.allow] = names
                    return response
                }
                return SearchServer.respond(.error(APIError(.routeNotFound, "no such route: \(request.method.rawValue) \(request.uri.path)")))
            }
            if error.status == .contentTooLarge {
                return SearchServer.respond(.error(APIError(.bodyTooLarge, "the body is over \(SearchServer.largestBody >> 20) MiB")))
            }
            if error.status.code < 500 {
                // The server's own framework refused the request (a malformed request line, say).
                return SearchServer.respond(.error(APIError(.invalidParameter, error.status.reasonPhrase.lowercased())))
            }
            Standard.error("staysearch: error: \(request.method.rawValue) \(request.uri.path): \(error.status.code) \(error.status.reasonPhrase)")
            return SearchServer.respond(.error(.internalError))
        } catch {
            Standard.error("staysearch: error: \(request.method.rawValue) \(request.uri.path): \(error)")
            return SearchServer.respond(.error(.internalError))
        }
    }
}
