import StaySearch

/// What a load has gathered so far: the builder, the report, and where each listing id was first seen.
struct LoadState {
    var builder = IndexBuilder()
    var report = LoadReport()
    var listingLines: [Int64: String] = [:]
}
