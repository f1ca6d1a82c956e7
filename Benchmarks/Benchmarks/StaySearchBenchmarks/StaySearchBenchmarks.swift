import Benchmark
import Foundation
import StayData
import StaySearch

/// Generated data, made once per process before any measurement.
enum Fixture {
    /// Listings in the search benchmarks (STAYSEARCH_BENCH_LISTINGS, default 100,000).
    static let listingCount = Int(ProcessInfo.processInfo.environment["STAYSEARCH_BENCH_LISTINGS"] ?? "") ?? 100_000
    static let dataset = SyntheticDataset(listingCount: listingCount, seed: 1)
    static let index = dataset.makeIndex()
    /// The same listings priced the way pricing tools price them: a price that changes most days.
    static let dynamicIndex = SyntheticDataset(listingCount: listingCount, seed: 1, pricing: .dynamic).makeIndex()
    static let indexPath: String = {
        let path = NSTemporaryDirectory() + "staysearch-bench-\(getpid()).ssx"
        try! IndexFileWriter.save(index, to: path)
        return path
    }()
    static let csvFolders: [DatasetFolder] = {
        let directory = NSTemporaryDirectory() + "staysearch-bench-csv-\(getpid())"
        return try! InsideAirbnbWriter.write(SyntheticDataset(listingCount: 2_000, seed: 2), to: directory)
            .map { try! DatasetFolder(argument: $0) }
    }()

    /// Removes this process's scratch files (saved indexes, journals, CSV folders) from the temporary
    /// directory: a 1M-listing run leaves about 0.5 GB otherwise.
    static func removeScratchFiles() {
        let directory = NSTemporaryDirectory()
        let ending = "-\(getpid())"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where name.hasPrefix("staysearch-bench-") {
            let stem = name.split(separator: ".", maxSplits: 1).first.map(String.init) ?? name
            if stem.hasSuffix(ending) { try? FileManager.default.removeItem(atPath: directory + name) }
        }
    }

    static let checkIn = Day(iso: "2025-07-10")!
    /// The everyday query mix and the detail filters, on the generator's cities.
    static let queries: [(name: String, query: SearchQuery)] = [
        ("RegionOnly", SearchQuery(region: "Zürich")),
        ("Dates", SearchQuery(region: "São Paulo", checkIn: checkIn, checkOut: checkIn.advanced(by: 3))),
        ("DatesGuestsPrice", SearchQuery(region: "Antwerp", checkIn: checkIn, checkOut: checkIn.advanced(by: 4), adults: 2,
                                         children: 1, minimumPrice: Money(major: 60), maximumPrice: Money(major: 200))),
        ("NoRegion", SearchQuery(checkIn: checkIn, checkOut: checkIn.advanced(by: 2), adults: 2)),
        ("LongStay", SearchQuery(region: "Kraków", checkIn: checkIn, checkOut: checkIn.advanced(by: 28))),
        ("NarrowPrice", SearchQuery(region: "São Paulo", minimumPrice: Money(major: 50), maximumPrice: Money(major: 55))),
        ("WidePrice", SearchQuery(region: "Zürich/Kreis 1", checkIn: checkIn, checkOut: checkIn.advanced(by: 5),
                                  minimumPrice: Money(major: 0), maximumPrice: Money(major: 5_000))),
        // A city stay, the same with amenities + bedrooms + a map box (bound: 1.5× the first), and
        // with every facet counted.
        ("CityDates", cityDates),
        ("CityDatesDetails", {
            var query = cityDates
            query.amenities = ["Wifi", "Kitchen"]
            query.bedrooms = 2
            query.boundingBox = MapBox(south: 51.1794, west: 4.3425, north: 51.2594, east: 4.4625)
            return query
        }()),
        ("CityDatesFacets", {
            var query = cityDates
            query.facets = Facet.allCases
            return query
        }()),
        // Flexible dates: the city stay ± 3 days (bound: 3× CityDates), and a week in a 31-day window (bound: 10×).
        ("CityDatesFlexible3", {
            var query = cityDates
            query.flexibleDays = 3
            return query
        }()),
        ("CityWindow31x7", {
            var query = SearchQuery(region: "Antwerp", adults: 2)
            query.checkInFrom = checkIn.advanced(by: -15)
            query.checkInTo = checkIn.advanced(by: 15)
            query.windowNights = 7
            return query
        }()),
    ]
    static let cityDates = SearchQuery(region: "Antwerp", checkIn: checkIn, checkOut: checkIn.advanced(by: 3), adults: 2)
}

