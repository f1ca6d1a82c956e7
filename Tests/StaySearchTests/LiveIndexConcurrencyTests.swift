import Foundation
import StaySearch
import StaySearchTestSupport
import Testing

/// Many threads booking and searching one live index at once (CI runs this suite under ThreadSanitizer too:
/// `swift test --sanitize=thread --filter LiveIndexConcurrencyTests`).
@Suite struct LiveIndexConcurrencyTests {
    static let start = Day(iso: "2025-03-01")!
    static let days = 120

    /// Listing 1 is free every night; the others give the searches something to scan.
    static func data() -> TestDataset {
        let region = RegionPath(city: "Antwerp", neighbourhood: "Zuid")
        var listings = [ListingRecord(id: 1, name: "Target", region: region, roomType: "Entire home/apt", accommodates: 4, price: Money(major: 100))]
        for id in 2...300 {
            listings.append(ListingRecord(id: Int64(id), name: "Other \(id)", region: region, roomType: "Private room", accommodates: 2,
                                          price: Money(major: Int64(50 + id % 70))))
        }
        var nights: [(listingID: Int64, night: CalendarNight)] = []
        for listing in listings {
            for offset in 0..<days {
                nights.append((listing.id, CalendarNight(day: start.advanced(by: offset), isAvailable: offset % 5 != 0 || listing.id == 1, price: nil)))
            }
        }
        return TestDataset(listings: listings, nights: nights)
    }

    @Test func racingBookingsExactlyOneWinsAndSearchesSeeWholeChanges() throws {
        let live = LiveIndex(Self.data().makeIndex().index)
        let accepted = LockedValue<[Range<Int>]>([])
        let halfSeen = LockedValue(0)
        let searches = LockedValue(0)
        DispatchQueue.concurrentPerform(iterations: 6) { worker in
            var random = SeededGenerator(seed: UInt64(worker + 1))
            if worker < 4 {
                // Writers: two-night stays on listing 1, overlapping each other's all the time.
                for _ in 0..<300 {
                    let first = Int.random(in: 0..<(Self.days - 2), using: &random)
                    let change = CalendarChange.book(id: 1, checkIn: Self.start.advanced(by: first), checkOut: Self.start.advanced(by: first + 2), guests: 2)
                    if (try? live.apply(change)) != nil { accepted.withLock { $0.append(first..<(first + 2)) } }
                }
            } else {
                // Readers: searches, and listing 1's calendar, which must always hold whole bookings (an even
                // number of booked nights, as every booking is two).
                for round in 0..<150 {
                    let checkIn = Self.start.advanced(by: round % 100)
                    let result = try? live.search(SearchQuery(region: "Zuid", checkIn: checkIn, checkOut: checkIn.advanced(by: 3), limit: 5))
                    if result != nil { searches.withLock { $0 += 1 } }
                    let booked = live.withIndex { index in
                        index.nights(ofRow: index.row(ofListingID: 1)!, from: Self.start, to: Self.start.advanced(by: Self.days))
                            .filter { $0.status == .booked }.count
                    }
                    if booked % 2 != 0 { halfSeen.withLock { $0 += 1 } }
                }
            }
        }
        let stays = accepted.withLock { $0 }.sorted { $0.lowerBound < $1.lowerBound }
        #expect(stays.count > 10)
        for (a, b) in zip(stays, stays.dropFirst()) { #expect(a.upperBound <= b.lowerBound, "\(a) and \(b) overlap: both won") }
        let index = live.withIndex { $0 }
        let booked = index.nights(ofRow: index.row(ofListingID: 1)!, from: Self.start, to: Self.start.advanced(by: Self.days))
            .filter { $0.status == .booked }.count
        #expect(booked == stays.count * 2)
        #expect(halfSeen.withLock { $0 } == 0)
        #expect(searches.withLock { $0 } == 300)
    }

    /// Listings removed, and moved by changes of their property type and amenities, on some threads while
    /// others search by those names: a name stays known while a listing of it is visible and becomes
    /// unknown with the last one, never in between (a search by it finds listings, or fails as unknown),
    /// and, under ThreadSanitizer, the live index's name counts are shared safely.
    @Test func namesVanishWithTheirLastListingWhileSearchesRun() throws {
        let region = RegionPath(city: "Antwerp", neighbourhood: "Zuid")
        var listings: [ListingRecord] = []
        for id in 1...300 {
            var listing = ListingRecord(id: Int64(id), name: "Home \(id)", region: region, roomType: "Private room", accommodates: 2,
                                        price: Money(major: Int64(50 + id % 70)))
            listing.propertyType = id <= 40 ? "Houseboat" : "Loft"
            listing.amenities = id <= 40 ? ["Sauna", "Wifi"] : ["Wifi"]
            listings.append(listing)
        }
        let live = LiveIndex(TestDataset(listings: listings, nights: []).makeIndex().index)
        let wrongAnswers = LockedValue<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            if worker < 2 {
                // Writers: the houseboats go, half removed, half made lofts without a sauna.
                for id in stride(from: 1 + worker, through: 40, by: 2) {
                    if worker == 0 {
                        try? live.apply(.remove(id: Int64(id)))
                    } else {
                        var change = ListingChange(id: Int64(id))
                        change.propertyType = "Loft"
                        change.amenities = ["Wifi"]
                        try? live.apply(.listing(change))
                    }
                }
            } else {
                for round in 0..<200 {
                    var query = SearchQuery(limit: 5)
                    if round % 2 == 0 { query.propertyTypes = ["houseboat"] } else { query.amenities = ["sauna"] }
                    do {
                        let result = try live.search(query)
                        if result.total == 0 { wrongAnswers.withLock { $0.append("round \(round): known, yet no listing") } }
                    } catch {
                        if !"\(error)".hasPrefix("unknown") { wrongAnswers.withLock { $0.append("round \(round): \(error)") } }
                    }
                }
            }
        }
        #expect(wrongAnswers.withLock { $0 }.isEmpty, "\(wrongAnswers.withLock { $0 })")
        var query = SearchQuery()
        query.propertyTypes = ["Houseboat"]
        #expect(throws: QueryError.self) { try live.search(query) }
        query = SearchQuery()
        query.amenities = ["Sauna"]
        #expect(throws: QueryError.self) { try live.search(query) }
        query.amenities = ["Wifi"]
        #expect(try live.search(query).total == 280)
    }
}

/// A value behind a lock, for the test's threads.
final class LockedValue<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
