import Foundation
import StayData
import StaySearch
import StaySearchTestSupport
import Testing

@Suite struct ChangeJournalTests {
    static let identity: UInt64 = 0x1234_5678_9ABC_DEF0
    static let day = Day(iso: "2025-03-01")!

    static func changes(_ count: Int) -> [CalendarChange] {
        (0..<count).map { k in
            let from = day.advanced(by: k % 40)
            switch k % 4 {
            case 0: return .book(id: Int64(k), checkIn: from, checkOut: from.advanced(by: 3), guests: k % 8 == 0 ? nil : 2)
            case 1: return .cancel(id: -Int64(k), checkIn: from, checkOut: from.advanced(by: 1))
            case 2: return .availability(id: 1 << 60, from: from, to: from.advanced(by: 30), available: true)
            default: return .availability(id: 7, from: from, to: from.advanced(by: 2), available: false)
            }
        }
    }

    /// A journal of `count` committed changes; returns its path and bytes.
    static func written(_ count: Int) throws -> (String, Data) {
        let path = Scratch.path("index.ssx.journal")
        let (journal, contents) = try ChangeJournal.open(path: path, identity: identity)
        #expect(contents.changes.isEmpty && contents.warnings.isEmpty)
        for (k, change) in changes(count).enumerated() {
            #expect(journal.append(change) == UInt64(k + 1))
            if k % 7 == 6 { try journal.commit() }
        }
        try journal.commit()
        journal.close()
        return (path, try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func keepsEveryCommittedChangeInOrder() throws {
        let (path, _) = try Self.written(50)
        let contents = try ChangeJournal.read(path: path, identity: Self.identity)
        #expect(contents.changes == Self.changes(50))
        #expect(contents.firstSequence == 1 && contents.lastSequence == 50 && contents.warnings.isEmpty)
        // Reopened, it goes on from 51.
        let (journal, again) = try ChangeJournal.open(path: path, identity: Self.identity)
        #expect(again.changes.count == 50)
        #expect(journal.append(Self.changes(1)[0]) == 51)
        try journal.commit()
        #expect(try ChangeJournal.read(path: path, identity: Self.identity).changes.count == 51)
    }

    /// Every kind of change comes back as written, including `listing` changes of 17 bytes (no field) and of
    /// exactly 25 bytes (one number), the size of every other record.
    @Test func everyKindOfChangeComesBackAsWritten() throws {
        var priceOnly = ListingChange(id: 42)
        priceOnly.price = .some(Money(minorUnits: 12_345))
        var priceCleared = ListingChange(id: 43)
        priceCleared.price = .some(nil)
        var named = ListingChange(id: -44)
        named.name = "Zimmer \u{e9}"
        named.latitude = 51.2
        named.amenities = ["Wifi", "Pool"]
        var fees = ListingChange(id: 46)
        fees.setFees(ListingFees(cleaningFee: Money(minorUnits: 4_500), guestsIncluded: 2, extraGuestFee: Money(minorUnits: 1_000),
                                 weeklyDiscountBasisPoints: 1_250, monthlyDiscountBasisPoints: 2_500, securityDeposit: nil))
        var feeCleared = ListingChange(id: 47)
        feeCleared.cleaningFee = .some(nil)
        feeCleared.weeklyDiscountBasisPoints = 0
        let day = Self.day
        let all: [CalendarChange] = [
            .listing(priceOnly), .listing(priceCleared), .listing(named), .listing(ListingChange(id: 45)), .listing(fees), .listing(feeCleared),
            .book(id: 1, checkIn: day, checkOut: day.advanced(by: 2), guests: 3),
            .cancel(id: 2, checkIn: day, checkOut: day.advanced(by: 1)),
            .availability(id: 3, from: day, to: day.advanced(by: 9), available: true),
            .price(id: 4, from: day, to: day.advanced(by: 5), price: Money(minorUnits: 9_900)),
            .price(id: 5, from: day, to: day.advanced(by: 5), price: nil),
            .rules(id: 6, from: day, to: day.advanced(by: 5), minimumNights: 2, maximumNights: nil),
            .remove(id: Int64.min),
        ]
        let path = Scratch.path("kinds.ssx.journal")
        let (journal, _) = try ChangeJournal.open(path: path, identity: Self.identity)
        for change in all { _ = journal.append(change) }
        try journal.commit()
        journal.close()
        let contents = try ChangeJournal.read(path: path, identity: Self.identity)
        #expect(contents.changes == all && contents.warnings.isEmpty)
    }

    /// A crash mid-write leaves part of the last record: every such cut is dropped with a warning, the
    /// rest kept, and the next append writes over the torn bytes.
    @Test func aTornLastRecordIsDroppedAndTheRestKept() throws {
        let (path, bytes) = try Self.written(20)
        let recordSize = (bytes.count - 32) / 20
        for cut in 1..<recordSize {
            let torn = Scratch.path("torn.journal")
            try bytes.prefix(bytes.count - cut).write(to: URL(fileURLWithPath: torn))
            let contents = try ChangeJournal.read(path: torn, identity: Self.identity)
            #expect(contents.changes == Array(Self.changes(20).prefix(19)), "cut \(cut)")
            #expect(contents.warnings.count == 1 && contents.warnings[0].contains("dropped a torn last record"))
            let (journal, _) = try ChangeJournal.open(path: torn, identity: Self.identity)
            #expect(journal.append(Self.changes(20)[19]) == 20)
            try journal.commit()
            journal.close()
            #expect(try ChangeJournal.read(path: torn, identity: Self.identity).changes == Self.changes(20), "cut \(cut)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: torn)) == bytes)
        }
        _ = path
    }

    @Test func damageBeforeTheLastRecordIsRefused() throws {
        let (_, bytes) = try Self.written(20)
        let recordSize = (bytes.count - 32) / 20
        for record in [0, 5, 18] {
            for offset in [0, 4, 13, recordSize - 1] {
                var damaged = bytes
                damaged[32 + record * recordSize + offset] ^= 0x40
                let path = Scratch.path("damaged.journal")
                try damaged.write(to: URL(fileURLWithPath: path))
                do {
                    _ = try ChangeJournal.read(path: path, identity: Self.identity)
                    Issue.record("damage in record \(record + 1) at \(offset) was not noticed")
                } catch {
                    #expect(error.description.contains("the journal is damaged at byte \(32 + record * recordSize)"), "\(error)")
                    #expect(!error.description.contains("\n"))
                }
                // Nor does opening it for appending change it.
                #expect(throws: DataError.self) { try ChangeJournal.open(path: path, identity: Self.identity) }
                #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == damaged)
            }
        }
        // Damage in the last record looks like a torn write: dropped, with a warning.
        var damaged = bytes
        damaged[bytes.count - 3] ^= 1
        let path = Scratch.path("last.journal")
        try damaged.write(to: URL(fileURLWithPath: path))
        let contents = try ChangeJournal.read(path: path, identity: Self.identity)
        #expect(contents.changes.count == 19 && contents.warnings.count == 1)
        // A damaged header is refused.
        var header = bytes
        header[20] ^= 1
        try header.write(to: URL(fileURLWithPath: path))
        #expect(throws: DataError.self) { try ChangeJournal.read(path: path, identity: Self.identity) }
    }

    @Test func otherIndexesTornHeadersAndStrangersAreToldApart() throws {
        let (path, bytes) = try Self.written(5)
        let other = try ChangeJournal.read(path: path, identity: 1)
        #expect(other.changes.isEmpty && other.warnings[0].contains("belongs to another index"))
        let (journal, reopened) = try ChangeJournal.open(path: path, identity: 1)
        #expect(reopened.changes.isEmpty)
        #expect(journal.append(Self.changes(1)[0]) == 1)
        try journal.commit()
        #expect(try ChangeJournal.read(path: path, identity: 1).changes.count == 1)

        let torn = Scratch.path("header.journal")
        try bytes.prefix(10).write(to: URL(fileURLWithPath: torn))
        let contents = try ChangeJournal.read(path: torn, identity: Self.identity)
        #expect(contents.changes.isEmpty && contents.warnings[0].contains("header is torn"))

        let stranger = Scratch.path("stranger.journal")
        try Data("id,name\n1,x\n".utf8).write(to: URL(fileURLWithPath: stranger))
        #expect(throws: DataError.malformedFile(path: stranger, reason: "not a staysearch change journal (it does not start with SSJRNL01)")) {
            try ChangeJournal.read(path: stranger, identity: Self.identity)
        }
        #expect(try ChangeJournal.read(path: Scratch.path("missing.journal"), identity: 5).changes.isEmpty)
    }

    /// A replica's journal: groups of followed changes, each closed by the log position it reaches. A load
    /// replays up to the last position record and drops what follows it (a group not followed whole, read
    /// from the log again), however the file was cut.
    @Test func followedChangesAreKeptUpToTheirLastPosition() throws {
        let path = Scratch.path("followed.ssx.journal")
        let (journal, _) = try ChangeJournal.open(path: path, identity: Self.identity)
        journal.appendPosition(7)
        try journal.commit()
        let changes = Self.changes(9)
        for group in 0..<3 {
            for change in changes[(group * 3)..<(group * 3 + 3)] { journal.append(change) }
            journal.appendPosition(UInt64(10 + group * 5))
            try journal.commit()
        }
        journal.close()
        let whole = try ChangeJournal.read(path: path, identity: Self.identity)
        #expect(whole.changes == changes && whole.followedPosition == 20 && whole.warnings.isEmpty)

        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let record = 25 + 20
        for cut in 1..<(4 * record) {
            let torn = Scratch.path("followed-torn.journal")
            try bytes.prefix(bytes.count - cut).write(to: URL(fileURLWithPath: torn))
            let contents = try ChangeJournal.read(path: torn, identity: Self.identity)
            // Cut into the last group (its three changes and its position): back to the group before.
            #expect(contents.followedPosition == 15 && contents.changes == Array(changes.prefix(6)), "cut \(cut)")
            let (again, _) = try ChangeJournal.open(path: torn, identity: Self.identity)
            for change in changes[6...] { again.append(change) }
            again.appendPosition(20)
            try again.commit()
            again.close()
            #expect(try Data(contentsOf: URL(fileURLWithPath: torn)) == bytes, "cut \(cut)")
        }
        // A journal that never followed has no position.
        let (plain, _) = try Self.written(3)
        #expect(try ChangeJournal.read(path: plain, identity: Self.identity).followedPosition == nil)
    }
}
