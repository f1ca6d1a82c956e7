import NIOSSL
import PostgresNIO

/// Where a PostgreSQL database is and how to reach it, read from a URL:
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=MODE[&sslrootcert=FILE]]` (`postgresql://` too;
/// percent-escapes allowed in the user and password). `sslmode`, as libpq names it: `disable` (the default:
/// plain TCP, for loopback or a private network), `require` (TLS, the server's certificate not checked) or
/// `verify-full` (TLS, the certificate checked against `sslrootcert`, or the system's roots, and the host name).
public struct DatabaseAddress: Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String
    public var tlsMode: TLSMode = .disable
    /// The certificate authorities that `verify-full` trusts (PEM); nil: the system's.
    public var rootCertificatePath: String?

    /// Whether and how connections use TLS.
    public enum TLSMode: String, Sendable {
        case disable
        case require
        case verifyFull = "verify-full"
    }

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
                        throw .badAddress("'\(url)': sslmode must be disable, require or verify-full (got '\(value)')")
                    }
                    tlsMode = mode
                case "sslrootcert":
                    rootCertificatePath = value
                default:
                    throw .badAddress("'\(url)': the option '\(option)' is not taken (sslmode and sslrootcert are)")
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
        let hostPort = rest[..<slash]
        if let colon = hostPort.lastIndex(of: ":") {
            guard let number = Int(hostPort[hostPort.index(after: colon)...]), (1...65_535).contains(number) else {
                throw .badAddress("'\(url)': the port must be a number from 1 to 65535")
            }
            host = String(hostPort[..<colon])
            port = number
        } else {
            host = String(hostPort)
            port = 5432
        }
        guard !user.isEmpty, !host.isEmpty, !database.isEmpty else {
            throw .badAddress("'\(url)' needs a user, a host and a database: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE")
        }
    }

    /// The address without its password, for messages and logs.
    public var description: String {
        "postgres://\(user)@\(host):\(port)/\(database)" + (tlsMode == .disable ? "" : "?sslmode=\(tlsMode.rawValue)")
    }

    /// The TLS settings of `tlsMode`; nil for plain TCP.
    /// - Throws: ``DatabaseError/badAddress(_:)`` when the root certificates cannot be read.
    func tlsConfiguration() throws(DatabaseError) -> TLSConfiguration? {
        guard tlsMode != .disable else { return nil }
        var tls = TLSConfiguration.makeClientConfiguration()
        if tlsMode == .require {
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
            return .require(try NIOSSLContext(configuration: configuration))
        } catch {
            throw .badAddress("the TLS settings cannot be used (\(error))")
        }
    }

    /// The settings of one connection.
    func connectionConfiguration() throws(DatabaseError) -> PostgresConnection.Configuration {
        var configuration = PostgresConnection.Configuration(host: host, port: port, username: user, password: password,
                                                             database: database, tls: try tls())
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }

    /// The settings of a pool of connections.
    func poolConfiguration() throws(DatabaseError) -> PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS = try tlsConfiguration().map { .require($0) } ?? .disable
        var configuration = PostgresClient.Configuration(host: host, port: port, username: user, password: password,
                                                         database: database, tls: tls)
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.maximumConnections = 8
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
