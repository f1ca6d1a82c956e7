// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "staysearch",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "StaySearch", targets: ["StaySearch"]),
        .library(name: "StayData", targets: ["StayData"]),
        .library(name: "PriceGraph", targets: ["PriceGraph"]),
        .executable(name: "staysearch", targets: ["StaySearchCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The HTTP server of `staysearch serve`.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // Its metrics at /metrics, in Prometheus' text format.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // The system of record of a fleet: PostgreSQL (`staysearch db`, `import --from`, `serve --follow`).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // TLS to the database (postgres-nio's own TLS stack, named for its configuration types).
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        // The engine: Swift, no I/O; its innermost loops over a block's values and a word's stay rules are
        // in StaySearchKernels (C, with AVX2 versions chosen at run time: Swift is compiled for baseline x86-64).
        .target(name: "StaySearchKernels"),
        .target(name: "StaySearch", dependencies: ["StaySearchKernels"]),
        // zlib, wrapped once for reading .gz files.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Freeing a temporary file's blocks as they are read for the last time (fallocate, a GNU extension
        // Swift's Glibc module leaves out).
        .target(name: "CFileSpace"),
        // Getting data in and out: Inside Airbnb CSV(.gz) reader.
        .target(name: "StayData", dependencies: ["StaySearch", "CZlib", "CFileSpace"]),
        // libgd, wrapped once for drawing PNG charts.
        .systemLibrary(name: "CGD", pkgConfig: "gdlib", providers: [.apt(["libgd-dev"])]),
        // Price charts: PNG through libgd, and Unicode bars for terminals.
        .target(name: "PriceGraph", dependencies: ["StaySearch", "CGD"]),
        // glibc's malloc tuning (mallopt), for the commands that build indexes.
        .systemLibrary(name: "CMalloc"),
        // The API: the query schema and its readers, the answers' formats, the live-change lines, and the HTTP
        // application of `staysearch serve` with its search page. Shared by the command line and the server.
        .target(
            name: "StaySearchAPI",
            dependencies: [
                "StaySearch", "StayData", "PriceGraph",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // The search page's files, compiled into the binary (PackageResources), so that it ships alone.
            resources: [.embedInCode("Public")]
        ),
        // PostgreSQL as the system of record: its schema, loading with COPY, snapshots for an index, writes
        // decided in one transaction each, and a replica's following of the change log in commit order.
        .target(
            name: "StaySearchDB",
            dependencies: [
                "StaySearch", "StayData", "StaySearchAPI",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        // The command-line tool `staysearch`: thin commands over the libraries.
        .executableTarget(
            name: "StaySearchCLI",
            dependencies: [
                "StaySearch", "StayData", "PriceGraph", "StaySearchAPI", "StaySearchDB", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        // Test helpers: random data and a brute-force reference implementation of docs/query-semantics.md.
        .target(name: "StaySearchTestSupport", dependencies: ["StaySearch"], path: "Tests/StaySearchTestSupport"),
        .testTarget(name: "StaySearchTests", dependencies: ["StaySearch", "StaySearchKernels", "StayData", "StaySearchTestSupport"]),
        .testTarget(name: "StayDataTests", dependencies: ["StayData", "StaySearch", "StaySearchTestSupport"]),
        .testTarget(name: "PriceGraphTests", dependencies: ["PriceGraph", "StaySearch"]),
        .testTarget(name: "CLITests", dependencies: ["StaySearchTestSupport", "StaySearch", "StayData", "PriceGraph", "StaySearchAPI", "StaySearchCLI"]),
        // The system of record with a real PostgreSQL that the tests start (scripts/pg-cluster.sh): the writer,
        // the follower, a replica's restart; and its addresses and rows. (A whole fleet: scripts/fleet.py test.)
        .testTarget(name: "DatabaseTests", dependencies: ["StaySearchDB", "StaySearch", "StayData", "StaySearchAPI", "StaySearchTestSupport"]),
        // The HTTP routes in process (HummingbirdTesting), and the query schema against every surface.
        .testTarget(
            name: "APITests",
            dependencies: [
                "StaySearchAPI", "StaySearch", "StayData", "StaySearchTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
    ]
)

// `STAYSEARCH_ENGINE_ONLY=1` (the ThreadSanitizer run of `make test-tsan`): the engine, its data layer and
// their tests alone, without the server, the database stack and their TLS libraries, which that run does not
// exercise and would otherwise build a second time with the sanitizer.
if Context.environment["STAYSEARCH_ENGINE_ONLY"] == "1" {
    let engine: Set<String> = [
        "StaySearchKernels", "StaySearch", "CZlib", "CFileSpace", "StayData", "StaySearchTestSupport", "StaySearchTests",
    ]
    package.targets.removeAll { !engine.contains($0.name) }
    package.products = [.library(name: "StaySearch", targets: ["StaySearch"]), .library(name: "StayData", targets: ["StayData"])]
    package.dependencies = []
}
