import Foundation
import StaySearchDB
import Testing

/// A throwaway PostgreSQL cluster for this test process, started once by `scripts/pg-cluster.sh` (as the
/// fleet's tests start theirs: in a temporary folder, loopback only, as the `postgres` user when the tests run
/// as root) with commit timestamps on, and stopped when the process exits. Each test takes a database of its
/// own from it. When the cluster cannot be started, every test that needs it fails with the reason: a
/// machine without PostgreSQL does not pass these tests silently (`make test` installs it).
enum TestCluster {
    /// What went wrong starting the cluster.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The repository's root folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The cluster's URL without a database name (`postgres://staysearch@127.0.0.1:PORT/`), once started.
    static let started: Result<String, Failure> = start()

    /// The folder of the running cluster, stopped at exit.
    nonisolated(unsafe) private static var folder: String?

    private static func start() -> Result<String, Failure> {
        let folder = "/tmp/staysearch-dbtests.\(getpid())"
        try? FileManager.default.removeItem(atPath: folder)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        } catch {
            return .failure(Failure(description: "cannot make \(folder): \(error)"))
        }
        Self.folder = folder
        atexit { TestCluster.stop() }
        var lastFailure = ""
        for attempt in 0..<5 {
            let port = 20_000 + Int((UInt32(getpid()) &* 7_919 &+ UInt32(attempt) &* 104_729) % 40_000)
            let started = run(["start", folder, String(port)])
            if started.status == 0, let url = started.output.split(separator: "\n").last, url.hasPrefix("postgres://") {
                let base = String(url.dropLast("stays".count))
                // Commit timestamps, so that a test can see the order transactions committed in.
                let set = psql(base + "stays", "ALTER SYSTEM SET track_commit_timestamp = on")
                guard set.status == 0 else { return .failure(Failure(description: "psql: \(set.output)")) }
                let restarted = run(["restart", folder])
                guard restarted.status == 0 else { return .failure(Failure(description: "pg-cluster.sh restart: \(restarted.output)")) }
                return .success(base)
            }
            lastFailure = started.output
            if started.status == 69 { break }   // PostgreSQL is not installed: no port will help
            try? FileManager.default.removeItem(atPath: folder + "/data")
        }
        return .failure(Failure(description: """
            PostgreSQL could not be started for the database tests (scripts/pg-cluster.sh): \
            \(lastFailure.trimmingCharacters(in: .whitespacesAndNewlines)); install postgresql and postgresql-contrib \
            (make test does)
            """))
    }

    /// Stops the cluster and removes its folder.
    static func stop() {
        guard let folder else { return }
        _ = run(["stop", folder])
        try? FileManager.default.removeItem(atPath: folder)
        Self.folder = nil
    }

    /// A new, empty database of the cluster, with staysearch's tables.
    static func freshDatabase(_ name: String) async throws -> DatabaseAddress {
        let base = try started.get()
        let database = "t_\(name)_\(UInt32.random(in: 0...UInt32.max))"
        let made = psql(base + "stays", "CREATE DATABASE \(database)")
        guard made.status == 0 else { throw Failure(description: "CREATE DATABASE \(database): \(made.output)") }
        let address = try DatabaseAddress(base + database)
        try await Database.using(address) { try await $0.initialise(reset: false) }
        return address
    }

    /// Runs SQL on the database at `url` with psql; its status and output (errors included).
    @discardableResult
    static func psql(_ url: String, _ sql: String) -> (status: Int32, output: String) {
        let bin = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql"))?.sorted().last
            .map { "/usr/lib/postgresql/\($0)/bin/psql" } ?? "psql"
        return execute(bin, ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql])
    }

    private static func run(_ arguments: [String]) -> (status: Int32, output: String) {
        execute("/bin/bash", [root + "/scripts/pg-cluster.sh"] + arguments)
    }

    /// Runs `path` with `arguments` and waits for it (posix_spawn and waitpid: Foundation's Process can miss
    /// the exit of a child whose grandchild, the server, lives on); its status and what it wrote.
    private static func execute(_ path: String, _ arguments: [String]) -> (status: Int32, output: String) {
        // The output goes to a file, not a pipe: the server pg_ctl starts would inherit a pipe and keep it open.
        let outputPath = NSTemporaryDirectory() + "staysearch-dbtests-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).out"
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard spawned == 0 else { return (127, "\(path): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let output = String(decoding: FileManager.default.contents(atPath: outputPath) ?? Data(), as: UTF8.self)
        let exited = status & 0x7F == 0
        return (exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), output)
    }
}

/// Every suite that uses the cluster, one after another: the database tests wait on PostgreSQL's answers
/// within deadlines, which a machine busy with them all at once (beside the other targets' tests) can miss.
@Suite(.serialized) enum DatabaseSuites {}
