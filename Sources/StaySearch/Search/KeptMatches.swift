import StaySearchKernels

/// Where a scan for the `recommended` order keeps the matches of its upper tier (``QualityTier``): the
/// values in the query's price range of the tier's rows, each with its row and quality, one after another.
/// Only these can enter the page when its worst score is above the tier's threshold plus the most the
/// price part adds (``ListingIndex/recommendedPageByTier(_:kept:count:outcome:values:threads:)``).
///
/// Beside them, each part of the scan keeps its first ``everyCapacity`` matches of every row (value and
/// row) while its tier holds fewer than ``tierEnough`` matches: when the tier then cannot tell the page (too
/// few tier matches for a page, as a city's query with narrow filters has, or a page too close to the
/// tier's threshold) and the scan had no more matches than that, the page is ranked from these rather than
/// from a second scan keeping every match.
struct KeptMatches: @unchecked Sendable {
    /// The tier's rows as bits, their ranks by word and their qualities (``QualityTier``).
    let tierWords: UnsafePointer<UInt64>
    let tierRanks: UnsafePointer<UInt32>
    let tierQualities: UnsafePointer<Int32>
    /// The least quality of the tier.
    let threshold: Int32
    let values: UnsafeMutablePointer<Int64>
    let rows: UnsafeMutablePointer<Int32>
    let qualities: UnsafeMutablePointer<Int32>
    /// Where a part keeps its first matches of every row: their values and rows, ``everyCapacity`` of each.
    let everyValues: UnsafeMutablePointer<Int64>
    let everyRows: UnsafeMutablePointer<Int32>
    /// The tier matches from which a part keeps no more matches of every row: four pages' worth. A tier
    /// with as many rarely fails to tell the page, and a scan whose tier tells it had no use for them
    /// (keeping them through a whole city's scan cost a narrow price range's queries up to 15 %).
    let tierEnough: Int

    /// How many matches of every row a part keeps at most.
    static let everyCapacity = 4_096
    var everyCapacity: Int { KeptMatches.everyCapacity }

    /// The same with room for the tier's matches from element `offset` on (a part's stretch), and part
    /// `part`'s room for every match.
    func advanced(by offset: Int, part: Int) -> KeptMatches {
        KeptMatches(tierWords: tierWords, tierRanks: tierRanks, tierQualities: tierQualities, threshold: threshold,
                    values: values + offset, rows: rows + offset, qualities: qualities + offset,
                    everyValues: everyValues + part * everyCapacity, everyRows: everyRows + part * everyCapacity,
                    tierEnough: tierEnough)
    }

    /// Keeps, after the `kept` matches of every row kept so far, the `matches` values of `values[0 ..< count]`
    /// in `lowest ... highest` with their rows `rows[i]`; returns how many are kept now, or ``everyCapacity`` + 1
    /// when they do not all fit (then nothing more need be kept). The values between matches are passed
    /// over eight at a time (``staysearch_first_in_range``): a narrow price range's few matches among a
    /// block's values cost little more than the count the scan made of them.
    @inline(__always)
    func keepEvery(_ values: UnsafePointer<Int64>, rows: UnsafePointer<Int32>, count: Int, matches: Int, lowest: Int64,
                   highest: Int64, after kept: Int) -> Int {
        guard matches > 0 else { return kept }
        guard kept + matches <= everyCapacity else { return everyCapacity + 1 }
        if matches == count {
            (everyValues + kept).update(from: values, count: count)
            (everyRows + kept).update(from: rows, count: count)
            return kept + count
        }
        var position = 0
        for match in kept..<(kept + matches) {
            position = staysearch_first_in_range(values, position, count, lowest, highest)
            everyValues[match] = values[position]
            everyRows[match] = rows[position]
            position += 1
        }
        return kept + matches
    }

    /// Keeps, after the `kept` kept so far, the values in `lowest ... highest` of the rows of the tier among
    /// the candidates `candidates` of word `word`, whose values the scan wrote in row order from `written`;
    /// returns how many are kept now. Work for the tier's rows only (a tenth of the candidates), none for
    /// the others: ``staysearch_keep_tier`` (BMI2: the rows' places by bit extraction, not a popcount each).
    @inline(__always)
    func keep(word: Int, candidates: UInt64, written: UnsafePointer<Int64>, lowest: Int64, highest: Int64, after kept: Int) -> Int {
        let tierWord = tierWords[word]
        guard candidates & tierWord != 0 else { return kept }
        return staysearch_keep_tier(candidates, tierWord, written, lowest, highest, tierQualities + Int(tierRanks[word]),
                                    Int32(truncatingIfNeeded: word &<< 6), values, rows, qualities, kept)
    }
}
