import Foundation
import StayData
import StaySearch
import StaySearchTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite(.serialized) struct UpdateCommandTests {
    /// The shipped sample as a saved index in a scratch folder.
    private func sampleIndex() throws -> String {
        let path = Scratch.path("antwerp.ssx")
        let made = try CommandRunner.run(["import", "Antwerp=\(CommandRunner.packageRoot.path)/Data/antwerp", "--output", path])
        #expect(made.status == 0, "\(made.stderr)")
        return path
    }

    /// A change to nights before today is refused with its reason; one from today on goes through.
    @Test func changesToPastNightsAreRefused() throws {
        let index = try sampleIndex()
        let lines = [
            #"{"op": "availability", "id": "50904", "from": "2024-07-12", "to": "2024-07-20", "available": false}"#,
            #"{"op": "availability", "id": "50904", "from": "2024-07-13", "to": "2024-07-20", "available": false}"#,
        ]
        let answered = try CommandRunner.run(["update", "--index", index, "--today", "2024-07-13", "-"], input: lines.joined(separator: "\n") + "\n")
        let answers = answered.stdout.split(separator: "\n").map(String.init)
        #expect(answered.status == 0 && answers.count == 2, "\(answered.stderr)")
        #expect(answers.first == ExpectedError.json("the nights from 2024-07-12 start before today (2024-07-13): past nights cannot be changed",
                                                    code: "nights_before_today"))
        #expect(answers.last?.hasPrefix(#"{"ok":true"#) == true)
    }

    @Test func booksCancelsAndCompacts() throws {
        let index = try sampleIndex()
        let stay = ["--index", index, "--region", "Centraal Station", "--checkin", "2024-07-12", "--checkout", "2024-07-15", "--adults", "2",
                    "--format", "json", "--limit", "1"]
        let before = try CommandRunner.run(["search"] + stay)
        let total = try #require((try JSONSerialization.jsonObject(with: Data(before.stdout.utf8)) as? [String: Any])?["total"] as? Int)
        let first = try #require(((try JSONSerialization.jsonObject(with: Data(before.stdout.utf8)) as? [String: Any])?["results"] as? [[String: Any]])?.first)
        let id = try #require(first["id"] as? String)
        let lines = [
            #"{"op": "book", "id": "\#(id)", "checkin": "2024-07-13", "checkout": "2024-07-14", "guests": 2}"#,
            #"{"op": "book", "id": "\#(id)", "checkin": "2024-07-12", "checkout": "2024-07-15"}"#,
            #"{"op": "price", "id": "\#(id)", "from": "2024-07-12", "to": "2024-07-15", "price": 10}"#,
            #"{"op": "book", "id": "1", "checkin": "2024-07-12", "checkout": "2024-07-15"}"#,
            #"{"op": "cancel", "id": "\#(id)", "checkin": "2025-07-12", "checkout": "2025-07-15"}"#,
            #"{"op": "book", "id": "\#(id)", "checkin": "2024-07-12"}"#,
            "not json",
        ]
        let saved = try Data(contentsOf: URL(fileURLWithPath: index))
        let update = try CommandRunner.run(["update", "--index", index, "-"], input: lines.joined(separator: "\n") + "\n")
        // Changes write into a private copy-on-write mapping: the index file itself is untouched.
        #expect(try Data(contentsOf: URL(fileURLWithPath: index)) == saved)
        #expect(update.status == 0, "\(update.stderr)")
        let answers = update.stdout.split(separator: "\n").map(String.init)
        #expect(answers.count == lines.count)
        #expect(answers[0] == #"{"ok":true,"seq":1}"#)
        #expect(answers[1].hasPrefix(#"{"error":"listing \#(id) cannot be booked for that stay: the night of 2024-07-13 is booked"#), "\(answers[1])")
        #expect(answers[2] == #"{"ok":true,"seq":2}"#)
        #expect(answers[3] == ExpectedError.json("no listing with id 1", code: "listing_not_found"))
        #expect(answers[4].contains("leave the index's calendar (2024-06-29 to 2025-06-29, end exclusive)"))
        #expect(answers[5].contains("checkout must be a date string"))
        #expect(answers[6].hasPrefix(#"{"error":"not a JSON object"#))
        // Searches replay the journal: the listing no longer matches those dates.
        let after = try CommandRunner.run(["search"] + stay)
        #expect((try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [String: Any])?["total"] as? Int == total - 1)
        // Compacted: the same answers from the new index alone, and the journal starts again after seq 2.
        let compact = try CommandRunner.run(["compact", "--index", index])
        #expect(compact.status == 0 && compact.stdout.hasPrefix("compacted 2 changes into \(index)"), "\(compact.stdout)\(compact.stderr)")
        #expect(try ChangeJournal.read(path: index + ".journal", identity: try IndexFileReader.identity(ofIndexAt: index)).changes.isEmpty)
        #expect(try CommandRunner.run(["search"] + stay).stdout == after.stdout)
        let cancel = try CommandRunner.run(["update", "--index", index, "-"],
                                           input: #"{"op": "cancel", "id": "\#(id)", "checkin": "2024-07-13", "checkout": "2024-07-14"}"# + "\n")
        #expect(cancel.stdout == #"{"ok":true,"seq":3}"# + "\n")
        #expect(try CommandRunner.run(["search"] + stay).stdout.hasPrefix(#"{"total":\#(total),"#))
        // A damaged journal is refused with one line, and the index and journal are left as they were.
        var journal = try Data(contentsOf: URL(fileURLWithPath: index + ".journal"))
        journal.append(contentsOf: [UInt8](repeating: 7, count: 100))
        try journal.write(to: URL(fileURLWithPath: index + ".journal"))
        let refused = try CommandRunner.run(["search"] + stay)
        #expect(refused.status != 0 && refused.stderr.contains("the journal is damaged at byte"), "\(refused.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: index + ".journal")) == journal)
    }

    /// An index that follows a database (its journal written by a replica, with position records): `update`
    /// refuses it, as the next load would drop changes written beside the log; `compact` folds the followed
    /// changes in and keeps the position they reached, so that a replica started on it resumes there.
    @Test func aFollowedIndexIsCompactedWithItsPositionAndNotUpdated() throws {
        let index = try sampleIndex()
        let stay = ["--index", index, "--checkin", "2024-07-12", "--checkout", "2024-07-15", "--adults", "2", "--format", "json", "--limit", "3"]
        let before = try CommandRunner.run(["search"] + stay)
        let results = try #require((try JSONSerialization.jsonObject(with: Data(before.stdout.utf8)) as? [String: Any])?["results"] as? [[String: Any]])
        let ids = results.compactMap { ($0["id"] as? String).flatMap { Int64($0) } }
        #expect(ids.count == 3)
        let (journal, _) = try ChangeJournal.open(path: index + ".journal", identity: try IndexFileReader.identity(ofIndexAt: index))
        journal.appendPosition(40)
        for id in ids { journal.append(.book(id: id, checkIn: Day(year: 2024, month: 7, day: 13)!, checkOut: Day(year: 2024, month: 7, day: 14)!, guests: nil)) }
        journal.appendPosition(43)
        try journal.commit()
        journal.close()
        let followed = try CommandRunner.run(["search"] + stay)
        #expect(followed.stdout != before.stdout)

        let update = try CommandRunner.run(["update", "--index", index, "-"], input: #"{"op": "remove", "id": "\#(ids[0])"}"# + "\n")
        #expect(update.status == 64 && update.stderr.contains("follows a database (change-log position 43)"), "\(update.stderr)")
        #expect(try ChangeJournal.read(path: index + ".journal", identity: try IndexFileReader.identity(ofIndexAt: index)).changes.count == 3)

        let compact = try CommandRunner.run(["compact", "--index", index])
        #expect(compact.status == 0 && compact.stdout.contains("at change-log position 43"), "\(compact.stdout)\(compact.stderr)")
        #expect(try IndexFileReader.changeLogPosition(ofIndexAt: index) == 43)
        #expect(try CommandRunner.run(["search"] + stay).stdout == followed.stdout)
    }

    /// SIGKILL at random moments during streams of thousands of changes: after each, every acknowledged
    /// change is in the journal, and the index with its journal answers as a fresh import of the final
    /// calendars does (and as the reference does).
    @Test func killedUpdatesLoseNoAcknowledgedChange() throws {
        signal(SIGPIPE, SIG_IGN)
        var reference = TestDataset.random(seed: 4_242, maximumListings: 150).inFileOrder
        let folder = Scratch.directory("fault")
        let dataArguments = try reference.writeInsideAirbnb(to: folder + "/csv")
        let index = folder + "/index.ssx"
        #expect(try CommandRunner.run(["import"] + dataArguments + ["--output", index]).status == 0)
        let frozen = try IndexFileReader.load(from: index)
        let end = frozen.firstDay.advanced(by: frozen.dayCount)
        var random = SeededGenerator(seed: 99)
        var journalled = 0          // changes in the journal before this round
        var acknowledgedTotal = 0
        var cutShort = 0            // rounds killed before they answered every line
        for round in 0..<10 {
            if round == 5 {
                #expect(try CommandRunner.run(["compact", "--index", index]).status == 0)
                journalled = 0
            }
            let changes = (0..<3_000).map { _ in reference.randomChange(using: &random, listingChanges: 0.02) }
            let answers = try runKilled(index: index, lines: changes.map(jsonLine), after: Double.random(in: 0.005...0.25, using: &random))
            if answers.count < changes.count { cutShort += 1 }
            let contents = try ChangeJournal.read(path: index + ".journal", identity: try IndexFileReader.identity(ofIndexAt: index))
            let added = Array(contents.changes.dropFirst(journalled))
            // Every acknowledged change is there, under its number; every journalled one was accepted.
            for (line, answer) in zip(changes, answers) where answer.hasPrefix(#"{"ok":true"#) {
                let sequence = Int(answer.dropFirst(#"{"ok":true,"seq":"#.count).dropLast()) ?? -1
                let position = sequence - Int(contents.firstSequence)
                #expect(contents.changes.indices.contains(position), "round \(round): \(answer) is not in the journal")
                if contents.changes.indices.contains(position) {
                    #expect(contents.changes[position] == line, "round \(round) seq \(sequence)")
                }
                acknowledgedTotal += 1
            }
            #expect(added.count >= answers.filter { $0.hasPrefix(#"{"ok""#) }.count)
            for change in added {
                let accepted = reference.apply(change, calendarStart: frozen.firstDay, calendarEnd: end)
                #expect(accepted, "round \(round): \(change)")
            }
            journalled = contents.changes.count
        }
        #expect(acknowledgedTotal > 100)
        #expect(cutShort >= 3, "only \(cutShort) of 10 rounds were killed mid-stream")
        // The index and its journal against a fresh import of the final calendars.
        let fresh = Scratch.directory("fresh")
        let freshArguments = try reference.writeInsideAirbnb(to: fresh)
        let queries = (0..<150).map { _ in reference.randomQuery(using: &random) }
        // Both at the index's today: the fresh import's calendars may start later or end sooner (the listings
        // that held their first or last days may be gone), so a stay outside its days is refused there where
        // the index answers no stay; both mean the same (``foldingFacetNames`` reads both as no stay).
        let today = ["--today", frozen.firstDay.description]
        let replayed = try CommandRunner.run(["batch", "--index", index, "--queries", "-"] + today,
                                             input: queries.map(BatchQueryLine.json).joined(separator: "\n") + "\n")
        let imported = try CommandRunner.run(["batch", "--queries", "-"] + today + freshArguments.flatMap { ["--data", $0] },
                                             input: queries.map(BatchQueryLine.json).joined(separator: "\n") + "\n")
        let strip = { (text: String) -> [String] in text.split(separator: "\n").map { String($0).replacing(/"took_us":\d+/, with: "") } }
        #expect(replayed.status == 0 && imported.status == 0, "\(replayed.stderr)\(imported.stderr)")
        // Facet names compared folded: which spelling of a name shows depends on the order listings come in,
        // and a compacted index keeps its rows in region order, not the files' order.
        let (replayedAnswers, importedAnswers) = (strip(replayed.stdout), strip(imported.stdout))
        #expect(replayedAnswers.count == queries.count && importedAnswers.count == queries.count)
        for (query, (a, b)) in zip(queries, zip(replayedAnswers, importedAnswers)) {
            // Dates outside the fresh import's shorter calendar are checked before the query's names: there the
            // index may refuse an unknown name where the fresh import refused the dates first.
            if b.contains(#""code":"dates_outside_calendar""#), a.contains(#""type":"invalid_request""#) { continue }
            #expect(try foldingFacetNames(a) == foldingFacetNames(b), "\(BatchQueryLine.json(query))\n index: \(a.prefix(400))\n fresh: \(b.prefix(400))")
        }
        // Not a trivial comparison: some of the queries find stays (how many depends on where the kills fell: 8
        // of 150 in one run).
        let withMatches = strip(replayed.stdout).filter { !$0.hasPrefix(#"{"total":0,"#) && !$0.hasPrefix(#"{"error""#) }
        #expect(withMatches.count >= 4)
    }

    /// A search answer's JSON with its facet values folded and each facet's entries ordered again; an
    /// answer without a stay (no match, or dates outside the data's days) as `{"total": 0}`; a line that is
    /// not a JSON object fails the test (two broken lines must not compare equal).
    private func foldingFacetNames(_ line: String) throws -> NSDictionary {
        let parsed = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        var object = try #require(parsed, "not a JSON object: \(line.prefix(200))")
        if object["total"] as? Int == 0 || object["code"] as? String == "dates_outside_calendar" { return ["total": 0] }
        if let facets = object["facets"] as? [String: [[String: Any]]] {
            object["facets"] = facets.mapValues { entries in
                entries.map { entry -> [String: Any] in
                    var entry = entry
                    if let text = entry["value"] as? String { entry["value"] = TextFolding.fold(text) }
                    return entry
                }.sorted { a, b in
                    let (countA, countB) = (a["count"] as? Int ?? 0, b["count"] as? Int ?? 0)
                    return countA != countB ? countA > countB : "\(a["value"] ?? "")" < "\(b["value"] ?? "")"
                }
            }
        }
        return object as NSDictionary
    }

    /// Starts `update`, feeds it `lines`, kills it with SIGKILL after `seconds`, and returns the answers it
    /// had printed whole. Its output is read while it runs (a full pipe would stop it before the kill, and a
    /// kill in the middle of a write larger than the pipe's atomic size leaves a torn last line, which is no
    /// answer); the input goes in 4 KB pieces a few milliseconds apart, so that the stream lasts longer than
    /// most of the kill times on any machine and the process answers in many groups.
    private func runKilled(index: String, lines: [String], after seconds: Double) throws -> [String] {
        let process = Process()
        process.executableURL = CommandRunner.binary
        process.arguments = ["update", "--index", index, "-"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let writer = Thread {
            let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
            let descriptor = input.fileHandleForWriting.fileDescriptor
            var offset = 0
            while offset < bytes.count {
                let count = bytes[offset...].prefix(4_096).withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                offset += count
                usleep(3_000)
            }
            try? input.fileHandleForWriting.close()
        }
        let printed = OutputBox()
        let reader = Thread {
            printed.data = output.fileHandleForReading.readDataToEndOfFile()
            printed.done.signal()
        }
        writer.start()
        reader.start()
        Thread.sleep(forTimeInterval: seconds)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        printed.done.wait()
        var whole = printed.data
        while let last = whole.last, last != UInt8(ascii: "\n") { whole.removeLast() }
        return String(decoding: whole, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// What the reader thread of ``runKilled(index:lines:after:)`` read, handed over through a semaphore.
    private final class OutputBox: @unchecked Sendable {
        var data = Data()
        let done = DispatchSemaphore(value: 0)
    }

    private func jsonLine(_ change: CalendarChange) -> String {
        switch change {
        case let .book(id, checkIn, checkOut, guests):
            return #"{"op": "book", "id": "\#(id)", "checkin": "\#(checkIn)", "checkout": "\#(checkOut)""# + (guests.map { #", "guests": \#($0)}"# } ?? "}")
        case let .cancel(id, checkIn, checkOut):
            return #"{"op": "cancel", "id": \#(id), "checkin": "\#(checkIn)", "checkout": "\#(checkOut)"}"#
        case let .availability(id, from, to, available):
            return #"{"op": "availability", "id": "\#(id)", "from": "\#(from)", "to": "\#(to)", "available": \#(available)}"#
        case let .price(id, from, to, price):
            return #"{"op": "price", "id": "\#(id)", "from": "\#(from)", "to": "\#(to)", "price": \#(price?.decimalText ?? "null")}"#
        case let .rules(id, from, to, minimum, maximum):
            return #"{"op": "rules", "id": "\#(id)", "from": "\#(from)", "to": "\#(to)""#
                + (minimum.map { #", "minimum_nights": \#($0)"# } ?? "") + (maximum.map { #", "maximum_nights": \#($0)"# } ?? "") + "}"
        case let .remove(id):
            return #"{"op": "remove", "id": "\#(id)"}"#
        case .days:
            preconditionFailure("no client sends a days change")
        case let .listing(change):
            var fields = [#""op": "listing""#, #""id": "\#(change.id)""#]
            func quoted(_ text: String) -> String {
                "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            }
            if let name = change.name { fields.append(#""name": \#(quoted(name))"#) }
            if let city = change.city { fields.append(#""city": \#(quoted(city))"#) }
            if let group = change.neighbourhoodGroup { fields.append(#""neighbourhood_group": \#(quoted(group))"#) }
            if let neighbourhood = change.neighbourhood { fields.append(#""neighbourhood": \#(quoted(neighbourhood))"#) }
            if let roomType = change.roomType { fields.append(#""room_type": \#(quoted(roomType))"#) }
            if let accommodates = change.accommodates { fields.append(#""accommodates": \#(accommodates)"#) }
            if let price = change.price { fields.append(#""price": \#(price?.decimalText ?? "null")"#) }
            if let minimum = change.minimumNights { fields.append(#""minimum_nights": \#(minimum)"#) }
            if let maximum = change.maximumNights { fields.append(#""maximum_nights": \#(maximum)"#) }
            if let rating = change.ratingHundredths { fields.append(#""rating": \#(rating.map { Money(minorUnits: Int64($0)).decimalText } ?? "null")"#) }
            if let reviews = change.reviewCount { fields.append(#""reviews": \#(reviews)"#) }
            if let latitude = change.latitude { fields.append(#""latitude": \#(latitude)"#) }
            if let longitude = change.longitude { fields.append(#""longitude": \#(longitude)"#) }
            if let bedrooms = change.bedrooms { fields.append(#""bedrooms": \#(bedrooms.map(String.init) ?? "null")"#) }
            if let beds = change.beds { fields.append(#""beds": \#(beds.map(String.init) ?? "null")"#) }
            if let halves = change.bathroomHalves { fields.append(#""bathrooms": \#(halves.map { String(Double($0) / 2) } ?? "null")"#) }
            if let type = change.propertyType { fields.append(#""property_type": \#(quoted(type))"#) }
            if let amenities = change.amenities { fields.append(#""amenities": [\#(amenities.map(quoted).joined(separator: ", "))]"#) }
            if let instant = change.isInstantBookable { fields.append(#""instant_bookable": \#(instant)"#) }
            if let superhost = change.isSuperhost { fields.append(#""superhost": \#(superhost)"#) }
            for (key, amount) in [("cleaning_fee", change.cleaningFee), ("extra_guest_fee", change.extraGuestFee),
                                  ("security_deposit", change.securityDeposit)] {
                if let amount { fields.append(#""\#(key)": \#(amount?.decimalText ?? "null")"#) }
            }
            if let included = change.guestsIncluded { fields.append(#""guests_included": \#(included)"#) }
            if let weekly = change.weeklyDiscountBasisPoints { fields.append(#""weekly_discount": \#(PlatformFees.percentText(weekly))"#) }
            if let monthly = change.monthlyDiscountBasisPoints { fields.append(#""monthly_discount": \#(PlatformFees.percentText(monthly))"#) }
            return "{" + fields.joined(separator: ", ") + "}"
        }
    }
}
