// The price calendar row by row, for a month of up to 32 check-ins (Swift: `ListingIndex+PriceCalendar`,
// `SpanPrices`): the plan of a calendar, each span's 16-bit stay bounds and row kinds, the bounds of the stays
// a search could find, and a word's rows classified and totalled a word behind.

#include "dispatch.h"

/// The fees of a word whose lanes add none.
static const uint16_t calendar_rows_nothing_added[64];

/// `value` clamped into 0 ... 65,535.
static inline uint16_t clamp_u16(int64_t value) { return (uint16_t)(value < 0 ? 0 : value > 0xFFFF ? 0xFFFF : value); }

void staysearch_calendar_rows_prepare(staysearch_calendar_rows_plan *plan, long nights, long checkIns, int32_t lowest,
                                      int32_t highest, const int32_t *bracketLow, const int32_t *bracketHigh, int32_t cheapest,
                                      long slotShift) {
    __builtin_memset(plan, 0, sizeof *plan);
    plan->slotShift = slotShift;
    plan->nights = nights;
    plan->checkIns = checkIns;
    plan->lowest = lowest;
    plan->highest = highest;
    plan->cheapest = cheapest;
    plan->lowestBracket = INT32_MAX;
    plan->highestBracket = INT32_MIN;
    for (long p = 0; p < checkIns; p++) {
        plan->bracketLow[p] = bracketLow[p];
        plan->bracketHigh[p] = bracketHigh[p];
        plan->lowBounds[p] = clamp_u16(bracketLow[p]);
        plan->highBounds[p] = clamp_u16(bracketHigh[p]);
        plan->lowestBracket = bracketLow[p] < plan->lowestBracket ? bracketLow[p] : plan->lowestBracket;
        plan->highestBracket = bracketHigh[p] > plan->highestBracket ? bracketHigh[p] : plan->highestBracket;
    }
}

/// Whether staysearch_calendar_rows totals lane `lane` itself: a price over the span, or running sums, whose
/// every stay of `nights` nights costs at most STAYSEARCH_CALENDAR_ROWS_LARGEST units (see the header).
static inline int calendar_rows_exact(const int32_t *constant, const int32_t *stayLow, const int32_t *stayHigh,
                                      const int32_t *sumSlots, long nights, long lane) {
    if (constant[lane] >= 0) return (int64_t)constant[lane] * nights <= STAYSEARCH_CALENDAR_ROWS_LARGEST;
    return sumSlots[lane] >= 0 && stayLow[lane] >= 0 && stayHigh[lane] >= 0 && stayHigh[lane] <= STAYSEARCH_CALENDAR_ROWS_LARGEST;
}

void staysearch_calendar_rows_columns(const int32_t *constant, const int32_t *stayLow, const int32_t *stayHigh, const int32_t *sumSlots,
                                      long nights, long from, long to, uint16_t *low16, uint16_t *high16, uint64_t *exact,
                                      uint64_t *constants) {
    for (long word = from >> 6; word << 6 < to; word++) {
        uint64_t exactBits = 0, constantBits = 0;
        for (long row = word << 6; row < (word + 1) << 6 && row < to; row++) {
            const uint64_t bit = (uint64_t)1 << (row & 63);
            if (constant[row] >= 0) constantBits |= bit;
            if (row < from || !calendar_rows_exact(constant, stayLow, stayHigh, sumSlots, nights, row)) {
                low16[row] = high16[row] = 0;
                continue;
            }
            exactBits |= bit;
            if (constant[row] >= 0) {
                low16[row] = high16[row] = (uint16_t)(constant[row] * nights);
            } else {
                low16[row] = (uint16_t)stayLow[row];
                high16[row] = (uint16_t)stayHigh[row];
            }
        }
        exact[word] = exactBits;
        constants[word] = constantBits;
    }
}

/// The rows of `dear` (not totalled here: their stays may pass 16 bits) that their 32-bit stay bounds
/// `stayLow32` and `stayHigh32` (−1 when unknown; NULL: none) settle: returned, those whose every stay lies in
/// the price range, above the cut and below or above every bracket (to be counted for each check-in that can
/// book them; in `*belowAll`, those below), and in `*never` those whose every stay lies outside the range (to be
/// dropped). (In won a week's stays pass 65,534 units of ₩100 from ₩936,000 a night: a few percent of the rows,
/// nearly all of them above every bracket.)
static uint64_t calendar_rows_settle_dear(const staysearch_calendar_rows_plan *plan, uint64_t dear, const int32_t *stayLow32,
                                          const int32_t *stayHigh32, uint64_t *belowAll, uint64_t *never) {
    uint64_t settledBelow = 0, settledAbove = 0;
    *belowAll = *never = 0;
    if (!stayLow32 || !stayHigh32) return 0;
    for (uint64_t rows = dear; rows; rows &= rows - 1) {
        const int lane = __builtin_ctzll(rows);
        const int32_t low = stayLow32[lane], high = stayHigh32[lane];
        const uint64_t bit = (uint64_t)1 << lane;
        if (low < 0 || high < 0) continue;
        if (high < plan->lowest || low > plan->highest) {
            *never |= bit;
        } else if (low >= plan->lowest && high <= plan->highest && low > plan->cheapest) {
            if (high < plan->lowestBracket) settledBelow |= bit;
            else if (low > plan->highestBracket) settledAbove |= bit;
        }
    }
    *belowAll = settledBelow;
    return settledBelow | settledAbove;
}

