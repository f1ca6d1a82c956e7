// The recommended order (Swift: `ListingIndex+Recommended`, `ListingIndex+RecommendedTier`, `KeptMatches`):
// the matches that could enter a full page, and the upper tier's matches kept and tested.

#include "dispatch.h"

static int candidates_portable = 0;

/// Adds `offset` to the `count` positions at `positions`; returns `count`.
static long add_positions(long count, int32_t *positions, int32_t offset) {
    for (long k = 0; k < count; k++) positions[k] += offset;
    return count;
}

static long quality_candidates_portable(const int64_t *values, const int32_t *rows, long count, const int32_t *qualities,
                                        int32_t rowCount, int64_t lowest, int64_t highest, int32_t needed, int64_t median,
                                        int32_t pricePoints, int32_t *positions) {
    long written = 0;
    for (long i = 0; i < count; i++) {
        int64_t value = values[i];
        if (value < lowest || value > highest) continue;
        int32_t row = rows[i];
        int take = row >= rowCount || needed == INT32_MIN;
        if (!take && qualities[row] >= needed) {
            // A price part is never below -pricePoints: a quality 2 × pricePoints above what is needed
            // reaches the page whatever the price.
            int64_t slack = (int64_t)qualities[row] - needed;
            take = median == 0 || slack * median >= (int64_t)pricePoints * value || slack >= 2 * (int64_t)pricePoints;
        }
        if (take) positions[written++] = (int32_t)i;
    }
    return written;
}

#if defined(__x86_64__)
/// Eight matches a step: the values' range by two 64-bit compares of four lanes, the rows' qualities
/// gathered (rows past `rowCount` masked out of the gather and taken as they are), and with a median the
/// products (quality − needed) × median and points × value in 64-bit lanes (`_mm256_mul_epi32`, exact
/// for factors below 2^31).
STAYSEARCH_AVX2 static long quality_candidates_avx2(const int64_t *values, const int32_t *rows, long count,
                                                    const int32_t *qualities, int32_t rowCount, int64_t lowest,
                                                    int64_t highest, int32_t needed, int64_t median, int32_t pricePoints,
                                                    int32_t *positions) {
    const __m256i low = _mm256_set1_epi64x(lowest), high = _mm256_set1_epi64x(highest);
    // Every quality is at least INT32_MIN: then the qualities need not be read.
    const int anyQuality = needed == INT32_MIN;
    const __m256i past = _mm256_set1_epi32(rowCount - 1), least = _mm256_set1_epi32(anyQuality ? 0 : needed - 1);
    const __m256i need = _mm256_set1_epi32(needed), middle = _mm256_set1_epi64x(median);
    const __m256i points = _mm256_set1_epi64x(pricePoints);
    const __m256i twiceMinusOne = _mm256_set1_epi32(2 * pricePoints - 1);
    long written = 0, i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i first = _mm256_loadu_si256((const __m256i *)(values + i));
        __m256i second = _mm256_loadu_si256((const __m256i *)(values + i + 4));
        __m256i outFirst = _mm256_or_si256(_mm256_cmpgt_epi64(low, first), _mm256_cmpgt_epi64(first, high));
        __m256i outSecond = _mm256_or_si256(_mm256_cmpgt_epi64(low, second), _mm256_cmpgt_epi64(second, high));
        unsigned inRange = ~((unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(outFirst))
                             | ((unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(outSecond)) << 4)) & 0xff;
        if (inRange == 0) continue;
        if (anyQuality) {
            for (unsigned lanes = inRange; lanes; lanes &= lanes - 1) positions[written++] = (int32_t)(i + __builtin_ctz(lanes));
            continue;
        }
        __m256i rowLanes = _mm256_loadu_si256((const __m256i *)(rows + i));
        __m256i overlay = _mm256_cmpgt_epi32(rowLanes, past);
        __m256i gathered = _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), (const int *)qualities, rowLanes,
                                                       _mm256_andnot_si256(overlay, _mm256_set1_epi32(-1)), 4);
        unsigned good;
        if (median == 0) {
            good = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(gathered, least)));
        } else {
            __m256i slack = _mm256_sub_epi32(gathered, need);
            __m256i slackFirst = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(slack));
            __m256i slackSecond = _mm256_cvtepi32_epi64(_mm256_extracti128_si256(slack, 1));
            __m256i shortFirst = _mm256_cmpgt_epi64(_mm256_mul_epi32(first, points), _mm256_mul_epi32(slackFirst, middle));
            __m256i shortSecond = _mm256_cmpgt_epi64(_mm256_mul_epi32(second, points), _mm256_mul_epi32(slackSecond, middle));
            good = ~((unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(shortFirst))
                     | ((unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(shortSecond)) << 4)) & 0xff;
            // Or a quality 2 × pricePoints above what is needed: the price part is never below -pricePoints.
            good |= (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(slack, twiceMinusOne)));
        }
        unsigned lanes = inRange & (good | (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(overlay)));
        while (lanes) {
            positions[written++] = (int32_t)(i + __builtin_ctz(lanes));
            lanes &= lanes - 1;
        }
    }
    return written + add_positions(quality_candidates_portable(values + i, rows + i, count - i, qualities, rowCount, lowest,
                                                               highest, needed, median, pricePoints, positions + written),
                                   positions + written, (int32_t)i);
}
#endif

