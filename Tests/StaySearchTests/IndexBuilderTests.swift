import StaySearch
import Testing

/// The builder keeps consecutive equal nights as runs; what it builds must not show it.
@Suite struct IndexBuilderTests {
    private let start = Day(iso: "2025-03-01")!

    /// Adds `count` nights from `day` (offset from `start`) at `price`, from consecutive lines from `line`.
    private func add(_ builder: inout IndexBuilder, _ handle: IndexBuilder.ListingHandle, day: Int, count: Int, price: Int64, line: Int) {
        for offset in 0..<count {
            builder.addNight(to: handle, day: start.advanced(by: day + offset), isAvailable: true, priceMinorUnits: price,
                             minimumNights: 1, maximumNights: 30, origin: RecordOrigin(file: 1, line: line + offset))
        }
    }

    private func builder() -> (IndexBuilder, IndexBuilder.ListingHandle) {
        var builder = IndexBuilder()
        let handle = try! builder.addListing(ListingRecord(id: 7, name: "A", region: RegionPath(city: "C", neighbourhood: "N"),
                                                           roomType: "Private room", accommodates: 2, price: nil))
        return (builder, handle)
    }

    /// A caller of the builder may give amounts above the bound: each is held at 1,000,000,000.00, and the index
    /// stays sound (its wide prices ascending, each once).
    @Test func amountsAboveTheBoundAreHeldAtIt() throws {
        var (builder, handle) = builder()
        add(&builder, handle, day: 0, count: 1, price: 100_000_000_001, line: 1)
        add(&builder, handle, day: 1, count: 1, price: 500_000_000_000, line: 2)
        add(&builder, handle, day: 2, count: 1, price: 100_000_000_000, line: 3)
        let index = builder.build().index
        for day in 0..<3 { #expect(index.nightPrice(row: 0, day: start.advanced(by: day)) == 100_000_000_000) }
        #expect(index.storage.widePrices.array == [100_000_000_000])
        _ = try ListingIndex(validating: index.storage, shape: index.shape)
    }

    @Test func theFirstNightAddedForADateWinsAcrossOverlappingRuns() {
        var (builder, handle) = builder()
        add(&builder, handle, day: 10, count: 10, price: 100, line: 100)   // days 10–19
        add(&builder, handle, day: 15, count: 2, price: 200, line: 200)    // 15, 16: duplicates
        add(&builder, handle, day: 5, count: 8, price: 300, line: 300)     // 5–9 new, 10–12 duplicates
        #expect(builder.nightCount == 20)
        let (index, duplicates) = builder.build()
        #expect(Set(duplicates.map(\.origin)) == Set([200, 201, 305, 306, 307].map { RecordOrigin(file: 1, line: $0) }))
        #expect(Set(duplicates.map { start.distance(to: $0.day) }) == [15, 16, 10, 11, 12])
        let row = index.row(ofListingID: 7)!
        for day in 5..<20 {
            #expect(index.nightPrice(row: row, day: start.advanced(by: day)) == (day < 10 ? 300 : 100))
        }
    }

    @Test func aLaterRunLosesToAnEarlierOneThatStartsAfterIt() {
        var (builder, handle) = builder()
        add(&builder, handle, day: 15, count: 2, price: 200, line: 200)
        add(&builder, handle, day: 10, count: 10, price: 100, line: 100)
        let (index, duplicates) = builder.build()
        #expect(Set(duplicates.map(\.origin)) == Set([105, 106].map { RecordOrigin(file: 1, line: $0) }))
        let row = index.row(ofListingID: 7)!
        #expect(index.nightPrice(row: row, day: start.advanced(by: 15)) == 200)
        #expect(index.nightPrice(row: row, day: start.advanced(by: 17)) == 100)
    }

    @Test func nightsFromLinesThatAreNotConsecutiveStaySeparate() {
        var (builder, handle) = builder()
        for day in 0..<6 {   // one line apart each (say, multi-line records between): still every night kept
            builder.addNight(to: handle, day: start.advanced(by: day), isAvailable: day != 3, priceMinorUnits: 500,
                             minimumNights: -1, maximumNights: -1, origin: RecordOrigin(file: 0, line: 2 * day))
        }
        let (index, duplicates) = builder.build()
        #expect(duplicates.isEmpty)
        #expect(index.dayCount == 6)
        #expect(builder.nightCount == 6)
    }

    /// Nights from consecutive lines whose price and availability change every night are one run with
    /// night values; every night keeps its own, overlapping nights still lose to the first added, and
    /// builders appended keep their values.
    @Test func nightValuesKeepEveryNight() {
        var (builder, handle) = builder()
        func price(_ day: Int) -> Int64 { Int64(10_000 + 100 * (day * 7 % 13)) }
        for day in 0..<30 {          // a new price every night, every fourth night booked
            builder.addNight(to: handle, day: start.advanced(by: day), isAvailable: day % 4 != 0, priceMinorUnits: price(day),
                             minimumNights: 1, maximumNights: 30, origin: RecordOrigin(file: 1, line: 10 + day))
        }
        // Overlapping nights added later lose, and are reported with their lines.
        for day in 25..<35 {
            builder.addNight(to: handle, day: start.advanced(by: day), isAvailable: true, priceMinorUnits: 99_900,
                             minimumNights: 1, maximumNights: 30, origin: RecordOrigin(file: 1, line: 100 + day))
        }
        // A part read apart, appended with its lines shifted by 1,000.
        var part = IndexBuilder()
        for day in 35..<40 {
            part.addNight(to: handle, day: start.advanced(by: day), isAvailable: day != 37, priceMinorUnits: price(day),
                          minimumNights: 1, maximumNights: 30, origin: RecordOrigin(file: 1, line: day))
        }
        part.addNight(to: handle, day: start.advanced(by: 3), isAvailable: true, priceMinorUnits: 1, minimumNights: 1,
                      maximumNights: 30, origin: RecordOrigin(file: 1, line: 50))
        builder.appendNights(of: part, shiftingLinesBy: 1_000)
        let (index, duplicates) = builder.build()
        #expect(Set(duplicates.map(\.origin)) == Set((125..<130).map { RecordOrigin(file: 1, line: $0) } + [RecordOrigin(file: 1, line: 1_050)]))
        let row = index.row(ofListingID: 7)!
        for day in 0..<40 {
            let expected = day < 30 ? price(day) : day < 35 ? 99_900 : price(day)
            let available = day < 30 ? day % 4 != 0 : day != 37
            #expect(index.nightPrice(row: row, day: start.advanced(by: day)) == expected, "day \(day)")
            #expect(index.isBookable(row: row, day: start.advanced(by: day)) == available, "day \(day)")
        }
    }
}
