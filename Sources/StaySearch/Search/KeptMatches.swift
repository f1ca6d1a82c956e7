import StaySearchKernels

/// Where a scan for the `recommended` order keeps the matches of its upper tier (``QualityTier``): the
/// values in the query's price range of the tier's rows, each with its row and quality, one after another.
/// Only these can enter the page when its worst score is above the tier's threshold plus the most the
/// price part adds (``ListingIndex/recommendedPageByTier(_:kept:count:outcome:values:threads:)``).
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

    /// The same with room from element `offset` on (a part's stretch).
    func advanced(by offset: Int) -> KeptMatches {
        KeptMatches(tierWords: tierWords, tierRanks: tierRanks, tierQualities: tierQualities, threshold: threshold,
                    values: values + offset, rows: rows + offset, qualities: qualities + offset)
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