void staysearch_candidates_use_portable(int portable) { __atomic_store_n(&candidates_portable, portable, __ATOMIC_RELAXED); }

long staysearch_quality_candidates(const int64_t *values, const int32_t *rows, long count, const int32_t *qualities,
                                   int32_t rowCount, int64_t lowest, int64_t highest, int32_t needed, int64_t median,
                                   int32_t pricePoints, int32_t *positions) {
#if defined(__x86_64__)
    if (!__atomic_load_n(&candidates_portable, __ATOMIC_RELAXED) && has_avx2()) {
        return quality_candidates_avx2(values, rows, count, qualities, rowCount, lowest, highest, needed, median, pricePoints,
                                       positions);
    }
#endif
    return quality_candidates_portable(values, rows, count, qualities, rowCount, lowest, highest, needed, median, pricePoints,
                                       positions);
}

static long keep_tier_portable(uint64_t candidates, uint64_t tierWord, const int64_t *written, int64_t lowest, int64_t highest,
                               const int32_t *tierQualities, int32_t firstRow, int64_t *values, int32_t *rows,
                               int32_t *qualities, long kept) {
    uint64_t tier = candidates & tierWord;
    while (tier) {
        int bit = __builtin_ctzll(tier);
        tier &= tier - 1;
        uint64_t below = (1ULL << bit) - 1;
        int64_t value = written[__builtin_popcountll(candidates & below)];
        if (value < lowest || value > highest) continue;
        values[kept] = value;
        rows[kept] = firstRow + bit;
        qualities[kept] = tierQualities[__builtin_popcountll(tierWord & below)];
        kept++;
    }
    return kept;
}

#if defined(__x86_64__)
/// The tier rows' places among the written values and among the tier's qualities by two bit extractions, then
/// the three walked in step: no popcount per row, every row stored and the count advanced by the range test.
STAYSEARCH_AVX2_BMI2 static long keep_tier_bmi2(uint64_t candidates, uint64_t tierWord, const int64_t *written, int64_t lowest,
                                                int64_t highest, const int32_t *tierQualities, int32_t firstRow, int64_t *values,
                                                int32_t *rows, int32_t *qualities, long kept) {
    uint64_t tier = candidates & tierWord;
    if (!tier) return kept;
    uint64_t inWritten = _pext_u64(tierWord, candidates);
    uint64_t inTier = _pext_u64(candidates, tierWord);
    do {
        int bit = (int)_tzcnt_u64(tier), position = (int)_tzcnt_u64(inWritten), rank = (int)_tzcnt_u64(inTier);
        tier = _blsr_u64(tier);
        inWritten = _blsr_u64(inWritten);
        inTier = _blsr_u64(inTier);
        int64_t value = written[position];
        values[kept] = value;
        rows[kept] = firstRow + bit;
        qualities[kept] = tierQualities[rank];
        kept += (value >= lowest) & (value <= highest);
    } while (tier);
    return kept;
}
#endif

