// The price calendar a word at a time (Swift: `ListingIndex+PriceCalendar`, `SpanPrices`): a word's rows
// totalled for every check-in at once (`staysearch_calendar_word`, the batch held across words and its
// flush), the night bounds of dense rows, the values in a range as bits, and the stripes read or asked for ahead.

#include "dispatch.h"

/// A lane's price on night `night` (see staysearch_calendar_word).
static inline int32_t calendar_price(const int32_t *constant, const uint16_t *dense, long denseStride, const int32_t *matrix,
                                     long night, int lane) {
    if (constant[lane] >= 0) return constant[lane];
    return dense ? dense_night(dense + night * denseStride + lane, denseStride) : matrix[night * 64 + lane];
}

static void calendar_word_portable(const int32_t *constant, const uint16_t *dense, long denseStride, const int32_t *matrix,
                                   long span, long nights, long checkIns, const uint64_t *valid, int32_t lowest,
                                   int32_t highest, const int32_t *bracketLow, const int32_t *bracketHigh, int32_t cheapest,
                                   uint32_t *counts, uint32_t *below, int32_t *least, uint64_t *inBracket, int32_t *totals,
                                   uint32_t *const *slots, int slotShift) {
    (void)span;
    for (long p = 0; p < checkIns; p++) inBracket[p] = 0;
    for (int lane = 0; lane < 64; lane++) {
        uint64_t bit = (uint64_t)1 << lane;
        int32_t total = 0;
        for (long n = 0; n < nights; n++) total += calendar_price(constant, dense, denseStride, matrix, n, lane);
        for (long p = 0; p < checkIns; p++) {
            if (p > 0) {
                total += calendar_price(constant, dense, denseStride, matrix, p + nights - 1, lane)
                    - calendar_price(constant, dense, denseStride, matrix, p - 1, lane);
            }
            if (!(valid[p] & bit) || total < lowest || total > highest) continue;
            counts[p] += 1;
            below[p] += total < bracketLow[p];
            if (total >= bracketLow[p] && total <= bracketHigh[p]) {
                if (slots[p]) {
                    slots[p][(total - bracketLow[p]) >> slotShift] += 1;
                } else {
                    inBracket[p] |= bit;
                    totals[p * 64 + lane] = total;
                }
            }
            if (total <= cheapest && total < least[p]) least[p] = total;
        }
    }
}

