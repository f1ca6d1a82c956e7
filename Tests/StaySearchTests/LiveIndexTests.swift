import Foundation
import StaySearch
import StaySearchTestSupport
import Testing

/// Live changes against the reference: the same random change streams applied to both, queries between.
@Suite struct LiveIndexTests {
    /// Every fourth seed with wide prices (up to 1,000,000,000.00 a night) in the data.
    @Test(arguments: 0..<40)
    func changesAndQueriesAgreeWithTheReference(seed: Int) throws {
        var data = TestDataset.random(seed: UInt64(seed) + 900)
        if seed % 4 == 3 { data = data.withWidePrices(seed: UInt64(seed)) }
        let frozen = data.makeIndex().index
        let live = LiveIndex(frozen)
        let end = frozen.firstDay.advanced(by: frozen.dayCount)
        var random = SeededGenerator(seed: UInt64(seed) &* 31 + 7)
        var accepted = 0
        var acceptedChanges: [CalendarChange] = []
        for round in 0..<12 {
            let changes = (0..<15).map { _ in data.randomChange(using: &random) }
            // Half the rounds one by one, half as a group: the same outcomes either way.
            let outcomes: [ChangeError?] = round % 2 == 0
                ? changes.map { change in Result { () throws(ChangeError) in try live.apply(change) }.failure }
                : live.apply(changes)
            for (change, outcome) in zip(changes, outcomes) {
                let want = data.apply(change, calendarStart: frozen.firstDay, calendarEnd: end)
                #expect((outcome == nil) == want, "seed \(seed) round \(round): \(change) → \(String(describing: outcome))")
                if want { accepted += 1 }
                if outcome == nil { acceptedChanges.append(change) }
            }
            for _ in 0..<6 {
                let query = data.randomQuery(using: &random)
                let expected = Result { () throws(QueryError) in try ReferenceSearch.search(query, in: data) }
                let actual = Result { () throws(QueryError) in ReferenceAnswer(try live.search(query)) }
                switch (expected, actual) {
                case let (.success(want), .success(got)): #expect(got == want, "seed \(seed) round \(round): \(query)")
                case (.failure, .failure): break
                default: Issue.record("seed \(seed) round \(round): \(query): \(actual) vs \(expected)")
                }
                expectSlottedSearch(of: query, on: live, toGive: expected, "seed \(seed) round \(round)")
            }
        }
        #expect(accepted > 5)
        // Replaying the accepted changes (as a load replays a journal) gives the same calendars.
        let replayed = LiveIndex(frozen)
        #expect(replayed.replay(acceptedChanges) == 0)
        let days = frozen.dayCount
        let same = live.withIndex { a in
            replayed.withIndex { b in
                (0..<a.count).allSatisfy { row in
                    a.nights(ofRow: row, from: a.firstDay, to: a.firstDay.advanced(by: days))
                        == b.nights(ofRow: row, from: b.firstDay, to: b.firstDay.advanced(by: days))
                }
            }
        }
        #expect(same)
        // The frozen index it started from is untouched.
        #expect(ReferenceAnswer(try frozen.search(SearchQuery(limit: 50))) == ReferenceAnswer(try frozen.search(SearchQuery(limit: 50))))
    }

