import Hummingbird
import Prometheus

/// One route of `staysearch serve`: its method, its path (`:id` for a listing's id) and what answers it.
/// ``SearchServer/routes`` lists them all; the router registers exactly that list.
package struct Route: Sendable {
    /// What every route answers from: the search service, the write keys and the metrics.
    struct Server: Sendable {
        let service: SearchService
        let writeKeys: WriteKeys?
        let registry: PrometheusCollectorRegistry
    }

    package let method: HTTPRequest.Method
    package let path: String
    let answer: @Sendable (Request, BasicRequestContext, Server) async throws -> Response

    init(_ method: HTTPRequest.Method, _ path: String,
         answer: @escaping @Sendable (Request, BasicRequestContext, Server) async throws -> Response) {
        self.method = method
        self.path = path
        self.answer = answer
    }
}
