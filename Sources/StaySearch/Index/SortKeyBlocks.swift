/// For each block of 4,096 rows, the best page key of the rating order and of the reviews order among
/// its rows, so that a scan whose page is full passes over a block none of whose rows could enter it
/// (its values still counted for the total and the histogram). Derived from the rating and review
/// columns when an index is made or loaded (one pass over the rows), never stored.
///
/// Keys are smaller for better rows, as the page ranks them: the rating order's key is
/// −((rating + 1) · 2^32 + reviews), the reviews order's −reviews.
package struct SortKeyBlocks: Sendable {
    /// log2 of the rows in a block.
    static let blockShift = 12

    /// Per block, the smallest rating-order key of its rows.
    let ratingKeys: Column<Int64>
    /// Per block, the smallest reviews-order key of its rows.
    let reviewKeys: Column<Int64>

    /// The rating order's key of a row with `rating` (hundredths, or ``ListingIndex/noRating``) and
    /// `reviews` reviews.
    @inline(__always)
    static func ratingKey(rating: Int16, reviews: Int32) -> Int64 {
        -((Int64(rating) + 1) << 32 | Int64(reviews))
    }

    /// The reviews order's key of a row with `reviews` reviews.
    @inline(__always)
    static func reviewsKey(reviews: Int32) -> Int64 {
        -Int64(reviews)
    }

    /// The blocks of `rows` rows of `ratings` and `reviewCounts`.
    /// - Complexity: O(*rows*).
    init(ratings: Column<Int16>, reviewCounts: Column<Int32>, rows: Int) {
        let blocks = (rows + (1 << SortKeyBlocks.blockShift) - 1) >> SortKeyBlocks.blockShift
        var ratingKeys = [Int64](repeating: Int64.max, count: blocks)
        var reviewKeys = [Int64](repeating: Int64.max, count: blocks)
        let ratings = ratings.base, reviewCounts = reviewCounts.base
        for block in 0..<blocks {
            var bestRating = Int64.max, bestReviews = Int64.max
            for row in (block << SortKeyBlocks.blockShift)..<min(rows, (block + 1) << SortKeyBlocks.blockShift) {
                bestRating = min(bestRating, SortKeyBlocks.ratingKey(rating: ratings[row], reviews: reviewCounts[row]))
                bestReviews = min(bestReviews, SortKeyBlocks.reviewsKey(reviews: reviewCounts[row]))
            }
            ratingKeys[block] = bestRating
            reviewKeys[block] = bestReviews
        }
        self.ratingKeys = Column(ratingKeys)
        self.reviewKeys = Column(reviewKeys)
    }
}