    /// Prices, stay rules, listings changed, added and removed, among the calendar changes: against the
    /// reference after every round, and the whole index built again (what `compact` saves) answers the same.
    @Test(arguments: 0..<40)
    func listingChangesAgreeWithTheReference(seed: Int) throws {
        // Half the seeds start from listings with fees (the changes set and clear fees on either).
        var data = TestDataset.random(seed: UInt64(seed) + 1_900)
        if seed % 2 == 1 { data = data.withRandomFees(seed: UInt64(seed)) }
        let frozen = data.makeIndex().index
        let live = LiveIndex(frozen)
        let end = frozen.firstDay.advanced(by: frozen.dayCount)
        var random = SeededGenerator(seed: UInt64(seed) &* 37 + 11)
        var acceptedChanges: [CalendarChange] = []
        var acceptedListingChanges = 0
        for round in 0..<10 {
            let changes = (0..<15).map { _ in data.randomChange(using: &random, listingChanges: 0.35) }
            let outcomes: [ChangeError?] = round % 2 == 0
                ? changes.map { change in Result { () throws(ChangeError) in try live.apply(change) }.failure }
                : live.apply(changes)
            for (change, outcome) in zip(changes, outcomes) {
                let want = data.apply(change, calendarStart: frozen.firstDay, calendarEnd: end)
                #expect((outcome == nil) == want, "seed \(seed) round \(round): \(change) → \(String(describing: outcome))")
                if outcome == nil {
                    acceptedChanges.append(change)
                    if !change.changesOnlyAvailability { acceptedListingChanges += 1 }
                }
            }
            for _ in 0..<8 {
                var query = data.randomQuery(using: &random)
                // Short facet lists too: which of two tied names is kept must not depend on history.
                query.facetLimit = round % 2 == 0 ? 100 : Int.random(in: 1...3, using: &random)
                let expected = Result { () throws(QueryError) in try ReferenceSearch.search(query, in: data).foldingFacetNames() }
                let actual = Result { () throws(QueryError) in ReferenceAnswer(try live.search(query)).foldingFacetNames() }
                // A name whose every listing was removed or changed is unknown, as to a fresh index of the
                // listings as they are now (the same name reported; the reference makes no suggestions, the
                // rebuilt index below gives the whole message).
                switch (expected, actual) {
                case let (.success(want), .success(got)):
                    #expect(got == want, "seed \(seed) round \(round): \(query)")
                case let (.failure(want), .failure(got)):
                    #expect(got.description.prefix { $0 != ";" } == want.description.prefix { $0 != ";" }, "seed \(seed) round \(round): \(query)")
                default: Issue.record("seed \(seed) round \(round): \(query): \(actual) vs \(expected)")
                }
                expectSlottedSearch(of: query, on: live, toGive: expected, "seed \(seed) round \(round)", foldingFacetNames: true)
                let whole = Result { () throws(QueryError) in try live.withIndex { index throws(QueryError) in ReferenceAnswer(try index.search(query)).foldingFacetNames() } }
                switch (whole, actual) {
                case let (.success(a), .success(b)): #expect(a == b, "seed \(seed) round \(round), rebuilt: \(query)")
                case let (.failure(a), .failure(b)): #expect(a.description == b.description, "seed \(seed) round \(round), rebuilt: \(query)")
                default: Issue.record("seed \(seed) round \(round), rebuilt: \(query): \(whole) vs \(actual)")
                }
            }
        }
        #expect(acceptedListingChanges > 3)
        // Replaying the accepted changes (as a load replays a journal) gives the same listings and calendars.
        let replayed = LiveIndex(frozen)
        #expect(replayed.replay(acceptedChanges) == 0)
        let same = live.withIndex { a in
            replayed.withIndex { b in
                a.count == b.count && (0..<a.count).allSatisfy { row in
                    a.fullListing(atRow: row) == b.fullListing(atRow: row)
                        && a.nights(ofRow: row, from: a.firstDay, to: a.firstDay.advanced(by: frozen.dayCount))
                        == b.nights(ofRow: row, from: b.firstDay, to: b.firstDay.advanced(by: frozen.dayCount))
                }
            }
        }
        #expect(same)
    }

    /// A live search with its histogram counted in price slots during the scan (which a search does from 65,536 rows on)
    /// and the frozen rows cut into parts of a row on three threads, the live rows a part of their own: the reference's
    /// answer (`expected`), or an error when it fails.
    private func expectSlottedSearch(of query: SearchQuery, on live: LiveIndex, toGive expected: Result<ReferenceAnswer, QueryError>,
                                     _ context: String, foldingFacetNames: Bool = false) {
        let slotted = Result { () throws(QueryError) in
            let answer = ReferenceAnswer(try live.search(query, threads: 3, minimumRowsPerPart: 1, minimumRowsForPriceSlots: 0))
            return foldingFacetNames ? answer.foldingFacetNames() : answer
        }
        switch (expected, slotted) {
        case let (.success(want), .success(got)): #expect(got == want, "\(context), slots: \(query)\n got \(got)\nwant \(want)")
        case (.failure, .failure): break
        default: Issue.record("\(context), slots: \(query): \(slotted) vs \(expected)")
        }
    }