#if defined(__x86_64__)
/// The most nights a calendar word reads at once (62 check-ins and stays of up to 365 nights).
#define STAYSEARCH_CALENDAR_SPAN STAYSEARCH_CALENDAR_BATCH_SPAN
/// The check-in by check-in totals of the lanes of `groups` (bit g: lanes 8g ..< 8g + 8) whose prices are
/// `constant` or, varying, `dense` / `matrix` (see staysearch_calendar_word), for the lanes of `valid[p]`.
STAYSEARCH_AVX2_BMI2 static void calendar_groups_avx2(const int32_t *constant, const uint16_t *dense, long denseStride,
                                                      const int32_t *matrix, long matrixStride, long span, long nights, long checkIns,
                                                      const uint64_t *valid, unsigned groups, int32_t lowest, int32_t highest,
                                                      const int32_t *bracketLow, const int32_t *bracketHigh, int32_t cheapest,
                                                      uint32_t *counts, uint32_t *below, int32_t *least, uint64_t *inBracket,
                                                      int32_t *totals, uint32_t *const *slots, int slotShift) {
    // Per check-in, a byte of bits per group of eight lanes, read as one 64-bit word of lanes afterwards.
    uint8_t found[STAYSEARCH_CALENDAR_CHECKINS][8], under[STAYSEARCH_CALENDAR_CHECKINS][8];
    uint8_t inside[STAYSEARCH_CALENDAR_CHECKINS][8], lowCost[STAYSEARCH_CALENDAR_CHECKINS][8];
    __builtin_memset(found, 0, (size_t)checkIns * 8);
    __builtin_memset(under, 0, (size_t)checkIns * 8);
    __builtin_memset(inside, 0, (size_t)checkIns * 8);
    __builtin_memset(lowCost, 0, (size_t)checkIns * 8);
    __m256i prices[STAYSEARCH_CALENDAR_SPAN];
    const __m256i low = _mm256_set1_epi32(lowest - 1), high = _mm256_set1_epi32(highest);
    const __m256i cheapLanes = _mm256_set1_epi32(cheapest), minusOne = _mm256_set1_epi32(-1);
    const __m256i nightCount = _mm256_set1_epi32((int)nights);
    for (int group = 0; group < 8; group++) {
        if (!(groups >> group & 1)) continue;
        const int lane = group * 8;
        __m256i fixed = _mm256_loadu_si256((const __m256i *)(constant + lane));
        __m256i isConstant = _mm256_cmpgt_epi32(fixed, minusOne);
        int allConstant = _mm256_movemask_ps(_mm256_castsi256_ps(isConstant)) == 0xFF;
        __m256i total = _mm256_mullo_epi32(fixed, nightCount);
        if (!allConstant) {
            for (long n = 0; n < span; n++) {
                __m256i varying = dense ? dense_nights8(dense + n * denseStride + lane, denseStride)
                                        : _mm256_loadu_si256((const __m256i *)(matrix + n * matrixStride + lane));
                prices[n] = _mm256_blendv_epi8(varying, fixed, isConstant);
            }
            total = _mm256_setzero_si256();
            for (long n = 0; n < nights; n++) total = _mm256_add_epi32(total, prices[n]);
        }
        for (long p = 0; p < checkIns; p++) {
            if (p > 0 && !allConstant) total = _mm256_sub_epi32(_mm256_add_epi32(total, prices[p + nights - 1]), prices[p - 1]);
            uint64_t fits = STAYSEARCH_BITS(_mm256_andnot_si256(_mm256_cmpgt_epi32(total, high), _mm256_cmpgt_epi32(total, low)));
            uint64_t isUnder = STAYSEARCH_BITS(_mm256_cmpgt_epi32(_mm256_set1_epi32(bracketLow[p]), total));
            uint64_t isOver = STAYSEARCH_BITS(_mm256_cmpgt_epi32(total, _mm256_set1_epi32(bracketHigh[p])));
            uint64_t isDear = STAYSEARCH_BITS(_mm256_cmpgt_epi32(total, cheapLanes));
            uint64_t hits = fits & (valid[p] >> lane);
            found[p][group] = (uint8_t)hits;
            under[p][group] = (uint8_t)(hits & isUnder);
            inside[p][group] = (uint8_t)(hits & ~isUnder & ~isOver);
            lowCost[p][group] = (uint8_t)(hits & ~isDear);
            _mm256_storeu_si256((__m256i *)(totals + p * 64 + lane), total);
        }
    }
    for (long p = 0; p < checkIns; p++) {
        uint64_t foundWord, underWord, insideWord, cheapWord;
        __builtin_memcpy(&foundWord, found[p], 8);
        __builtin_memcpy(&underWord, under[p], 8);
        __builtin_memcpy(&insideWord, inside[p], 8);
        __builtin_memcpy(&cheapWord, lowCost[p], 8);
        counts[p] += (uint32_t)_mm_popcnt_u64(foundWord);
        below[p] += (uint32_t)_mm_popcnt_u64(underWord);
        if (slots[p]) {
            // Counted by slot (a unit, or a sample's 2^slotShift) in the bracket.
            uint32_t *slot = slots[p];
            const int32_t first = bracketLow[p], *dayTotals = totals + p * 64;
            for (; insideWord; insideWord &= insideWord - 1) slot[(dayTotals[__builtin_ctzll(insideWord)] - first) >> slotShift] += 1;
        }
        inBracket[p] = insideWord;
        for (; cheapWord; cheapWord &= cheapWord - 1) {
            int32_t value = totals[p * 64 + __builtin_ctzll(cheapWord)];
            if (value < least[p]) least[p] = value;
        }
    }
}