static uint64_t calendar_rows_portable(const staysearch_calendar_rows_plan *plan, const uint16_t *stayLow, const uint16_t *stayHigh,
                                       const int32_t *stayLow32, const int32_t *stayHigh32,
                                       uint64_t exact, uint64_t constants, const uint16_t *added, const int32_t *sumSlots, const uint16_t *stays,
                                       long stayStride, const uint64_t *valid, uint32_t *counts, uint32_t *below, int32_t *least,
                                       uint32_t *const *slots) {
    const long checkIns = plan->checkIns;
    uint64_t any = 0;
    for (long p = 0; p < checkIns; p++) any |= valid[p];
    for (int lane = 0; lane < 64; lane++) {
        if (!(any >> lane & 1) || !(exact >> lane & 1)) continue;
        const uint16_t *rowStays = (constants >> lane & 1) ? NULL : stays + (long)sumSlots[lane] * stayStride;
        for (long p = 0; p < checkIns; p++) {
            if (!(valid[p] >> lane & 1)) continue;
            int32_t total = rowStays ? (int32_t)rowStays[p] + (added ? added[lane] : 0) : stayLow[lane];
            if (total < plan->lowest || total > plan->highest) continue;
            counts[p] += 1;
            below[p] += total < plan->bracketLow[p];
            if (total >= plan->bracketLow[p] && total <= plan->bracketHigh[p]) slots[p][(total - plan->bracketLow[p]) >> plan->slotShift] += 1;
            if (total <= plan->cheapest && total < least[p]) least[p] = total;
        }
    }
    (void)stayHigh;
    uint64_t belowAll, never;
    const uint64_t settled = calendar_rows_settle_dear(plan, any & ~exact, stayLow32, stayHigh32, &belowAll, &never);
    for (long p = 0; settled && p < checkIns; p++) {
        counts[p] += (uint32_t)__builtin_popcountll(valid[p] & settled);
        below[p] += (uint32_t)__builtin_popcountll(valid[p] & belowAll);
    }
    return any & ~exact & ~(settled | never);
}

#if defined(__x86_64__)
/// What totalling a row's stays compares them with, the same for every row of a pass (16-bit lanes, the signed
/// ones biased by 2^15): the price range's ends, the cut for the least.
typedef struct {
    __m256i bias, fitLow, fitHigh, cheap, laneBits, ones;
    /// The plan's slot shift, as a shift count.
    __m128i slotShift;
} calendar_rows_limits;

/// For each set of eight 16-bit lanes (bit *k* = lane *k*), the byte shuffle that moves those lanes in order
/// to the front of a vector of 128 bits.
static uint8_t calendar_rows_compress[256][16];

__attribute__((constructor)) static void calendar_rows_compress_fill(void) {
    for (int mask = 0; mask < 256; mask++) {
        int at = 0;
        for (int lane = 0; lane < 8; lane++) {
            if (!(mask >> lane & 1)) continue;
            calendar_rows_compress[mask][at++] = (uint8_t)(2 * lane);
            calendar_rows_compress[mask][at++] = (uint8_t)(2 * lane + 1);
        }
        while (at < 16) calendar_rows_compress[mask][at++] = 0x80;
    }
}

/// `values`' 16-bit lanes whose bits are set in `mask` (eight bits) stored in order at `to`; returns the place
/// after them (eight lanes are written whatever the mask).
STAYSEARCH_AVX2_BMI2 static inline __attribute__((always_inline)) uint16_t *calendar_rows_append(uint16_t *to, __m128i values,
                                                                                               uint32_t mask) {
    _mm_storeu_si128((__m128i *)to, _mm_shuffle_epi8(values, _mm_loadu_si128((const __m128i *)calendar_rows_compress[mask])));
    return to + __builtin_popcount(mask);
}

