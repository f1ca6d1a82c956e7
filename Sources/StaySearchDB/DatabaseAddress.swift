import PostgresNIO

/// Where a PostgreSQL database is, read from a URL: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`
/// (`postgresql://` too; percent-escapes allowed in the user and password). Connections are plain TCP:
/// run the database on loopback or a private network.
public struct DatabaseAddress: Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String

    /// Reads `url`.
    /// - Throws: ``DatabaseError/badAddress(_:)`` saying what is wrong with it.
    public init(_ url: String) throws(DatabaseError) {
        var rest = Substring(url)
        guard let scheme = ["postgres://", "postgresql://"].first(where: { rest.hasPrefix($0) }) else {
            throw .badAddress("'\(url)' is not a PostgreSQL URL; write postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE")
        }
        rest = rest.dropFirst(scheme.count)
        if let question = rest.firstIndex(of: "?") {
            throw .badAddress("'\(url)': options after '?' (\(rest[rest.index(after: question)...])) are not taken")
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
    public var description: String { "postgres://\(user)@\(host):\(port)/\(database)" }

    /// The settings of one connection.
    var connectionConfiguration: PostgresConnection.Configuration {
        var configuration = PostgresConnection.Configuration(host: host, port: port, username: user, password: password,
                                                             database: database, tls: .disable)
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }

    /// The settings of a pool of connections.
    var poolConfiguration: PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(host: host, port: port, username: user, password: password,
                                                         database: database, tls: .disable)
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
