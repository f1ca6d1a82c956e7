import StaySearch
import Testing

@Suite struct MoneyTests {
    @Test(arguments: [
        ("$70.00", 7_000), ("$1,350.00", 135_000), ("120", 12_000), ("99.5", 9_950), ("0.99", 99), ("$0", 0),
        ("$24,999.00", 2_499_900), ("1,000,000", 100_000_000), ("$89.00", 8_900), ("$0.05", 5),
        ("$12345678.90", 1_234_567_890), ("$123456789.00", 12_345_678_900), ("$.00", 0),
        ("1000000000", 100_000_000_000), ("$1,000,000,000.00", 100_000_000_000), ("$999,999,999.99", 99_999_999_999),
        ("$50,000,000.00", 5_000_000_000),
    ] as [(String, Int64)])
    func parses(text: String, minorUnits: Int64) {
        #expect(Money(parsing: text)?.minorUnits == minorUnits)
    }

    @Test(arguments: ["", "$", "-5", "1.234", "1.2.3", "abc", "$ 5", ",100", "1e3", "1000000000.01", "$12a.00", "$1.0x",
                      "$ 1.00", "$1000000001.00", "$10,000,000,000.00", "99999999999999999999999"])
    func rejects(text: String) {
        #expect(Money(parsing: text) == nil)
    }

    @Test func formats() {
        #expect(Money(minorUnits: 135_000).formatted() == "$1,350.00")
        #expect(Money(minorUnits: 5).decimalText == "0.05")
        #expect(Money(minorUnits: 1_234_567_89).formatted(showsCents: false) == "$1,234,568")
        #expect(Money.average(of: 1_000, over: 3).minorUnits == 333)
        #expect(Money.average(of: 1_001, over: 2).minorUnits == 501)   // 500.5 rounds half up
    }
}

@Suite struct DayTests {
    @Test func roundTripsAndKnowsTheCalendar() {
        #expect(Day(iso: "1970-01-01")?.daysSinceEpoch == 0)
        #expect(Day(iso: "2024-07-12")?.description == "2024-07-12")
        #expect(Day(iso: "2024-02-29") != nil)
        #expect(Day(iso: "2023-02-29") == nil)
        #expect(Day(iso: "2000-02-29") != nil)
        #expect(Day(iso: "1900-02-29") == nil)
        #expect(Day(iso: "2024-7-12") == nil)
        #expect(Day(iso: "2024-13-01") == nil)
        #expect(Day(iso: "2024-00-10") == nil)
        #expect(Day(iso: "12/07/2024") == nil)
        #expect(Day(iso: "2024-07-12T00:00") == nil)
        #expect(Day(iso: "2024-07-15")!.distance(to: Day(iso: "2024-08-01")!) == 17)
        #expect(Day(iso: "2024-07-15")!.weekdayFromMonday == 0)      // a Monday
        for offset in stride(from: Int(Day(year: 1, month: 1, day: 1)!.daysSinceEpoch), through: Int(Day(year: 9999, month: 12, day: 31)!.daysSinceEpoch), by: 997) {
            let day = Day(daysSinceEpoch: Int32(offset))
            #expect(Day(iso: day.description) == day)
        }
    }
}

@Suite struct TextFoldingTests {
    @Test(arguments: [
        ("Zürich", "zurich"), ("KREIS 1", "kreis 1"), ("São Paulo", "sao paulo"), ("Łazienki", "lazienki"),
        ("Ørestad", "orestad"), ("  Centraal   Station ", "centraal station"), ("Straße", "strasse"), ("CAFÉ", "cafe"),
    ])
    func folds(text: String, folded: String) {
        #expect(TextFolding.fold(text) == folded)
    }
}

@Suite struct FacetCountsTests {
    /// Tied names go by their folded form, whatever their spelling: the same listings give the same facet
    /// whichever spelling of a name was seen first (a live index and a fresh import of it may differ there).
    @Test func tiedNamesGoByTheirFoldedForm() {
        let counted = [FacetCounts.Entry(value: .text("Entire rental unit"), count: 2), FacetCounts.Entry(value: .text("entire condo"), count: 2),
                       FacetCounts.Entry(value: .text("Room in hotel"), count: 3), FacetCounts.Entry(value: .text("Tent"), count: 0)]
        let facet = FacetCounts(facet: .propertyType, counted: counted, limit: 2)
        #expect(facet.entries == [FacetCounts.Entry(value: .text("Room in hotel"), count: 3), FacetCounts.Entry(value: .text("entire condo"), count: 2)])
        let respelled = counted.map { entry in
            entry.value == .text("entire condo") ? FacetCounts.Entry(value: .text("Entire Condo"), count: 2) : entry
        }
        #expect(FacetCounts(facet: .propertyType, counted: respelled, limit: 2).entries.last == FacetCounts.Entry(value: .text("Entire Condo"), count: 2))
        #expect(FacetCounts(facet: .propertyType, counted: counted, limit: 10).entries.count == 3)
    }
}