/// Totals one row's stays `total` of sixteen check-ins (those of `checkIns`, bit *k* = lane *k*) whose brackets
/// are `from ... to` (biased) and `lowBounds` (not): counts them in `found`, those below the bracket in `under`,
/// the least at most the cut in `lowest` (when `mayBeCheap`), and those inside their brackets appended at
/// `*entriesOf`: the check-ins' mask (bit *k*: check-in *k*), then each one's slot in its bracket, in order (none
/// when no total is inside). `wholeRange`: every total of 16 bits lies in the price range.
STAYSEARCH_AVX2_BMI2 static inline __attribute__((always_inline)) void
calendar_rows_total_half(const calendar_rows_limits *limits, __m256i total, uint32_t checkIns, int mayBeCheap, int wholeRange,
                         __m256i from, __m256i to, __m256i lowBounds, __m256i *found, __m256i *under, __m256i *lowest,
                         uint16_t **entriesOf) {
    const __m256i biased = _mm256_xor_si256(total, limits->bias);
    __m256i hits = _mm256_cmpeq_epi16(_mm256_and_si256(_mm256_set1_epi16((short)checkIns), limits->laneBits), limits->laneBits);
    if (!wholeRange) {
        hits = _mm256_andnot_si256(_mm256_or_si256(_mm256_cmpgt_epi16(limits->fitLow, biased), _mm256_cmpgt_epi16(biased, limits->fitHigh)),
                                   hits);
    }
    const __m256i below = _mm256_cmpgt_epi16(from, biased), above = _mm256_cmpgt_epi16(biased, to);
    *found = _mm256_sub_epi16(*found, hits);
    *under = _mm256_sub_epi16(*under, _mm256_and_si256(below, hits));
    if (mayBeCheap) {
        const __m256i cheapHits = _mm256_andnot_si256(_mm256_cmpgt_epi16(biased, limits->cheap), hits);
        *lowest = _mm256_min_epu16(*lowest, _mm256_or_si256(total, _mm256_andnot_si256(cheapHits, limits->ones)));
    }
    uint32_t inside = _pext_u32((uint32_t)_mm256_movemask_epi8(_mm256_andnot_si256(_mm256_or_si256(below, above), hits)), 0x55555555u);
    // The mask of the check-ins inside their brackets (kept when not 0), then each one's slot (a total inside is
    // at least its bracket's low end), eight lanes a step: a branch on how many are inside cost more than the
    // counting (the number varies from row to row and was mispredicted about once a row). A slot is 16 bits, so
    // that a bracket of won (4,000–10,000 units of ₩100) is counted as one of dollars is.
    uint16_t *at = *entriesOf;
    *at = (uint16_t)inside;
    at += inside != 0;
    const __m256i entries = _mm256_srl_epi16(_mm256_sub_epi16(total, lowBounds), limits->slotShift);
    at = calendar_rows_append(at, _mm256_castsi256_si128(entries), inside & 0xFF);
    *entriesOf = calendar_rows_append(at, _mm256_extracti128_si256(entries, 1), inside >> 8);
}

/// The rows of `totalled` totalled into the accumulators (see calendar_rows_total_avx2); `wholeRange`,
/// `mayBeCheap` (whether the rows' stays may be as cheap as the cut) and `constant` (whether the rows are of
/// one price) constants where it is inlined, so that each version tests the price range and the cut or not,
/// and reads a row's stays or its one total, without a branch. Both halves of a row are totalled whatever its
/// check-ins (a half with none adds nothing): a branch on them was mispredicted more than it saved.
STAYSEARCH_AVX2_BMI2 static inline __attribute__((always_inline)) void
calendar_rows_total_rows(const calendar_rows_limits *limits, const int wholeRange, const int mayBeCheap, const int constant,
                         uint64_t totalled, const __m256i *bytes, const int32_t *sumSlots, const uint16_t *fixedTotals,
                         const uint16_t *added, const uint16_t *stays, long stayStride, __m256i from0, __m256i to0, __m256i low0, __m256i from1, __m256i to1,
                         __m256i low1, __m256i *found0, __m256i *under0, __m256i *lowest0, __m256i *found1, __m256i *under1,
                         __m256i *lowest1, uint16_t **entries0, uint16_t **entries1) {
    for (uint64_t rows = totalled; rows; rows &= rows - 1) {
        const int lane = __builtin_ctzll(rows);
        const uint32_t checkInBits = (uint32_t)_mm256_movemask_epi8(_mm256_sll_epi16(bytes[lane >> 3], _mm_cvtsi32_si128(7 - (lane & 7))));
        __m256i first, second;
        if (constant) {
            first = second = _mm256_set1_epi16((short)fixedTotals[lane]);
        } else {
            const uint16_t *rowStays = stays + (long)sumSlots[lane] * stayStride;
            const __m256i fees = _mm256_set1_epi16((short)added[lane]);
            first = _mm256_add_epi16(_mm256_loadu_si256((const __m256i *)rowStays), fees);
            second = _mm256_add_epi16(_mm256_loadu_si256((const __m256i *)(rowStays + 16)), fees);
        }
        calendar_rows_total_half(limits, first, checkInBits & 0xFFFF, mayBeCheap, wholeRange, from0, to0, low0, found0, under0, lowest0,
                                 entries0);
        calendar_rows_total_half(limits, second, checkInBits >> 16, mayBeCheap, wholeRange, from1, to1, low1, found1, under1, lowest1,
                                 entries1);
    }
}

