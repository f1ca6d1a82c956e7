// swift-tools-version: 6.0
// The price calendar against one exact search of the same query on a saved index, in one process (no HTTP):
// `swift build -c release` here, then `.build/release/calendar-loop INDEX NIGHTS THREADS REPEATS [REGION]`.
import PackageDescription

let package = Package(
    name: "calendar-loop",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "staysearch", path: "../..")],
    targets: [
        .executableTarget(name: "calendar-loop", dependencies: [
            .product(name: "StaySearch", package: "staysearch"), .product(name: "StayData", package: "staysearch"),
        ]),
    ]
)