/// STAYSEARCH_BENCH_SMOKE=1: a few iterations each, for CI, which checks the malloc counts only.
let isSmoke = ProcessInfo.processInfo.environment["STAYSEARCH_BENCH_SMOKE"] != nil

/// Malloc counts are deterministic for a given data set: `Thresholds/` holds their p90 for the smoke
/// run's 20,000 listings, and a run may differ from them by 5% at most (hashing is seeded per process).
var mallocTolerance: [BenchmarkMetric: BenchmarkThresholds] {
    [.mallocCountTotal: .init(relative: [.p90: 5.0])]
}

func configuration(seconds: Int) -> Benchmark.Configuration {
    .init(metrics: [.wallClock, .mallocCountTotal, .instructions], maxDuration: .seconds(isSmoke ? 1 : seconds),
          maxIterations: isSmoke ? 20 : 1_000_000, thresholds: mallocTolerance)
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = configuration(seconds: 3)
    atexit { Fixture.removeScratchFiles() }

    for (name, query) in Fixture.queries {
        Benchmark("Search.\(name)") { benchmark in
            let index = Fixture.index
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(try! index.search(query)) }
        }
        Benchmark("Search.Dynamic.\(name)") { benchmark in
            let index = Fixture.dynamicIndex
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(try! index.search(query)) }
        }
    }
    Benchmark("HistogramOnly") { benchmark in
        let index = Fixture.index
        let query = SearchQuery(region: "São Paulo", checkIn: Fixture.checkIn, checkOut: Fixture.checkIn.advanced(by: 3), limit: 0)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try! index.search(query)) }
    }
    Benchmark("TopKOnly") { benchmark in
        let index = Fixture.index
        let query = SearchQuery(region: "São Paulo", checkIn: Fixture.checkIn, checkOut: Fixture.checkIn.advanced(by: 3),
                                bins: 1, histogramMinimum: Money(major: 0), histogramMaximum: Money(major: 1_000))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try! index.search(query)) }
    }
    Benchmark("LoadIndex", configuration: configuration(seconds: 3)) { benchmark in
        let path = Fixture.indexPath
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try! IndexFileReader.load(from: path)) }
    }
    Benchmark("BuildIndex10k", configuration: configuration(seconds: 5)) { benchmark in
        let dataset = SyntheticDataset(listingCount: 10_000, seed: 3)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(dataset.makeIndex()) }
    }
    Benchmark("ImportCSV2k", configuration: configuration(seconds: 5)) { benchmark in
        let folders = Fixture.csvFolders
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try! InsideAirbnbLoader().loadIndex(from: folders)) }
    }
    liveBenchmarks()
    priceCalendarBenchmarks()
}

/// The price calendar against one exact search of the same query: a month (31 check-ins) of 3- and 7-night
/// stays in one city and over every listing, on both pricing kinds, on one thread and two. Only time is
/// measured (the parts' arrays grow with the matches).
func priceCalendarBenchmarks() {
    let month = Fixture.checkIn.advanced(by: -9)       // 2025-07-01
    let scopes: [(name: String, region: String?)] = [("City", "Antwerp"), ("All", nil)]
    let kinds: [(name: String, index: () -> ListingIndex)] = [("Calibrated", { Fixture.index }), ("Dynamic", { Fixture.dynamicIndex })]
    let timing = Benchmark.Configuration(metrics: [.wallClock], maxDuration: .seconds(isSmoke ? 1 : 3),
                                         maxIterations: isSmoke ? 5 : 1_000_000, thresholds: [:])
    for (kind, index) in kinds {
        for (scope, region) in scopes {
            for nights in [3, 7] {
                for threads in [1, 2] {
                    var calendar = SearchQuery(region: region, adults: 2)
                    calendar.checkInFrom = month
                    calendar.checkInTo = month.advanced(by: 30)
                    calendar.windowNights = nights
                    let search = SearchQuery(region: region, checkIn: month.advanced(by: 14), checkOut: month.advanced(by: 14 + nights), adults: 2)
                    Benchmark("PriceCalendar.\(kind).\(scope)\(nights)n.t\(threads)", configuration: timing) { benchmark in
                        let index = index()
                        benchmark.startMeasurement()
                        for _ in benchmark.scaledIterations { blackHole(try! index.priceCalendar(calendar, threads: threads)) }
                    }
                    Benchmark("PriceCalendar.\(kind).\(scope)\(nights)n.t\(threads).OneSearch", configuration: timing) { benchmark in
                        let index = index()
                        benchmark.startMeasurement()
                        for _ in benchmark.scaledIterations { blackHole(try! index.search(search, threads: threads)) }
                    }
                }
            }
        }
    }
}