/// Counts the entries `entry ..< end` (each row's mask of check-ins, then their slots; see
/// calendar_rows_total_half) in `slots` (check-in *k*'s at `slots[k]`).
static inline void calendar_rows_count_entries(const uint16_t *entry, const uint16_t *end, uint32_t *const *slots) {
    while (entry < end) {
        for (uint32_t bits = *entry++; bits; bits &= bits - 1) slots[__builtin_ctz(bits)][*entry++] += 1;
    }
}

/// Totals the stays of the word `plan` holds pending (see staysearch_calendar_rows).
STAYSEARCH_AVX2_BMI2 static void calendar_rows_total_avx2(const staysearch_calendar_rows_plan *plan, const uint16_t *stays,
                                                         long stayStride, uint32_t *counts, uint32_t *below, int32_t *least,
                                                         uint32_t *const *slots) {
    const uint64_t totalled = plan->pendingRows, constants = plan->pendingConstants, cheapRows = plan->pendingCheap;
    const int32_t *sumSlots = plan->pendingSlots;
    const uint16_t *fixedTotals = plan->pendingTotals, *added = plan->pendingAdded;
    __m256i bytes[8];
    for (int j = 0; j < 8; j++) bytes[j] = _mm256_loadu_si256((const __m256i *)(plan->pendingCheckIns + 32 * j));
    // Per check-in (16-bit lanes, check-ins 0-15 and 16-31): the bounds clamped into 16 bits (every total
    // here is at most STAYSEARCH_CALENDAR_ROWS_LARGEST, so a bound above it keeps its meaning), biased by
    // 2^15 so that one signed compare tells each.
    const __m256i bias = _mm256_set1_epi16((short)0x8000);
    const calendar_rows_limits limits = {
        bias, _mm256_set1_epi16((short)(clamp_u16(plan->lowest) ^ 0x8000)), _mm256_set1_epi16((short)(clamp_u16(plan->highest) ^ 0x8000)),
        _mm256_set1_epi16((short)(clamp_u16(plan->cheapest) ^ 0x8000)),
        _mm256_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, (short)32768), _mm256_set1_epi16(-1),
        _mm_cvtsi64_si128(plan->slotShift)};
    // The totals inside their brackets (each row's mask and slots, see calendar_rows_total_half) of check-ins
    // 0-15 and 16-31, counted on their units once the word's rows are totalled: one loop a word rather than
    // one a row.
    uint16_t entryBuffers[2][64 * 17 + 8];
    uint16_t *entries0 = entryBuffers[0], *entries1 = entryBuffers[1];
    const int wholeRange = plan->lowest <= 0 && plan->highest >= STAYSEARCH_CALENDAR_ROWS_LARGEST;
    const __m256i low0 = _mm256_loadu_si256((const __m256i *)plan->lowBounds), low1 = _mm256_loadu_si256((const __m256i *)(plan->lowBounds + 16));
    const __m256i from0 = _mm256_xor_si256(low0, bias), from1 = _mm256_xor_si256(low1, bias);
    const __m256i to0 = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)plan->highBounds), bias);
    const __m256i to1 = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(plan->highBounds + 16)), bias);
    __m256i found0 = _mm256_setzero_si256(), found1 = found0, under0 = found0, under1 = found0;
    __m256i lowest0 = limits.ones, lowest1 = limits.ones;
#define STAYSEARCH_TOTAL_ROWS(whole, cheap, constant, rows)                                                                            \
    calendar_rows_total_rows(&limits, whole, cheap, constant, rows, bytes, sumSlots, fixedTotals, added, stays, stayStride, from0, to0, low0,     \
                             from1, to1, low1, &found0, &under0, &lowest0, &found1, &under1, &lowest1, &entries0, &entries1)
    if (wholeRange) {
        STAYSEARCH_TOTAL_ROWS(1, 0, 0, totalled & ~cheapRows & ~constants);
        STAYSEARCH_TOTAL_ROWS(1, 1, 0, totalled & cheapRows & ~constants);
        STAYSEARCH_TOTAL_ROWS(1, 0, 1, totalled & ~cheapRows & constants);
        STAYSEARCH_TOTAL_ROWS(1, 1, 1, totalled & cheapRows & constants);
    } else {
        STAYSEARCH_TOTAL_ROWS(0, 0, 0, totalled & ~cheapRows & ~constants);
        STAYSEARCH_TOTAL_ROWS(0, 1, 0, totalled & cheapRows & ~constants);
        STAYSEARCH_TOTAL_ROWS(0, 0, 1, totalled & ~cheapRows & constants);
        STAYSEARCH_TOTAL_ROWS(0, 1, 1, totalled & cheapRows & constants);
    }