    /// A window that rolls: days added after the calendars' last (no calendar row in any listing until a
    /// change gives it one) between rounds of changes, against the reference, the whole index built again,
    /// and a replay onto an index with every day added first (a journal's changes never touch a day before
    /// it was added).
    @Test(arguments: 0..<30)
    func daysAddedByARollingWindowAgreeWithTheReference(seed: Int) throws {
        var data = TestDataset.random(seed: UInt64(seed) + 2_900)
        let frozen = data.makeIndex().index
        let live = LiveIndex(frozen)
        var random = SeededGenerator(seed: UInt64(seed) &* 41 + 13)
        var acceptedChanges: [CalendarChange] = []
        var acceptedBeyond = 0
        for round in 0..<9 {
            if round == 3 || round == 6 {
                live.extendCalendar(toDayCount: frozen.dayCount + (round == 3 ? 12 : 40))
                live.extendCalendar(toDayCount: frozen.dayCount)     // never shrinks
            }
            let span = live.calendarSpan
            let end = span.first.advanced(by: span.dayCount)
            var changes = (0..<15).map { _ in data.randomChange(using: &random, listingChanges: 0.35) }
            if round >= 3, let listing = data.listings.randomElement(using: &random) {
                // A host opens days the window added: priced, then opened, then a stay booked on them.
                let from = frozen.firstDay.advanced(by: frozen.dayCount + Int.random(in: -2...8, using: &random))
                changes += [.price(id: listing.id, from: from, to: from.advanced(by: 4), price: Money(minorUnits: 12_000)),
                            .availability(id: listing.id, from: from, to: from.advanced(by: 4), available: true),
                            .book(id: listing.id, checkIn: from.advanced(by: 1), checkOut: from.advanced(by: 3), guests: 1)]
            }
            let outcomes: [ChangeError?] = round % 2 == 0
                ? changes.map { change in Result { () throws(ChangeError) in try live.apply(change) }.failure }
                : live.apply(changes)
            for (change, outcome) in zip(changes, outcomes) {
                let want = data.apply(change, calendarStart: frozen.firstDay, calendarEnd: end)
                #expect((outcome == nil) == want, "seed \(seed) round \(round): \(change) → \(String(describing: outcome))")
                if outcome == nil {
                    acceptedChanges.append(change)
                    if let nights = change.nights, nights.to > frozen.firstDay.advanced(by: frozen.dayCount) { acceptedBeyond += 1 }
                }
            }
            for _ in 0..<8 {
                let query = data.randomQuery(using: &random)
                let expected = Result { () throws(QueryError) in try ReferenceSearch.search(query, in: data).foldingFacetNames() }
                let actual = Result { () throws(QueryError) in ReferenceAnswer(try live.search(query)).foldingFacetNames() }
                switch (expected, actual) {
                case let (.success(want), .success(got)):
                    #expect(got == want, "seed \(seed) round \(round): \(query)")
                case let (.failure(want), .failure(got)):
                    #expect(got.description.prefix { $0 != ";" } == want.description.prefix { $0 != ";" }, "seed \(seed) round \(round): \(query)")
                default: Issue.record("seed \(seed) round \(round): \(query): \(actual) vs \(expected)")
                }
                expectSlottedSearch(of: query, on: live, toGive: expected, "seed \(seed) round \(round)", foldingFacetNames: true)
                let whole = Result { () throws(QueryError) in try live.withIndex { index throws(QueryError) in ReferenceAnswer(try index.search(query)).foldingFacetNames() } }
                switch (whole, actual) {
                case let (.success(a), .success(b)): #expect(a == b, "seed \(seed) round \(round), rebuilt: \(query)")
                case let (.failure(a), .failure(b)): #expect(a.description == b.description, "seed \(seed) round \(round), rebuilt: \(query)")
                default: Issue.record("seed \(seed) round \(round), rebuilt: \(query): \(whole) vs \(actual)")
                }
                // An index made fresh today (the days before it dropped) answers the same.
                guard let today = query.today else { continue }
                let fresh = Result { () throws(QueryError) in
                    try live.withIndex(from: today) { index throws(QueryError) in ReferenceAnswer(try index.search(query)).foldingFacetNames() }
                }
                switch (fresh, actual) {
                case let (.success(a), .success(b)): #expect(a == b, "seed \(seed) round \(round), fresh today: \(query)")
                case let (.failure(a), .failure(b)): #expect(a.description == b.description, "seed \(seed) round \(round), fresh today: \(query)")
                default: Issue.record("seed \(seed) round \(round), fresh today: \(query): \(fresh) vs \(actual)")
                }
            }
        }
        #expect(live.calendarSpan.dayCount == frozen.dayCount + 40)
        #expect(live.withIndex { $0.dayCount } == frozen.dayCount + 40)
        let replayed = LiveIndex(frozen)
        replayed.extendCalendar(toDayCount: frozen.dayCount + 40)
        #expect(replayed.replay(acceptedChanges) == 0)
        let days = frozen.dayCount + 40
        let same = live.withIndex { a in
            replayed.withIndex { b in
                a.count == b.count && (0..<a.count).allSatisfy { row in
                    a.fullListing(atRow: row) == b.fullListing(atRow: row)
                        && a.nights(ofRow: row, from: a.firstDay, to: a.firstDay.advanced(by: days))
                        == b.nights(ofRow: row, from: b.firstDay, to: b.firstDay.advanced(by: days))
                }
            }
        }
        #expect(same)
        #expect(acceptedBeyond >= 3, "seed \(seed): \(acceptedBeyond) changes accepted past the frozen calendar")
    }

