import StayData
import StaySearch

/// A group of change lines (of `staysearch update` or `POST /v1/changes`) applied together.
package enum ChangeBatch {
    /// Applies one group of lines and returns their answers once the accepted ones are durable. A change to
    /// nights before `clock`'s today is refused before it reaches the index.
    package static func answer(_ lines: [String], live: LiveIndex, journal: ChangeJournal, clock: StayClock) throws -> String {
        var parsed: [Result<CalendarChange, APIError>] = []
        for line in lines {
            let trimmed = line.hasSuffix("\r") ? String(line.dropLast()) : line
            parsed.append(ChangeLine.read(trimmed, clock: clock))
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

    /// The error of a one-line answer, if it is one.
    package static func refusal(in answer: String) -> ErrorCode? {
        guard answer.hasPrefix(#"{"error":"#), let range = answer.range(of: #""code":""#) else { return nil }
        let rest = answer[range.upperBound...]
        return rest.firstIndex(of: "\"").flatMap { ErrorCode(rawValue: String(rest[..<$0])) }
    }
}