static int keep_tier_portable_only = 0;

void staysearch_keep_tier_use_portable(int portable) { __atomic_store_n(&keep_tier_portable_only, portable, __ATOMIC_RELAXED); }

long staysearch_keep_tier(uint64_t candidates, uint64_t tierWord, const int64_t *written, int64_t lowest, int64_t highest,
                          const int32_t *tierQualities, int32_t firstRow, int64_t *values, int32_t *rows, int32_t *qualities,
                          long kept) {
#if defined(__x86_64__)
    if (!__atomic_load_n(&keep_tier_portable_only, __ATOMIC_RELAXED) && has_avx2_bmi2()) {
        return keep_tier_bmi2(candidates, tierWord, written, lowest, highest, tierQualities, firstRow, values, rows, qualities,
                              kept);
    }
#endif
    return keep_tier_portable(candidates, tierWord, written, lowest, highest, tierQualities, firstRow, values, rows, qualities,
                              kept);
}

static long tier_candidates_portable(const int32_t *qualities, const int64_t *values, long count, int32_t needed, int64_t median,
                                     int32_t pricePoints, int32_t *positions) {
    long found = 0;
    for (long i = 0; i < count; i++) {
        int64_t slack = (int64_t)qualities[i] - needed;
        positions[found] = (int32_t)i;
        found += (slack + 1) * median >= (int64_t)pricePoints * values[i] || slack >= 2 * (int64_t)pricePoints;
    }
    return found;
}

#if defined(__x86_64__)
/// Eight matches a step: the products in 64-bit lanes (`_mm256_mul_epi32`, exact for factors below 2^31).
STAYSEARCH_AVX2 static long tier_candidates_avx2(const int32_t *qualities, const int64_t *values, long count, int32_t needed,
                                                 int64_t median, int32_t pricePoints, int32_t *positions) {
    const __m256i needMinusOne = _mm256_set1_epi32(needed - 1), middle = _mm256_set1_epi64x(median);
    const __m256i points = _mm256_set1_epi64x(pricePoints), twiceMinusOne = _mm256_set1_epi32(2 * pricePoints - 1);
    long found = 0, i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i quality = _mm256_loadu_si256((const __m256i *)(qualities + i));
        __m256i slackPlusOne = _mm256_sub_epi32(quality, needMinusOne);
        __m256i first = _mm256_loadu_si256((const __m256i *)(values + i));
        __m256i second = _mm256_loadu_si256((const __m256i *)(values + i + 4));
        __m256i slackFirst = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(slackPlusOne));
        __m256i slackSecond = _mm256_cvtepi32_epi64(_mm256_extracti128_si256(slackPlusOne, 1));
        __m256i shortFirst = _mm256_cmpgt_epi64(_mm256_mul_epi32(first, points), _mm256_mul_epi32(slackFirst, middle));
        __m256i shortSecond = _mm256_cmpgt_epi64(_mm256_mul_epi32(second, points), _mm256_mul_epi32(slackSecond, middle));
        unsigned lanes = ~((unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(shortFirst))
                           | ((unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(shortSecond)) << 4)) & 0xff;
        // slack ≥ 2 × pricePoints, that is slack + 1 > 2 × pricePoints.
        lanes |= (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(slackPlusOne, twiceMinusOne)));
        while (lanes) {
            positions[found++] = (int32_t)(i + __builtin_ctz(lanes));
            lanes &= lanes - 1;
        }
    }
    return found + add_positions(tier_candidates_portable(qualities + i, values + i, count - i, needed, median, pricePoints,
                                                          positions + found),
                                 positions + found, (int32_t)i);
}
#endif

long staysearch_tier_candidates(const int32_t *qualities, const int64_t *values, long count, int32_t needed, int64_t median,
                                int32_t pricePoints, int32_t *positions) {
#if defined(__x86_64__)
    if (!__atomic_load_n(&keep_tier_portable_only, __ATOMIC_RELAXED) && has_avx2()) {
        return tier_candidates_avx2(qualities, values, count, needed, median, pricePoints, positions);
    }
#endif
    return tier_candidates_portable(qualities, values, count, needed, median, pricePoints, positions);
}