/// Totals the lanes `batch` holds (at most 64, packed from its first lane) and empties it.
STAYSEARCH_AVX2_BMI2 static void calendar_flush_avx2(staysearch_calendar_batch *batch, long span, long nights, long checkIns,
                                                     int32_t lowest, int32_t highest, const int32_t *bracketLow,
                                                     const int32_t *bracketHigh, int32_t cheapest, uint32_t *counts,
                                                     uint32_t *below, int32_t *least, int32_t *totals, uint32_t *const *slots, int slotShift) {
    const int count = batch->count;
    if (count == 0) return;
    const int width = (count + 7) / 8 * 8;
    // The last group's unused lanes are of one price (never valid), so that it reads no nights for them.
    for (int lane = count; lane < width; lane++) batch->constant[lane] = 0;
    uint64_t inBracket[STAYSEARCH_CALENDAR_CHECKINS];
    calendar_groups_avx2(batch->constant, NULL, 0, batch->matrix, 72, span, nights, checkIns, batch->valid, (1u << (width / 8)) - 1,
                         lowest, highest, bracketLow, bracketHigh, cheapest, counts, below, least, inBracket, totals, slots, slotShift);
    for (long p = 0; p < checkIns; p++) batch->valid[p] = 0;
    batch->count = 0;
}

/// Adds the lanes of `totalled` to `batch` after those it holds (totalling those first when all would not
/// fit): their prices over the span and each check-in's bits, moved left by permutations as in packing.
STAYSEARCH_AVX2_BMI2 static void calendar_hold_avx2(staysearch_calendar_batch *batch, const int32_t *constant, const uint16_t *dense,
                                                    long denseStride, const int32_t *matrix, long span, long nights, long checkIns,
                                                    const uint64_t *valid, uint64_t totalled, int32_t lowest, int32_t highest,
                                                    const int32_t *bracketLow, const int32_t *bracketHigh, int32_t cheapest,
                                                    uint32_t *counts, uint32_t *below, int32_t *least, int32_t *totals,
                                                    uint32_t *const *slots, int slotShift) {
    const int held = (int)_mm_popcnt_u64(totalled);
    if (batch->count + held > 64) {
        calendar_flush_avx2(batch, span, nights, checkIns, lowest, highest, bracketLow, bracketHigh, cheapest, counts, below, least,
                            totals, slots, slotShift);
    }
    const int start = batch->count;
    const __m256i minusOne = _mm256_set1_epi32(-1);
    __m256i moves[8];
    int offsets[8], anyVarying = 0, k = start;
    for (int group = 0; group < 8; group++) {
        uint64_t mask = (totalled >> (group * 8)) & 0xFF;
        uint64_t spread = _pdep_u64(mask, 0x0101010101010101ULL) * 0xFF;
        uint64_t indices = _pext_u64(0x0706050403020100ULL, spread);
        moves[group] = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)indices));
        offsets[group] = k;
        __m256i fixed = _mm256_loadu_si256((const __m256i *)(constant + group * 8));
        _mm256_storeu_si256((__m256i *)(batch->constant + k), _mm256_permutevar8x32_epi32(fixed, moves[group]));
        anyVarying |= (int)(mask & ~STAYSEARCH_BITS(_mm256_cmpgt_epi32(fixed, minusOne))) != 0;
        k += (int)_mm_popcnt_u64(mask);
    }
    if (anyVarying) {
        // Group by group (those with lanes held), night by night: one permutation kept in a register.
        for (int group = 0; group < 8; group++) {
            if (!((totalled >> (group * 8)) & 0xFF)) continue;
            const __m256i move = moves[group];
            int32_t *to = batch->matrix + offsets[group];
            if (dense) {
                const uint16_t *from = dense + group * 8;
                for (long n = 0; n < span; n++, from += denseStride, to += 72) {
                    __m256i nightPrices = dense_nights8(from, denseStride);
                    _mm256_storeu_si256((__m256i *)to, _mm256_permutevar8x32_epi32(nightPrices, move));
                }
            } else {
                const int32_t *from = matrix + group * 8;
                for (long n = 0; n < span; n++, from += 64, to += 72) {
                    _mm256_storeu_si256((__m256i *)to, _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)from), move));
                }
            }
        }
    }
    for (long p = 0; p < checkIns; p++) batch->valid[p] |= _pext_u64(valid[p], totalled) << start;
    batch->count = k;
}