#undef STAYSEARCH_TOTAL_ROWS
    calendar_rows_count_entries(entryBuffers[0], entries0, slots);
    calendar_rows_count_entries(entryBuffers[1], entries1, slots + 16);
    __m256i found[2] = {found0, found1}, under[2] = {under0, under1}, lowestTotal[2] = {lowest0, lowest1};
    // The word's counts added in 32 bits, eight check-ins a step (the arrays hold 32).
    const __m256i none = _mm256_set1_epi32(0xFFFF), unset = _mm256_set1_epi32(INT32_MAX);
    for (int h = 0; h < 2; h++) {
        for (int q = 0; q < 2; q++) {
            const int at = 16 * h + 8 * q;
            __m128i foundHalf = q ? _mm256_extracti128_si256(found[h], 1) : _mm256_castsi256_si128(found[h]);
            __m128i underHalf = q ? _mm256_extracti128_si256(under[h], 1) : _mm256_castsi256_si128(under[h]);
            __m128i lowestHalf = q ? _mm256_extracti128_si256(lowestTotal[h], 1) : _mm256_castsi256_si128(lowestTotal[h]);
            _mm256_storeu_si256((__m256i *)(counts + at), _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(counts + at)), _mm256_cvtepu16_epi32(foundHalf)));
            _mm256_storeu_si256((__m256i *)(below + at), _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(below + at)), _mm256_cvtepu16_epi32(underHalf)));
            __m256i lowest8 = _mm256_cvtepu16_epi32(lowestHalf);
            lowest8 = _mm256_blendv_epi8(lowest8, unset, _mm256_cmpeq_epi32(lowest8, none));
            _mm256_storeu_si256((__m256i *)(least + at), _mm256_min_epi32(_mm256_loadu_si256((const __m256i *)(least + at)), lowest8));
        }
    }
}

/// The 16-bit lanes' masks of `a` (rows 0-15) and `b` (rows 16-31) as 32 bits.
STAYSEARCH_AVX2_BMI2 static inline uint64_t calendar_rows_bits(__m256i a, __m256i b) {
    return (uint32_t)_mm256_movemask_epi8(_mm256_permute4x64_epi64(_mm256_packs_epi16(a, b), 0xD8));
}

