import StayData
import StaySearch

/// A group of change lines (of `staysearch update` or `POST /v1/changes`) applied together.
package enum ChangeBatch {
    /// Applies one group of lines and returns their answers once the accepted ones are durable.
    package static func answer(_ lines: [String], live: LiveIndex, journal: ChangeJournal) throws -> String {
        var parsed: [Result<CalendarChange, APIError>] = []
        for line in lines {
            let trimmed = line.hasSuffix("\r") ? String(line.dropLast()) : line
            parsed.append(ChangeLine.read(trimmed))
        }
        let changes = parsed.compactMap { try? $0.get() }
        var outcomes = live.apply(changes).makeIterator()
        var output = ""
        var sequences: [UInt64?] = []
        for item in parsed {
            switch item {
            case .failure(let error):
                output += error.json + "\n"
                sequences.append(nil)
            case .success(let change):
                if let rejection = outcomes.next()! {
                    output += APIError(rejection).json + "\n"
                } else {
                    output += "{\"ok\":true,\"seq\":\(journal.append(change))}\n"
                }
            }
        }
        try journal.commit()
        return output
    }
}
