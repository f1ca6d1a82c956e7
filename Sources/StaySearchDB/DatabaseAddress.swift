import NIOSSL
import PostgresNIO

/// Where a PostgreSQL database is and how to reach it, read from a URL:
/// `postgres://USER[:PASSWORD]@HOST[:PORT][,HOST[:PORT]…]/DATABASE[?OPTION=VALUE&…]` (`postgresql://` too;
/// percent-escapes allowed in the user and password). Several hosts are tried in order, as libpq tries them,
/// which is how a failover orchestrator hands out its nodes. The options, as libpq names them:
/// - `sslmode`: `disable` (the default: plain TCP, for loopback or a private network), `prefer` (TLS when the
///   server offers it, its certificate not checked), `require` (TLS, the certificate not checked) or
///   `verify-full` (TLS, the certificate checked against `sslrootcert`, or the system's roots, and the host name);
/// - `target_session_attrs`: `any` (the default: the first host that answers) or `read-write` (the first
///   that takes writes; a standby, or a promoted node still fenced read-only, is skipped).
public struct DatabaseAddress: Sendable, CustomStringConvertible {
    /// The hosts, in the order they are tried.
    public var endpoints: [Endpoint]
    public var user: String
    public var password: String?
    public var database: String
    public var tlsMode: TLSMode = .disable
    /// The certificate authorities that `verify-full` trusts (PEM); nil: the system's.
    public var rootCertificatePath: String?
    /// Which server a connection must reach.
    public var target: Target = .any

    /// One host and port of the URL.
    public struct Endpoint: Sendable, Equatable, CustomStringConvertible {
        public var host: String
        public var port: Int
        public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    }

    /// Whether and how connections use TLS.
    public enum TLSMode: String, Sendable {
        case disable
        case prefer
        case require
        case verifyFull = "verify-full"
    }

    /// The server a connection must reach (libpq's `target_session_attrs`).
    public enum Target: String, Sendable {
        /// The first host that answers.
        case any
        /// The first host whose sessions may write (`transaction_read_only` off).
        case readWrite = "read-write"
    }

    /// The first host.
    public var host: String { endpoints[0].host }
    /// The first host's port.
    public var port: Int { endpoints[0].port }

    /// Reads `url`.
    /// - Throws: ``DatabaseError/badAddress(_:)`` saying what is wrong with it.
    public init(_ url: String) throws(DatabaseError) {
        var rest = Substring(url)
        guard let scheme = ["postgres://", "postgresql://"].first(where: { rest.hasPrefix($0) }) else {
            throw .badAddress("'\(url)' is not a PostgreSQL URL; write postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE")
        }
        rest = rest.dropFirst(scheme.count)
        if let question = rest.firstIndex(of: "?") {
            for option in rest[rest.index(after: question)...].split(separator: "&") {
                let parts = option.split(separator: "=", maxSplits: 1)
                let value = parts.count == 2 ? DatabaseAddress.unescaped(parts[1]) : ""
                switch parts.first.map(String.init) {
                case "sslmode":
                    guard let mode = TLSMode(rawValue: value) else {
                        throw .badAddress("'\(url)': sslmode must be disable, prefer, require or verify-full (got '\(value)')")
                    }
                    tlsMode = mode
                case "sslrootcert":
                    rootCertificatePath = value
                case "target_session_attrs":
                    guard let wanted = Target(rawValue: value) else {
                        throw .badAddress("'\(url)': target_session_attrs must be any or read-write (got '\(value)')")
                    }
                    target = wanted
                default:
                    throw .badAddress("'\(url)': the option '\(option)' is not taken (sslmode, sslrootcert and target_session_attrs are)")
                }
            }
            rest = rest[..<question]
        }
        if rootCertificatePath != nil, tlsMode != .verifyFull {
            throw .badAddress("'\(url)': sslrootcert needs sslmode=verify-full")
        }
        guard let at = rest.lastIndex(of: "@") else { throw .badAddress("'\(url)' names no user (postgres://USER@HOST/DATABASE)") }
        let credentials = rest[..<at]
        rest = rest[rest.index(after: at)...]
        if let colon = credentials.firstIndex(of: ":") {
            user = DatabaseAddress.unescaped(credentials[..<colon])
            password = DatabaseAddress.unescaped(credentials[credentials.index(after: colon)...])
        } else {
            user = DatabaseAddress.unescaped(credentials)
            password = nil
        }
        guard let slash = rest.firstIndex(of: "/") else { throw .badAddress("'\(url)' names no database (…/DATABASE)") }
        database = DatabaseAddress.unescaped(rest[rest.index(after: slash)...])
        endpoints = []
        for hostPort in rest[..<slash].split(separator: ",", omittingEmptySubsequences: false) {
            endpoints.append(try DatabaseAddress.endpoint(hostPort, of: url))
        }
        guard !user.isEmpty, !database.isEmpty else {
            throw .badAddress("'\(url)' needs a user, a host and a database: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE")
        }
    }

    /// One `HOST[:PORT]` (`[V6ADDRESS]:PORT` too) of `url`.
    private static func endpoint(_ text: Substring, of url: String) throws(DatabaseError) -> Endpoint {
        var host = text
        var port = 5432
        if let colon = text.lastIndex(of: ":"), !text[colon...].contains("]") {
            guard let number = Int(text[text.index(after: colon)...]), (1...65_535).contains(number) else {
                throw .badAddress("'\(url)': the port must be a number from 1 to 65535")
            }
            host = text[..<colon]
            port = number
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty else {
            throw .badAddress("'\(url)' needs a user, a host and a database: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE")
        }
        return Endpoint(host: String(host), port: port)
    }

    /// The address without its password, for messages and logs.
    public var description: String {
        var options: [String] = []
        if tlsMode != .disable { options.append("sslmode=\(tlsMode.rawValue)") }
        if target != .any { options.append("target_session_attrs=\(target.rawValue)") }
        return "postgres://\(user)@\(endpoints.map(\.description).joined(separator: ","))/\(database)"
            + (options.isEmpty ? "" : "?" + options.joined(separator: "&"))
    }

    /// The TLS settings of `tlsMode`; nil for plain TCP.
    /// - Throws: ``DatabaseError/badAddress(_:)`` when the root certificates cannot be read.
    func tlsConfiguration() throws(DatabaseError) -> TLSConfiguration? {
        guard tlsMode != .disable else { return nil }
        var tls = TLSConfiguration.makeClientConfiguration()
        if tlsMode == .require || tlsMode == .prefer {
            tls.certificateVerification = .none
        } else if let rootCertificatePath {
            do {
                tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(rootCertificatePath))
            } catch {
                throw .badAddress("sslrootcert \(rootCertificatePath) cannot be read as PEM certificates (\(error))")
            }
        }
        return tls
    }

    private func tls() throws(DatabaseError) -> PostgresConnection.Configuration.TLS {
        guard let configuration = try tlsConfiguration() else { return .disable }
        do {
            let context = try NIOSSLContext(configuration: configuration)
            return tlsMode == .prefer ? .prefer(context) : .require(context)
        } catch {
            throw .badAddress("the TLS settings cannot be used (\(error))")
        }
    }

    /// The settings of one connection to `endpoint`.
    func connectionConfiguration(to endpoint: Endpoint) throws(DatabaseError) -> PostgresConnection.Configuration {
        var configuration = PostgresConnection.Configuration(host: endpoint.host, port: endpoint.port, username: user, password: password,
                                                             database: database, tls: try tls())
        configuration.options.connectTimeout = endpoints.count > 1 ? .seconds(3) : .seconds(5)
        return configuration
    }

    private static func unescaped(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
               let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) {
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