STAYSEARCH_AVX2_BMI2 static void calendar_word_avx2(const int32_t *constant, const int32_t *lowNight,
                                                    const int32_t *highNight, const uint16_t *dense, long denseStride,
                                                    const int32_t *matrix, long span, long nights, long checkIns,
                                                    const uint64_t *valid, int32_t lowest, int32_t highest,
                                                    const int32_t *bracketLow, const int32_t *bracketHigh, int32_t cheapest,
                                                    uint32_t *counts, uint32_t *below, int32_t *least, uint64_t *inBracket,
                                                    int32_t *totals, uint32_t *const *slots, int slotShift, staysearch_calendar_batch *batch) {
    // Lanes whose every total lies outside every check-in's bracket (by their lowest and highest night) are
    // settled for the whole word: counted by popcounts. Any other lane is totalled check-in by check-in,
    // eight lanes at a time, packed together first when that saves groups of eight.
    int32_t lowestBracket = INT32_MAX, highestBracket = INT32_MIN;
    uint64_t anyValid = 0;
    if (batch && batch->bracketsKnown) {
        // The same brackets as the batch's first word.
        lowestBracket = batch->lowestBracket;
        highestBracket = batch->highestBracket;
        for (long p = 0; p < checkIns; p++) anyValid |= valid[p];
    } else {
        for (long p = 0; p < checkIns; p++) {
            lowestBracket = bracketLow[p] < lowestBracket ? bracketLow[p] : lowestBracket;
            highestBracket = bracketHigh[p] > highestBracket ? bracketHigh[p] : highestBracket;
            anyValid |= valid[p];
        }
        if (batch) {
            batch->lowestBracket = lowestBracket;
            batch->highestBracket = highestBracket;
            batch->bracketsKnown = 1;
        }
    }
    const __m256i low = _mm256_set1_epi32(lowest - 1), high = _mm256_set1_epi32(highest);
    const __m256i cheapLanes = _mm256_set1_epi32(cheapest), minusOne = _mm256_set1_epi32(-1);
    const __m256i nightCount = _mm256_set1_epi32((int)nights);
    const __m256i underAll = _mm256_set1_epi32(lowestBracket), overAll = _mm256_set1_epi32(highestBracket);
    uint64_t settled = 0, settledBelow = 0, settledCheap = 0, never = 0;
    int32_t fixedTotals[64];
    for (int group = 0; group < 8; group++) {
        __m256i fixed = _mm256_loadu_si256((const __m256i *)(constant + group * 8));
        __m256i least8 = _mm256_loadu_si256((const __m256i *)(lowNight + group * 8));
        __m256i most8 = _mm256_loadu_si256((const __m256i *)(highNight + group * 8));
        __m256i total = _mm256_mullo_epi32(fixed, nightCount);
        __m256i lowTotal = _mm256_mullo_epi32(least8, nightCount), highTotal = _mm256_mullo_epi32(most8, nightCount);
        _mm256_storeu_si256((__m256i *)(fixedTotals + group * 8), total);
        uint64_t isConstant = STAYSEARCH_BITS(_mm256_cmpgt_epi32(fixed, minusOne));
        uint64_t known = STAYSEARCH_BITS(_mm256_cmpgt_epi32(lowTotal, minusOne));
        uint64_t alwaysFits = STAYSEARCH_BITS(_mm256_andnot_si256(_mm256_cmpgt_epi32(highTotal, high), _mm256_cmpgt_epi32(lowTotal, low)));
        uint64_t neverFits = STAYSEARCH_BITS(_mm256_or_si256(_mm256_cmpgt_epi32(lowTotal, high), _mm256_cmpgt_epi32(_mm256_add_epi32(low, _mm256_set1_epi32(1)), highTotal)));
        uint64_t isBelow = STAYSEARCH_BITS(_mm256_cmpgt_epi32(underAll, highTotal));
        uint64_t isAbove = STAYSEARCH_BITS(_mm256_cmpgt_epi32(lowTotal, overAll));
        uint64_t notCheap = STAYSEARCH_BITS(_mm256_cmpgt_epi32(lowTotal, cheapLanes));
        uint64_t outside = known & alwaysFits & (isBelow | isAbove) & (isConstant | notCheap);
        settled |= outside << (group * 8);
        settledBelow |= (outside & isBelow) << (group * 8);
        uint64_t dear = STAYSEARCH_BITS(_mm256_cmpgt_epi32(total, cheapLanes));
        settledCheap |= (outside & isConstant & ~dear) << (group * 8);
        never |= (known & neverFits) << (group * 8);
    }
    for (long p = 0; p < checkIns; p++) {
        counts[p] += (uint32_t)_mm_popcnt_u64(valid[p] & settled);
        below[p] += (uint32_t)_mm_popcnt_u64(valid[p] & settledBelow);
        for (uint64_t bits = valid[p] & settledCheap; bits; bits &= bits - 1) {
            int32_t value = fixedTotals[__builtin_ctzll(bits)];
            if (value < least[p]) least[p] = value;
        }
    }
    const uint64_t totalled = ~(settled | never) & anyValid;
    if (batch) {
        if (totalled) {
            calendar_hold_avx2(batch, constant, dense, denseStride, matrix, span, nights, checkIns, valid, totalled, lowest, highest,
                               bracketLow, bracketHigh, cheapest, counts, below, least, totals, slots, slotShift);
        }
        return;
    }
    if (!totalled) {
        for (long p = 0; p < checkIns; p++) inBracket[p] = 0;
        return;
    }
    unsigned groups = 0;
    for (int group = 0; group < 8; group++) groups |= (unsigned)((totalled >> (group * 8) & 0xFF) != 0) << group;
    const int packedCount = (int)_mm_popcnt_u64(totalled);
    const unsigned packedGroups = (1u << ((packedCount + 7) / 8)) - 1;
    if (_mm_popcnt_u32(packedGroups) + 1 < _mm_popcnt_u32(groups)) {
        // Pack the lanes to be totalled into the first groups: their prices, and each check-in's bits.
        int32_t packedConstant[64 + 8];
        int32_t packedMatrix[STAYSEARCH_CALENDAR_SPAN * 8 + 8];
        uint64_t packedValid[STAYSEARCH_CALENDAR_CHECKINS];
        const int width = ((packedCount + 7) / 8) * 8;
        if (span * width > STAYSEARCH_CALENDAR_SPAN * 8) goto unpacked;
        // Each group's lanes moved left by a permutation made from its bits (8 bits → 8 byte indices by
        // BMI2), stored at the packed position; a store's tail is overwritten by the next one.
        __m256i moves[8];
        int offsets[8], anyVarying = 0, k = 0;
        for (int group = 0; group < 8; group++) {
            uint64_t mask = (totalled >> (group * 8)) & 0xFF;
            uint64_t spread = _pdep_u64(mask, 0x0101010101010101ULL) * 0xFF;
            uint64_t indices = _pext_u64(0x0706050403020100ULL, spread);
            moves[group] = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)indices));
            offsets[group] = k;
            __m256i fixed = _mm256_loadu_si256((const __m256i *)(constant + group * 8));
            _mm256_storeu_si256((__m256i *)(packedConstant + k), _mm256_permutevar8x32_epi32(fixed, moves[group]));
            anyVarying |= (int)(mask & ~STAYSEARCH_BITS(_mm256_cmpgt_epi32(fixed, minusOne))) != 0;
            k += (int)_mm_popcnt_u64(mask);
        }
        for (int lane = k; lane < width; lane++) packedConstant[lane] = 0;
        if (anyVarying) {
            for (long n = 0; n < span; n++) {
                int32_t *row = packedMatrix + n * width;
                for (int group = 0; group < 8; group++) {
                    if (!((totalled >> (group * 8)) & 0xFF)) continue;
                    __m256i nightPrices = dense
                        ? dense_nights8(dense + n * denseStride + group * 8, denseStride)
                        : _mm256_loadu_si256((const __m256i *)(matrix + n * 64 + group * 8));
                    _mm256_storeu_si256((__m256i *)(row + offsets[group]), _mm256_permutevar8x32_epi32(nightPrices, moves[group]));
                }
            }
        }
        for (long p = 0; p < checkIns; p++) packedValid[p] = _pext_u64(valid[p], totalled);
        calendar_groups_avx2(packedConstant, NULL, 0, packedMatrix, width, span, nights, checkIns, packedValid, packedGroups, lowest,
                             highest, bracketLow, bracketHigh, cheapest, counts, below, least, inBracket, totals, slots, slotShift);
        return;
    }