STAYSEARCH_AVX2_BMI2 static uint64_t calendar_rows_avx2(staysearch_calendar_rows_plan *plan, const uint16_t *stayLow,
                                                        const uint16_t *stayHigh, const int32_t *stayLow32, const int32_t *stayHigh32, uint64_t exact, uint64_t constants,
                                                        const uint16_t *added, const int32_t *sumSlots, const uint16_t *stays, long stayStride,
                                                        const uint64_t *valid, uint32_t *counts, uint32_t *below, int32_t *least,
                                                        uint32_t *const *slots) {
    const long checkIns = plan->checkIns;
    uint64_t words[32], anyValid = 0;
    for (long p = 0; p < checkIns; p++) anyValid |= valid[p];
    if (!anyValid) {
        // The word before is totalled by this call all the same: its stays' bounds and fees may be the
        // caller's to reuse after it.
        if (plan->pendingRows) calendar_rows_total_avx2(plan, stays, stayStride, counts, below, least, slots);
        plan->pendingRows = 0;
        return 0;
    }
    // Rows settled as in staysearch_calendar_word: every stay (by the row's least and greatest) below or above
    // every bracket and inside the price range. The rows totalled here stay within 65,534 units, so the
    // bounds clamped into 16 bits (biased by 2^15 for signed compares) keep their meaning.
    const __m256i bias = _mm256_set1_epi16((short)0x8000);
    const __m256i lowest = _mm256_set1_epi16((short)(clamp_u16(plan->lowest) ^ 0x8000));
    const __m256i highest = _mm256_set1_epi16((short)(clamp_u16(plan->highest) ^ 0x8000));
    const __m256i underAll = _mm256_set1_epi16((short)(clamp_u16(plan->lowestBracket) ^ 0x8000));
    const __m256i overAll = _mm256_set1_epi16((short)(clamp_u16(plan->highestBracket) ^ 0x8000));
    const __m256i cheap = _mm256_set1_epi16((short)(clamp_u16(plan->cheapest) ^ 0x8000));
    uint64_t misfit = 0, neverFits = 0, isBelow = 0, isAbove = 0, notCheap = 0;
    for (int group = 0; group < 2; group++) {
        if (!((anyValid >> (group * 32)) & 0xFFFFFFFFu)) continue;
        __m256i low0 = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(stayLow + group * 32)), bias);
        __m256i low1 = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(stayLow + group * 32 + 16)), bias);
        __m256i high0 = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(stayHigh + group * 32)), bias);
        __m256i high1 = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(stayHigh + group * 32 + 16)), bias);
        const int shift = group * 32;
        misfit |= calendar_rows_bits(_mm256_or_si256(_mm256_cmpgt_epi16(lowest, low0), _mm256_cmpgt_epi16(high0, highest)),
                                     _mm256_or_si256(_mm256_cmpgt_epi16(lowest, low1), _mm256_cmpgt_epi16(high1, highest))) << shift;
        neverFits |= calendar_rows_bits(_mm256_or_si256(_mm256_cmpgt_epi16(low0, highest), _mm256_cmpgt_epi16(lowest, high0)),
                                        _mm256_or_si256(_mm256_cmpgt_epi16(low1, highest), _mm256_cmpgt_epi16(lowest, high1))) << shift;
        isBelow |= calendar_rows_bits(_mm256_cmpgt_epi16(underAll, high0), _mm256_cmpgt_epi16(underAll, high1)) << shift;
        isAbove |= calendar_rows_bits(_mm256_cmpgt_epi16(low0, overAll), _mm256_cmpgt_epi16(low1, overAll)) << shift;
        notCheap |= calendar_rows_bits(_mm256_cmpgt_epi16(low0, cheap), _mm256_cmpgt_epi16(low1, cheap)) << shift;
    }
    // Bounds below 0 (none or every total past them) that clamping would move.
    if (plan->highest < 0) misfit = neverFits = ~(uint64_t)0;
    if (plan->highestBracket < 0) isAbove = ~(uint64_t)0;
    if (plan->cheapest < 0) notCheap = ~(uint64_t)0;
    // The rows too dear for 16 bits that their 32-bit bounds settle are counted with these.
    uint64_t dearBelow, dearNever;
    const uint64_t dearSettled = calendar_rows_settle_dear(plan, anyValid & ~exact, stayLow32, stayHigh32, &dearBelow, &dearNever);
    const uint64_t exactSettled = exact & ~misfit & (isBelow | isAbove) & (constants | notCheap);
    const uint64_t settled = exactSettled | dearSettled, settledBelow = (exactSettled & isBelow) | dearBelow;
    const uint64_t settledCheap = exactSettled & constants & ~notCheap, never = exact & neverFits;
    const uint64_t returned = anyValid & ~exact & ~(dearSettled | dearNever);
    for (long p = 0; p < checkIns; p++) words[p] = valid[p] & (exact | dearSettled);
    for (long p = checkIns; p < 32; p++) words[p] = 0;
    if (settled) {
        for (long p = 0; p < checkIns; p++) {
            counts[p] += (uint32_t)_mm_popcnt_u64(words[p] & settled);
            below[p] += (uint32_t)_mm_popcnt_u64(words[p] & settledBelow);
        }
        for (long p = 0; settledCheap && p < checkIns; p++) {
            for (uint64_t bits = words[p] & settledCheap; bits; bits &= bits - 1) {
                int32_t value = stayLow[__builtin_ctzll(bits)];
                if (value < least[p]) least[p] = value;
            }
        }
    }
    uint64_t totalled = anyValid & exact & ~(settled | never);
    // The rows to total have their stays scattered over the span's: asked of memory now, they are totalled
    // by the next call, with the word before this one totalled meanwhile (a row's stays are one line when
    // `stays` and the stride are 64 bytes).
    for (uint64_t rows = totalled & ~constants; rows; rows &= rows - 1) {
        const uint16_t *rowStays = stays + (long)sumSlots[__builtin_ctzll(rows)] * stayStride;
        __builtin_prefetch(rowStays);
        __builtin_prefetch(rowStays + checkIns - 1);
    }
    if (plan->pendingRows) calendar_rows_total_avx2(plan, stays, stayStride, counts, below, least, slots);
    plan->pendingRows = totalled;
    if (!totalled) return returned;
    plan->pendingConstants = constants;
    plan->pendingCheap = totalled & ~notCheap;
    plan->pendingSlots = sumSlots;
    plan->pendingTotals = stayLow;
    plan->pendingAdded = added ? added : calendar_rows_nothing_added;
    // Each totalled row's check-ins (a 32-bit mask), from the check-ins' rows.
    __m256i bytes[8];
    calendar_rows_transpose(words, bytes);
    for (int j = 0; j < 8; j++) _mm256_storeu_si256((__m256i *)(plan->pendingCheckIns + 32 * j), bytes[j]);
    return returned;
}
#endif

