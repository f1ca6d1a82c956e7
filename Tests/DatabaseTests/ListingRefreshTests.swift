import StayData
import StaySearch
import StaySearchDB
import StaySearchTestSupport
import Testing

/// A refresh's change-log entry, without a database: for random listings and scrapes, the changes an entry
/// stands for take the listing to the refreshed one on every day from today, through its line and back.
struct ListingRefreshTests {
    static let first = Day(iso: "2025-06-01")!

    static func listing(id: Int64, days: Int, random: inout SeededGenerator) -> EditableListing {
        var record = ListingRecord(id: id, name: "Listing \(id)", region: RegionPath(city: "Gent", neighbourhood: "Centrum"),
                                   roomType: "Entire home/apt", accommodates: 4, price: random.chance(0.8) ? Money(minorUnits: 9_000) : nil)
        record.amenities = random.chance(0.5) ? ["Wifi", "Kitchen"] : []
        var prices: [Int64] = [], open: [Bool] = [], rules: [UInt32] = []
        for _ in 0..<days {
            let kind = Int.random(in: 0..<10, using: &random)
            // Now and then a price in the tens of millions or up to a billion (a wide price).
            let price: Int64 = kind == 0 ? Int64(ListingIndex.noCalendarRow) : kind == 1 && record.price == nil ? Int64(ListingIndex.unpricedNight)
                : kind == 2 && random.chance(0.3) ? Int64.random(in: 2_000_000_000...100_000_000_000, using: &random)
                : Int64(Int.random(in: 40...400, using: &random) * 100)
            prices.append(price)
            open.append(price >= 0 && random.chance(0.6))
            // Now and then a night whose minimum is above its maximum, as scrapes have them.
            let minimum = Int32.random(in: 1...4, using: &random)
            let maximum = random.chance(0.1) ? Int32(1) : Int32.random(in: 4...60, using: &random)
            rules.append(price == ListingIndex.noCalendarRow ? StayRule(minimumNights: record.minimumNights, maximumNights: record.maximumNights).packed
                         : StayRule(minimumNights: minimum, maximumNights: maximum).packed)
        }
        return EditableListing(record: record, prices: prices, bookable: open, rules: rules)
    }

    @Test(arguments: 0..<40) func theEntrysChangesMakeTheRefreshedListing(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed))
        let days = 30, todayOffset = Int.random(in: 0...5, using: &random)
        let current = random.chance(0.2) ? nil : Self.listing(id: 7, days: days, random: &random)
        let scraped = Self.listing(id: 7, days: days - 2, random: &random)
        let booked = random.chance(0.5) ? [Range(uncheckedBounds: (8, 11))] : []
        let target = Database.refreshed(current, by: scraped, scrapeOffset: 2, dayCount: days, todayOffset: todayOffset, booked: booked).listing
        guard let entry = ListingRefresh.entry(from: current, to: target, firstDay: Self.first, fromDay: todayOffset) else {
            #expect(current != nil)
            return
        }
        let read = try #require(ListingRefresh(line: entry.line))
        #expect(read == entry)
        var after = current
        for change in read.changes {
            switch ListingChangeOutcome.applying(change, to: after, firstDay: Self.first, dayCount: days) {
            case .success(let listing): after = listing
            case .failure(let error): Issue.record("\(change): \(error)"); return
            }
        }
        let made = try #require(after)
        var sorted = target.record
        sorted.amenities = made.record.amenities
        #expect(made.record == sorted && made.record.amenities.sorted() == target.record.amenities.sorted())
        for day in todayOffset..<days where target.prices[day] != ListingIndex.noCalendarRow {
            #expect(made.prices[day] == target.prices[day] && made.bookable[day] == target.bookable[day] && made.rules[day] == target.rules[day],
                    "day \(day)")
        }
        for stay in booked { for day in stay where day >= todayOffset { #expect(!made.bookable[day]) } }
        // Nothing left to do: the same scrape again gives no entry.
        let again = Database.refreshed(made, by: scraped, scrapeOffset: 2, dayCount: days, todayOffset: todayOffset, booked: booked).listing
        #expect(ListingRefresh.entry(from: made, to: again, firstDay: Self.first, fromDay: todayOffset) == nil)
    }

    /// A `days` change as the journal stores it reads back the same (a minimum above the maximum included).
    @Test func aDaysChangeRoundTripsThroughTheJournalRecord() {
        let days = ListingDays(id: 42, from: Self.first, prices: [9_000, -2, -1, 100_000_000_000], open: [true, false, false, true],
                               rules: [StayRule(minimumNights: 3, maximumNights: 1).packed, 65_537, 65_537, StayRule(minimumNights: 1, maximumNights: 60).packed])
        let bytes = ChangeRecord.encode(.days(days))
        #expect(bytes.count == 17 + 13 * 4 && ChangeRecord.isPlausible(length: bytes.count, kind: bytes.first))
        #expect(ChangeRecord.decode(bytes[...]) == .days(days))
        #expect(ChangeRecord.decode(bytes.dropLast()) == nil)
        // A journal written before wide prices (kind 10, a 32-bit price a day) reads as it was.
        var old: [UInt8] = [10] + Array(bytes[1..<17])
        for price: Int32 in [9_000, -2, -1, 2_147_483_647] { withUnsafeBytes(of: price.littleEndian) { old += $0 } }
        old += bytes[(17 + 32)...]
        var oldDays = days
        oldDays.prices = [9_000, -2, -1, 2_147_483_647]
        #expect(ChangeRecord.isPlausible(length: old.count, kind: 10) && ChangeRecord.decode(old[...]) == .days(oldDays))
    }
}