unpacked:;
    uint64_t masked[STAYSEARCH_CALENDAR_CHECKINS];
    for (long p = 0; p < checkIns; p++) masked[p] = valid[p] & totalled;
    calendar_groups_avx2(constant, dense, denseStride, matrix, 64, span, nights, checkIns, masked, groups, lowest, highest,
                         bracketLow, bracketHigh, cheapest, counts, below, least, inBracket, totals, slots, slotShift);
}
#endif

static void narrow_bounds_portable(const uint16_t *sums, long stride, long count, int32_t *lows, int32_t *highs) {
    for (long k = 0; k < count; k++) {
        int32_t price = dense_night(sums + k, stride);
        lows[k] = price < lows[k] ? price : lows[k];
        highs[k] = price > highs[k] ? price : highs[k];
    }
}

#if defined(__x86_64__)
STAYSEARCH_AVX2 static void narrow_bounds_avx2(const uint16_t *sums, long stride, long count, int32_t *lows, int32_t *highs) {
    long k = 0;
    for (; k + 8 <= count; k += 8) {
        __m256i prices = dense_nights8(sums + k, stride);
        _mm256_storeu_si256((__m256i *)(lows + k), _mm256_min_epi32(prices, _mm256_loadu_si256((const __m256i *)(lows + k))));
        _mm256_storeu_si256((__m256i *)(highs + k), _mm256_max_epi32(prices, _mm256_loadu_si256((const __m256i *)(highs + k))));
    }
    narrow_bounds_portable(sums + k, stride, count - k, lows + k, highs + k);
}
#endif