/// Per set of weekdays `w` (bit 0 = Monday) of a rule class: the check-ins among the span's first `windows`
/// (the first on weekday `firstWeekday`) that fall on them.
static void bookable_bounds_weekday_masks(long firstWeekday, long windows, uint32_t *masks) {
    for (int w = 0; w < 128; w++) {
        uint32_t mask = 0;
        for (long p = 0; p < windows; p++) mask |= (uint32_t)(w >> ((firstWeekday + p) % 7) & 1) << p;
        masks[w] = mask;
    }
}

/// The rows of word `word` (of `rows`) that can book each of the `windows` check-ins' `nights` nights.
static uint64_t bookable_bounds_open(const uint64_t *bookable, long wordsPerDay, long nights, long windows, long word, uint64_t rows,
                                     uint64_t *open) {
    uint64_t anyOpen = 0;
    for (long p = 0; p < STAYSEARCH_CALENDAR_ROWS_CHECKINS; p++) {
        uint64_t bits = p < windows ? rows : 0;
        const uint64_t *night = bookable + p * wordsPerDay + word;
        for (long k = 0; k < nights && bits; k++, night += wordsPerDay) bits &= *night;
        open[p] = bits;
        anyOpen |= bits;
    }
    return anyOpen;
}

static void bookable_bounds_portable(const uint64_t *bookable, long wordsPerDay, long nights, long windows, long from, long to,
                                     const uint64_t *exact, const uint64_t *constants, const int32_t *sumSlots, const uint16_t *stays,
                                     long stayStride, const uint8_t *classes, const uint32_t *weekdayMasks,
                                     const uint8_t *weekdaysOfClass, uint16_t *low16, uint16_t *high16) {
    uint64_t open[STAYSEARCH_CALENDAR_ROWS_CHECKINS];
    for (long word = from >> 6; word << 6 < to; word++) {
        const uint64_t rows = exact[word] & ~constants[word];
        if (!rows) continue;
        const uint64_t anyOpen = bookable_bounds_open(bookable, wordsPerDay, nights, windows, word, rows, open);
        for (uint64_t lanes = anyOpen; lanes; lanes &= lanes - 1) {
            const int lane = __builtin_ctzll(lanes);
            const long row = (word << 6) + lane;
            if (row < from || row >= to || sumSlots[row] < 0) continue;
            const uint32_t allowed = weekdayMasks[weekdaysOfClass[classes[row]] & 127];
            const uint16_t *line = stays + (long)sumSlots[row] * stayStride;
            uint16_t low = UINT16_MAX, high = 0;
            int any = 0;
            for (long p = 0; p < windows; p++) {
                if (!(open[p] >> lane & 1) || !(allowed >> p & 1)) continue;
                any = 1;
                if (line[p] < low) low = line[p];
                if (line[p] > high) high = line[p];
            }
            if (!any) continue;
            low16[row] = low;
            high16[row] = high;
        }
    }
}

