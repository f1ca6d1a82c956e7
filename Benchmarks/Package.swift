// swift-tools-version: 6.1
// The benchmark suite, in a package of its own so that the library and its test build stay free of
// the benchmark dependency. Run with `make bench` (or `swift package benchmark` in this folder).
import PackageDescription

let package = Package(
    name: "StaySearchBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "staysearch", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "StaySearchBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "StaySearch", package: "staysearch"),
                .product(name: "StayData", package: "staysearch"),
            ],
            path: "Benchmarks/StaySearchBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