void staysearch_narrow_bounds(const uint16_t *sums, long stride, long count, int32_t *lows, int32_t *highs) {
#if defined(__x86_64__)
    if (has_avx2()) {
        narrow_bounds_avx2(sums, stride, count, lows, highs);
        return;
    }
#endif
    narrow_bounds_portable(sums, stride, count, lows, highs);
}

__attribute__((visibility("hidden"))) int staysearch_calendar_portable = 0;

void staysearch_calendar_use_portable(int portable) { __atomic_store_n(&staysearch_calendar_portable, portable, __ATOMIC_RELAXED); }

void staysearch_calendar_word(const int32_t *constant, const int32_t *lowNight, const int32_t *highNight,
                              const uint16_t *dense, long denseStride, const int32_t *matrix, long span, long nights,
                              long checkIns, const uint64_t *valid, int32_t lowest, int32_t highest,
                              const int32_t *bracketLow, const int32_t *bracketHigh, int32_t cheapest, uint32_t *counts,
                              uint32_t *below, int32_t *least, uint64_t *inBracket, int32_t *totals, uint32_t *const *slots, int slotShift,
                              staysearch_calendar_batch *batch) {
#if defined(__x86_64__)
    if (!__atomic_load_n(&staysearch_calendar_portable, __ATOMIC_RELAXED) && has_avx2_bmi2() && span <= STAYSEARCH_CALENDAR_SPAN) {
        calendar_word_avx2(constant, lowNight, highNight, dense, denseStride, matrix, span, nights, checkIns, valid, lowest, highest, bracketLow,
                           bracketHigh, cheapest, counts, below, least, inBracket, totals, slots, slotShift, batch);
        return;
    }
#endif
    // Held lanes (none unless the fastest version ran before with this batch) are totalled first.
    if (batch) {
        staysearch_calendar_flush(batch, span, nights, checkIns, lowest, highest, bracketLow, bracketHigh, cheapest, counts, below,
                                  least, totals, slots, slotShift);
    }
    calendar_word_portable(constant, dense, denseStride, matrix, span, nights, checkIns, valid, lowest, highest, bracketLow,
                           bracketHigh, cheapest, counts, below, least, inBracket, totals, slots, slotShift);
}