    /// A listing added, priced and opened is found at its price; a price change shows in totals; a removed
    /// listing is gone; and the rebuilt index agrees.
    @Test func addedChangedAndRemovedListingsShowInSearches() throws {
        let data = TestDataset.random(seed: 12, maximumListings: 60)
        let frozen = data.makeIndex().index
        let live = LiveIndex(frozen)
        let first = frozen.firstDay
        var added = ListingChange(id: 4_000_000)
        added.name = "New loft"
        added.city = "Gent"
        added.neighbourhood = "Haven"
        added.roomType = "Entire home/apt"
        added.accommodates = 3
        added.amenities = ["Sauna"]
        #expect(throws: ChangeError.newListingIncomplete(id: 4_000_001, missing: ["name", "city", "neighbourhood", "room_type", "accommodates"])) {
            try live.apply(.listing(ListingChange(id: 4_000_001)))
        }
        let outcomes = live.apply([
            .listing(added),
            .price(id: 4_000_000, from: first, to: first.advanced(by: 10), price: Money(minorUnits: 8_000)),
            .book(id: 4_000_000, checkIn: first, checkOut: first.advanced(by: 2), guests: nil),      // closed yet
            .availability(id: 4_000_000, from: first, to: first.advanced(by: 10), available: true),
            .price(id: 4_000_000, from: first.advanced(by: 1), to: first.advanced(by: 2), price: Money(minorUnits: 9_950)),
        ])
        #expect(outcomes.map { $0 == nil } == [true, true, false, true, true])
        var query = SearchQuery(region: "Gent", checkIn: first, checkOut: first.advanced(by: 3))
        query.amenities = ["sauna"]
        let found = try live.search(query)
        #expect(found.matches.map(\.id) == [4_000_000])
        #expect(found.matches.first?.totalPrice == Money(minorUnits: 8_000 + 9_950 + 8_000))
        #expect(try live.withIndex { index throws(QueryError) in try index.search(query).matches.map(\.totalPrice) } == [Money(minorUnits: 25_950)])
        // A frozen listing's price change moves it; its new total shows.
        let someone = try #require(try frozen.search(SearchQuery(checkIn: first.advanced(by: 5), checkOut: first.advanced(by: 7), limit: 1)).matches.first)
        try live.apply(.price(id: someone.id, from: first.advanced(by: 5), to: first.advanced(by: 7), price: Money(minorUnits: 1)))
        let cheapest = try live.search(SearchQuery(checkIn: first.advanced(by: 5), checkOut: first.advanced(by: 7), sort: .price, limit: 1))
        #expect(cheapest.matches.first?.id == someone.id && cheapest.matches.first?.totalPrice == Money(minorUnits: 2))
        // Removed, both kinds: gone from searches, unknown to changes.
        try live.apply(.remove(id: someone.id))
        try live.apply(.remove(id: 4_000_000))
        let after = try live.search(SearchQuery(checkIn: first.advanced(by: 5), checkOut: first.advanced(by: 7), limit: 1_000))
        #expect(!after.matches.contains { $0.id == someone.id || $0.id == 4_000_000 })
        #expect(after.total == (try frozen.search(SearchQuery(checkIn: first.advanced(by: 5), checkOut: first.advanced(by: 7), limit: 0)).total) - 1)
        #expect(throws: ChangeError.unknownListing(someone.id)) { try live.apply(.cancel(id: someone.id, checkIn: first, checkOut: first.advanced(by: 1))) }
        #expect(live.withIndex { $0.count } == frozen.count - 1)
    }

    /// A row's values decoded in one walk (what moving a listing into the overlay reads) are its values day
    /// by day: runs, weekly patterns and dense rows alike.
    @Test(arguments: 0..<10)
    func rowsDecodeWholeAsDayByDay(seed: Int) {
        let index = TestDataset.random(seed: UInt64(seed) + 77).makeIndex().index
        for row in 0..<index.count {
            #expect(index.nightPrices.values(row: row, dayCount: index.dayCount)
                    == (0..<index.dayCount).map { index.nightPrices.value(row: row, dayOffset: $0) })
            #expect(index.stayRules.values(row: row, dayCount: index.dayCount)
                    == (0..<index.dayCount).map { index.stayRules.value(row: row, dayOffset: $0) })
        }
    }

    @Test func rejectedChangesSayWhy() throws {
        let data = TestDataset.random(seed: 3)
        let frozen = data.makeIndex().index
        let live = LiveIndex(frozen)
        let id = data.listings[0].id
        let first = frozen.firstDay
        #expect(throws: ChangeError.unknownListing(42)) { try live.apply(.cancel(id: 42, checkIn: first, checkOut: first.advanced(by: 1))) }
        #expect(throws: ChangeError.noNights(from: first, to: first)) { try live.apply(.cancel(id: id, checkIn: first, checkOut: first)) }
        do {
            try live.apply(.availability(id: id, from: first.advanced(by: -1), to: first.advanced(by: 2), available: false))
            Issue.record("nights before the calendar were accepted")
        } catch {
            #expect(error.description.hasPrefix("the nights from \(first.advanced(by: -1)) to \(first.advanced(by: 2)) leave the index's calendar"))
        }
    }
}

extension Result {
    /// The error, when there is one.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

extension ReferenceAnswer {
    /// The answer with facet names folded (and the entries ordered again): a live index keeps the
    /// spelling its frozen index first saw, the reference the spelling first in the data as it is now.
    func foldingFacetNames() -> ReferenceAnswer {
        var answer = self
        answer.facets = facets.map { counts in
            let entries = counts.entries.map { entry in
                guard case .text(let name) = entry.value else { return entry }
                return FacetCounts.Entry(value: .text(TextFolding.fold(name)), count: entry.count)
            }
            return FacetCounts(facet: counts.facet, counted: entries, limit: Int.max)
        }
        return answer
    }
}
