import StayData
import StaySearch

/// A group of change lines (of `staysearch update` or `POST /v1/changes`) applied together.
package enum ChangeBatch {
    /// The answers to a group of lines: one JSON line each, and each refused line's error.
    package struct Answers {
        /// One JSON line per change line, in order.
        package var text = ""
        /// For each line, its error when it was refused.
        package var errors: [APIError?] = []
    }

    /// Applies one group of lines and returns their answers once the accepted ones are durable. A change to
    /// nights before `clock`'s today is refused before it reaches the index.
    package static func answer(_ lines: [String], live: LiveIndex, journal: ChangeJournal, clock: StayClock) throws -> Answers {
        let parsed = lines.map { line in ChangeLine.read(line.hasSuffix("\r") ? String(line.dropLast()) : line, clock: clock) }
        var outcomes = live.apply(parsed.compactMap { try? $0.get() }).makeIterator()
        var answers = Answers()
        for item in parsed {
            var refusal: APIError?
            switch item {
            case .failure(let error):
                refusal = error
            case .success(let change):
                refusal = outcomes.next()!.map { APIError($0) }
                if refusal == nil { answers.text += "{\"ok\":true,\"seq\":\(journal.append(change))}\n" }
            }
            if let refusal { answers.text += refusal.json + "\n" }
            answers.errors.append(refusal)
        }
        try journal.commit()
        return answers
    }
}