void staysearch_touch_stripes(const void *first, long stride, long count, long bytes) {
    // One load a cache line, stripe after stripe: runs the hardware prefetcher follows.
    const char *stripe = (const char *)first;
    for (long k = 0; k < count; k++, stripe += stride) {
        for (long at = 0; at < bytes; at += 64) (void)*(const volatile uint8_t *)(stripe + at);
    }
}

void staysearch_calendar_batch_reset(staysearch_calendar_batch *batch) { __builtin_memset(batch, 0, sizeof *batch); }

void staysearch_calendar_flush(staysearch_calendar_batch *batch, long span, long nights, long checkIns, int32_t lowest,
                               int32_t highest, const int32_t *bracketLow, const int32_t *bracketHigh, int32_t cheapest,
                               uint32_t *counts, uint32_t *below, int32_t *least, int32_t *totals, uint32_t *const *slots, int slotShift) {
    if (batch->count == 0) return;
#if defined(__x86_64__)
    calendar_flush_avx2(batch, span, nights, checkIns, lowest, highest, bracketLow, bracketHigh, cheapest, counts, below, least,
                        totals, slots, slotShift);
#endif
}

static uint64_t int32_in_range_portable(const int32_t *values, int32_t lowest, int32_t highest) {
    uint64_t bits = 0;
    for (int lane = 0; lane < 64; lane++) bits |= (uint64_t)(values[lane] >= lowest && values[lane] <= highest) << lane;
    return bits;
}

#if defined(__x86_64__)
STAYSEARCH_AVX2 static uint64_t int32_in_range_avx2(const int32_t *values, int32_t lowest, int32_t highest) {
    const __m256i low = _mm256_set1_epi32(lowest), high = _mm256_set1_epi32(highest);
    uint64_t bits = 0;
    for (int lane = 0; lane < 64; lane += 8) {
        __m256i lanes = _mm256_loadu_si256((const __m256i *)(values + lane));
        __m256i outside = _mm256_or_si256(_mm256_cmpgt_epi32(low, lanes), _mm256_cmpgt_epi32(lanes, high));
        bits |= (uint64_t)(uint8_t)~_mm256_movemask_ps(_mm256_castsi256_ps(outside)) << lane;
    }
    return bits;
}
#endif

uint64_t staysearch_int32_in_range(const int32_t *values, int32_t lowest, int32_t highest) {
#if defined(__x86_64__)
    if (has_avx2()) return int32_in_range_avx2(values, lowest, highest);
#endif
    return int32_in_range_portable(values, lowest, highest);
}

void staysearch_prefetch_stripes(const void *first, long stride, long count, long lines) {
    const char *stripe = (const char *)first;
    for (long k = 0; k < count; k++, stripe += stride) {
        for (long line = 0; line < lines; line++) __builtin_prefetch(stripe + line * 64, 0, 3);
    }
}
