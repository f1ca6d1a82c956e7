import StaySearchAPI
import ArgumentParser
import StayData
import StaySearch

#if canImport(Glibc)
import Glibc
#endif

/// `staysearch update`: live calendar changes to a saved index, each made durable in its journal before it
/// is answered.
struct UpdateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Apply live changes (JSON lines: bookings, prices, rules, listings) to a saved index, durably, without a rebuild.",
        discussion: """
            Each line is one change; nights are [from, to) like a stay:
              {"op": "book", "id": "50904", "checkin": "2024-07-12", "checkout": "2024-07-15", "guests": 2}
              {"op": "cancel", "id": "50904", "checkin": "2024-07-12", "checkout": "2024-07-15"}
              {"op": "availability", "id": "50904", "from": "2024-08-01", "to": "2024-08-10", "available": false}
              {"op": "price", "id": "50904", "from": "2024-08-01", "to": "2024-08-10", "price": 145}
              {"op": "rules", "id": "50904", "from": "2024-08-01", "to": "2024-09-01", "minimum_nights": 3}
              {"op": "listing", "id": "99", "name": "Loft", "city": "Antwerp", "neighbourhood": "Zuid", \
            "room_type": "Entire home/apt", "accommodates": 4, "price": 120}
              {"op": "remove", "id": "50904"}
            A booking is accepted only when the stay is bookable now by the search rules. A new listing \
            needs name, city, neighbourhood, room_type and accommodates, and has no calendar until \
            'price' gives its nights one (closed until 'availability' opens them). Each line is \
            answered in order, {"ok":true,"seq":N} once the change is in the journal beside the index \
            (FILE.journal) and on disk, or an error object ({"error", "message", "code", "type"}), which changes nothing. Searches of the index \
            replay the journal; 'staysearch compact' folds it into the index.

            Example:
              echo '{"op": "book", "id": "50904", "checkin": "2024-06-30", "checkout": "2024-07-02"}' | staysearch update --index antwerp.ssx -
            """)

    @Option(name: .customLong("index"), help: ArgumentHelp("The saved index to change.", valueName: "FILE"))
    var indexPath: String

    @Argument(help: ArgumentHelp("The JSON lines file of changes ('-' for standard input).", valueName: "CHANGES.jsonl"))
    var changes: String

    @OptionGroup var clock: ClockOptions

    func run() throws {
        let input: FileDescriptor
        if changes == "-" {
            input = FileDescriptor(borrowing: 0, path: "standard input")
        } else {
            input = try FileDescriptor.openForReading(changes).file
        }
        let (live, journal) = try LiveIndexLoader.open(indexPath, today: clock.today)
        let clock = try self.clock.clock(for: live.calendarSpan, window: live.calendarSpan.first.distance(to: live.frozenCalendarEnd))
        defer { journal.close() }

        // Whatever one read brings (one line typed, or thousands from a file) is one group: applied under
        // one lock, written with one fsync, then answered.
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var carry: [UInt8] = []
        while true {
            let result: Result<Int, DataError> = buffer.withUnsafeMutableBytes { raw in
                Result { () throws(DataError) in try input.read(into: raw) }
            }
            let count = try result.get()
            var lines: [String] = []
            if count == 0 {
                if !carry.isEmpty { lines.append(String(decoding: carry, as: UTF8.self)) }
                carry = []
            } else {
                carry += buffer[0..<count]
                while let newline = carry.firstIndex(of: 0x0A) {
                    lines.append(String(decoding: carry[..<newline], as: UTF8.self))
                    carry.removeSubrange(...newline)
                }
            }
            if !lines.isEmpty { Standard.write(try ChangeBatch.answer(lines, live: live, journal: journal, clock: clock).text) }
            if count == 0 { break }
        }
    }
}