#if defined(__x86_64__)
STAYSEARCH_AVX2_BMI2 static void bookable_bounds_avx2(const uint64_t *bookable, long wordsPerDay, long nights, long windows, long from,
                                                      long to, const uint64_t *exact, const uint64_t *constants, const int32_t *sumSlots,
                                                      const uint16_t *stays, long stayStride, const uint8_t *classes,
                                                      const uint32_t *weekdayMasks, const uint8_t *weekdaysOfClass, uint16_t *low16,
                                                      uint16_t *high16) {
    uint64_t open[STAYSEARCH_CALENDAR_ROWS_CHECKINS];
    const __m256i laneBits = _mm256_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, (short)32768);
    const __m256i ones = _mm256_set1_epi16(-1);
    for (long word = from >> 6; word << 6 < to; word++) {
        const uint64_t rows = exact[word] & ~constants[word];
        if (!rows) continue;
        const uint64_t anyOpen = bookable_bounds_open(bookable, wordsPerDay, nights, windows, word, rows, open);
        if (!anyOpen) continue;
        __m256i bytes[8];
        calendar_rows_transpose(open, bytes);
        for (uint64_t lanes = anyOpen; lanes; lanes &= lanes - 1) {
            const int lane = __builtin_ctzll(lanes);
            const long row = (word << 6) + lane;
            if (row < from || row >= to || sumSlots[row] < 0) continue;
            const uint32_t bits = (uint32_t)_mm256_movemask_epi8(_mm256_sll_epi16(bytes[lane >> 3], _mm_cvtsi32_si128(7 - (lane & 7))))
                                  & weekdayMasks[weekdaysOfClass[classes[row]] & 127];
            if (!bits) continue;
            const uint16_t *line = stays + (long)sumSlots[row] * stayStride;
            const __m256i first = _mm256_loadu_si256((const __m256i *)line), second = _mm256_loadu_si256((const __m256i *)(line + 16));
            const __m256i in0 = _mm256_cmpeq_epi16(_mm256_and_si256(_mm256_set1_epi16((short)(bits & 0xFFFF)), laneBits), laneBits);
            const __m256i in1 = _mm256_cmpeq_epi16(_mm256_and_si256(_mm256_set1_epi16((short)(bits >> 16)), laneBits), laneBits);
            // Stays outside the mask count as 65,535 for the least and 0 for the greatest.
            const __m256i lows = _mm256_min_epu16(_mm256_or_si256(first, _mm256_andnot_si256(in0, ones)),
                                                  _mm256_or_si256(second, _mm256_andnot_si256(in1, ones)));
            const __m256i highs = _mm256_max_epu16(_mm256_and_si256(first, in0), _mm256_and_si256(second, in1));
            const __m128i low8 = _mm_min_epu16(_mm256_castsi256_si128(lows), _mm256_extracti128_si256(lows, 1));
            const __m128i high8 = _mm_max_epu16(_mm256_castsi256_si128(highs), _mm256_extracti128_si256(highs, 1));
            low16[row] = (uint16_t)_mm_extract_epi16(_mm_minpos_epu16(low8), 0);
            high16[row] = (uint16_t)~_mm_extract_epi16(_mm_minpos_epu16(_mm_xor_si128(high8, _mm256_castsi256_si128(ones))), 0);
        }
    }
}
#endif

void staysearch_calendar_rows_bookable_bounds(const uint64_t *bookable, long wordsPerDay, long nights, long windows, long from, long to,
                                              const uint64_t *exact, const uint64_t *constants, const int32_t *sumSlots,
                                              const uint16_t *stays, long stayStride, const uint8_t *classes, const uint8_t *weekdaysOfClass,
                                              long firstWeekday, uint16_t *low16, uint16_t *high16) {
    if (nights < 1 || windows < 1 || windows > STAYSEARCH_CALENDAR_ROWS_CHECKINS || from >= to) return;
    uint32_t weekdayMasks[128];
    bookable_bounds_weekday_masks(((firstWeekday % 7) + 7) % 7, windows, weekdayMasks);
#if defined(__x86_64__)
    if (!__atomic_load_n(&staysearch_calendar_portable, __ATOMIC_RELAXED) && has_avx2_bmi2()) {
        bookable_bounds_avx2(bookable, wordsPerDay, nights, windows, from, to, exact, constants, sumSlots, stays, stayStride, classes,
                             weekdayMasks, weekdaysOfClass, low16, high16);
        return;
    }
#endif
    bookable_bounds_portable(bookable, wordsPerDay, nights, windows, from, to, exact, constants, sumSlots, stays, stayStride, classes,
                             weekdayMasks, weekdaysOfClass, low16, high16);
}

uint64_t staysearch_calendar_rows(staysearch_calendar_rows_plan *plan, const uint16_t *stayLow, const uint16_t *stayHigh,
                                  const int32_t *stayLow32, const int32_t *stayHigh32,
                                  uint64_t exact, uint64_t constants, const uint16_t *added, const int32_t *sumSlots, const uint16_t *stays, long stayStride,
                                  const uint64_t *valid, uint32_t *counts, uint32_t *below, int32_t *least, uint32_t *const *slots) {
#if defined(__x86_64__)
    if (!__atomic_load_n(&staysearch_calendar_portable, __ATOMIC_RELAXED) && has_avx2_bmi2()) {
        return calendar_rows_avx2(plan, stayLow, stayHigh, stayLow32, stayHigh32, exact, constants, added, sumSlots, stays, stayStride, valid, counts, below, least,
                                  slots);
    }
#endif
    staysearch_calendar_rows_finish(plan, stays, stayStride, counts, below, least, slots);
    return calendar_rows_portable(plan, stayLow, stayHigh, stayLow32, stayHigh32, exact, constants, added, sumSlots, stays, stayStride, valid, counts, below, least,
                                  slots);
}

void staysearch_calendar_rows_finish(staysearch_calendar_rows_plan *plan, const uint16_t *stays, long stayStride, uint32_t *counts,
                                     uint32_t *below, int32_t *least, uint32_t *const *slots) {
#if defined(__x86_64__)
    // Only the AVX2 version leaves a word pending.
    if (plan->pendingRows) calendar_rows_total_avx2(plan, stays, stayStride, counts, below, least, slots);
#endif
    plan->pendingRows = 0;
}
