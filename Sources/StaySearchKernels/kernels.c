#include "StaySearchKernels.h"

#if defined(__x86_64__)
#include <immintrin.h>
#define STAYSEARCH_AVX2 __attribute__((target("avx2")))

/// Whether the processor has AVX2: asked once, kept (a relaxed atomic: every thread finds the same answer).
static int has_avx2(void) {
    static int known = -1;
    int answer = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (answer < 0) {
        __builtin_cpu_init();
        answer = __builtin_cpu_supports("avx2") ? 1 : 0;
        __atomic_store_n(&known, answer, __ATOMIC_RELAXED);
    }
    return answer;
}
#endif

static void fold_portable(const int64_t *values, long count, int64_t *sum, int64_t *smallest, int64_t *largest) {
    int64_t total = 0, low = *smallest, high = *largest;
    for (long i = 0; i < count; i++) {
        int64_t value = values[i];
        total += value;
        low = value < low ? value : low;
        high = value > high ? value : high;
    }
    *sum += total;
    *smallest = low;
    *largest = high;
}

static long count_portable(const int64_t *values, long count, int64_t lowest, int64_t highest) {
    long total = 0;
    for (long i = 0; i < count; i++) total += values[i] >= lowest && values[i] <= highest;
    return total;
}

/// The values of `values` in `lowest ... highest`, in order, stored to `picked` without a branch on each
/// (every value is stored, the cursor moves past the ones in range: one slot more than those is needed).
static long pick_portable(const int64_t *values, long count, int64_t lowest, int64_t highest, int64_t *picked) {
    long written = 0;
    for (long i = 0; i < count; i++) {
        int64_t value = values[i];
        picked[written] = value;
        written += value >= lowest && value <= highest;
    }
    return written;
}

static long first_portable(const int64_t *values, long start, long count, int64_t lowest, int64_t highest) {
    for (long i = start; i < count; i++) {
        if (values[i] >= lowest && values[i] <= highest) return i;
    }
    return count;
}

static uint64_t verdicts_portable(const uint8_t *classes, const uint8_t *allowed, uint64_t *check) {
    uint64_t bits = 0, checked = 0;
    for (int row = 0; row < 64; row++) {
        uint8_t rowClass = classes[row];
        bits |= (uint64_t)((allowed[rowClass >> 3] >> (rowClass & 7)) & 1) << row;
        checked |= (uint64_t)(rowClass == 255) << row;
    }
    *check = checked;
    return bits;
}

static void add_slots_portable(const int64_t *values, long count, int32_t *counts, long bins, int64_t unit, uint64_t magic,
                               int64_t end, long above) {
    for (long i = 0; i < count; i++) {
        uint64_t scaled = (uint64_t)values[i] * (uint64_t)bins;
        uint64_t floor = (uint64_t)(((unsigned __int128)scaled * magic) >> 64);
        uint64_t ceiling = (uint64_t)(((unsigned __int128)(scaled + (uint64_t)unit - 1) * magic) >> 64);
        counts[values[i] < end ? (long)(floor + ceiling) : above] += 1;
    }
}

#if defined(__x86_64__)
/// The largest unit the AVX2 slots take: below it, z = value · bins < 2^31 for every value below `end`
/// (bins · units ≤ 65,536 slots' worth), and the quotients in doubles are exact (see add_slots_avx2).
#define STAYSEARCH_SLOTS_LARGEST_UNIT 30000

/// Four values at a time in doubles: a value below 2^52 becomes a double exactly (its bits under those of
/// 2^52, less 2^52), z = value · bins exactly (z < 2^31), and ⌊z ÷ u⌋ = ⌊(z + ½) · fl(1 ÷ u)⌋,
/// ⌈z ÷ u⌉ = ⌊(z + u − ½) · fl(1 ÷ u)⌋: the true quotients lie at least ½ ÷ u ≥ 2^-16 from the next whole
/// number, the rounding errors of the products below z · 2^-52 < 2^-21. The counts are added one by one.
STAYSEARCH_AVX2 static void add_slots_avx2(const int64_t *values, long count, int32_t *counts, long bins, int64_t unit,
                                           uint64_t magic, int64_t end, long above) {
    if (unit > STAYSEARCH_SLOTS_LARGEST_UNIT) {
        add_slots_portable(values, count, counts, bins, unit, magic, end, above);
        return;
    }
    const __m256d inverse = _mm256_set1_pd(1.0 / (double)unit), half = _mm256_set1_pd(0.5);
    const __m256d upper = _mm256_set1_pd((double)unit - 0.5), scale = _mm256_set1_pd((double)bins);
    const __m256i exponent = _mm256_set1_epi64x(0x4330000000000000LL);       // the bits of 2^52
    const __m256d shift = _mm256_set1_pd(4503599627370496.0);                  // 2^52
    const __m256i last = _mm256_set1_epi64x(end - 1);
    long i = 0;
    for (; i + 4 <= count; i += 4) {
        __m256i lanes = _mm256_loadu_si256((const __m256i *)(values + i));
        __m256i past = _mm256_cmpgt_epi64(lanes, last);
        // Values from `end` up count as 0 here and go to `above` after.
        __m256d value = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(_mm256_andnot_si256(past, lanes), exponent)), shift);
        __m256d z = _mm256_mul_pd(value, scale);
        __m256d low = _mm256_floor_pd(_mm256_mul_pd(_mm256_add_pd(z, half), inverse));
        __m256d high = _mm256_floor_pd(_mm256_mul_pd(_mm256_add_pd(z, upper), inverse));
        __m128i slots = _mm256_cvttpd_epi32(_mm256_add_pd(low, high));
        // Lanes from `end` up take `above` (their 64-bit masks narrowed to 32 bits).
        __m128i pastLanes = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(past, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6)));
        slots = _mm_blendv_epi8(slots, _mm_set1_epi32((int)above), pastLanes);
        counts[_mm_cvtsi128_si32(slots)] += 1;
        counts[_mm_extract_epi32(slots, 1)] += 1;
        counts[_mm_extract_epi32(slots, 2)] += 1;
        counts[_mm_extract_epi32(slots, 3)] += 1;
    }
    add_slots_portable(values + i, count - i, counts, bins, unit, magic, end, above);
}

STAYSEARCH_AVX2 static void fold_avx2(const int64_t *values, long count, int64_t *sum, int64_t *smallest, int64_t *largest) {
    __m256i sums = _mm256_setzero_si256();
    __m256i lows = _mm256_set1_epi64x(*smallest), highs = _mm256_set1_epi64x(*largest);
    long i = 0;
    for (; i + 4 <= count; i += 4) {
        __m256i lanes = _mm256_loadu_si256((const __m256i *)(values + i));
        sums = _mm256_add_epi64(sums, lanes);
        lows = _mm256_blendv_epi8(lows, lanes, _mm256_cmpgt_epi64(lows, lanes));
        highs = _mm256_blendv_epi8(highs, lanes, _mm256_cmpgt_epi64(lanes, highs));
    }
    int64_t s[4], l[4], h[4];
    _mm256_storeu_si256((__m256i *)s, sums);
    _mm256_storeu_si256((__m256i *)l, lows);
    _mm256_storeu_si256((__m256i *)h, highs);
    int64_t total = s[0] + s[1] + s[2] + s[3], low = l[0], high = h[0];
    for (int k = 1; k < 4; k++) {
        low = l[k] < low ? l[k] : low;
        high = h[k] > high ? h[k] : high;
    }
    *sum += total;
    *smallest = low;
    *largest = high;
    fold_portable(values + i, count - i, sum, smallest, largest);
}

/// Lanes of `lanes` in `lowest ... highest`, as all-ones.
STAYSEARCH_AVX2 static inline __m256i in_range(__m256i lanes, __m256i lowest, __m256i highest) {
    return _mm256_andnot_si256(_mm256_or_si256(_mm256_cmpgt_epi64(lowest, lanes), _mm256_cmpgt_epi64(lanes, highest)),
                               _mm256_set1_epi64x(-1));
}

STAYSEARCH_AVX2 static long count_avx2(const int64_t *values, long count, int64_t lowest, int64_t highest) {
    __m256i low = _mm256_set1_epi64x(lowest), high = _mm256_set1_epi64x(highest), counts = _mm256_setzero_si256();
    long i = 0;
    for (; i + 4 <= count; i += 4) {
        counts = _mm256_sub_epi64(counts, in_range(_mm256_loadu_si256((const __m256i *)(values + i)), low, high));
    }
    int64_t c[4];
    _mm256_storeu_si256((__m256i *)c, counts);
    return (long)(c[0] + c[1] + c[2] + c[3]) + count_portable(values + i, count - i, lowest, highest);
}

STAYSEARCH_AVX2 static long first_avx2(const int64_t *values, long start, long count, int64_t lowest, int64_t highest) {
    __m256i low = _mm256_set1_epi64x(lowest), high = _mm256_set1_epi64x(highest);
    long i = start;
    for (; i + 8 <= count; i += 8) {
        __m256i hits = _mm256_or_si256(in_range(_mm256_loadu_si256((const __m256i *)(values + i)), low, high),
                                       in_range(_mm256_loadu_si256((const __m256i *)(values + i + 4)), low, high));
        if (!_mm256_testz_si256(hits, hits)) break;
    }
    return first_portable(values, i, count, lowest, highest);
}

/// For each 4-bit mask of lanes, the 32-bit lane pairs that bring its 64-bit lanes to the front, in order.
static const int32_t pick_permutations[16][8] = {
    {0, 1, 2, 3, 4, 5, 6, 7}, {0, 1, 2, 3, 4, 5, 6, 7}, {2, 3, 0, 1, 4, 5, 6, 7}, {0, 1, 2, 3, 4, 5, 6, 7},
    {4, 5, 0, 1, 2, 3, 6, 7}, {0, 1, 4, 5, 2, 3, 6, 7}, {2, 3, 4, 5, 0, 1, 6, 7}, {0, 1, 2, 3, 4, 5, 6, 7},
    {6, 7, 0, 1, 2, 3, 4, 5}, {0, 1, 6, 7, 2, 3, 4, 5}, {2, 3, 6, 7, 0, 1, 4, 5}, {0, 1, 2, 3, 6, 7, 4, 5},
    {4, 5, 6, 7, 0, 1, 2, 3}, {0, 1, 4, 5, 6, 7, 2, 3}, {2, 3, 4, 5, 6, 7, 0, 1}, {0, 1, 2, 3, 4, 5, 6, 7},
};

/// ``pick_portable`` four values a step: the lanes in range moved to the front by one permutation and the
/// whole vector stored (four slots more than the values in range are needed).
STAYSEARCH_AVX2 static long pick_avx2(const int64_t *values, long count, int64_t lowest, int64_t highest, int64_t *picked) {
    __m256i low = _mm256_set1_epi64x(lowest), high = _mm256_set1_epi64x(highest);
    long written = 0, i = 0;
    for (; i + 4 <= count; i += 4) {
        __m256i lanes = _mm256_loadu_si256((const __m256i *)(values + i));
        int mask = _mm256_movemask_pd(_mm256_castsi256_pd(in_range(lanes, low, high)));
        __m256i order = _mm256_loadu_si256((const __m256i *)pick_permutations[mask]);
        _mm256_storeu_si256((__m256i *)(picked + written), _mm256_permutevar8x32_epi32(lanes, order));
        written += __builtin_popcount((unsigned)mask);
    }
    return written + pick_portable(values + i, count - i, lowest, highest, picked + written);
}

/// Each byte of `classes` looked up in the 256 bits of `allowed`: its byte (class ÷ 8, one of 32, two
/// 16-byte table lookups) and its bit (class mod 8, a third lookup), 32 rows a step.
STAYSEARCH_AVX2 static uint64_t verdicts_avx2(const uint8_t *classes, const uint8_t *allowed, uint64_t *check) {
    const __m256i low = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)allowed));
    const __m256i high = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(allowed + 16)));
    const __m256i bitOf = _mm256_setr_epi8(1, 2, 4, 8, 16, 32, 64, (char)128, 1, 2, 4, 8, 16, 32, 64, (char)128,
                                           1, 2, 4, 8, 16, 32, 64, (char)128, 1, 2, 4, 8, 16, 32, 64, (char)128);
    const __m256i seven = _mm256_set1_epi8(7), thirtyOne = _mm256_set1_epi8(31), fifteen = _mm256_set1_epi8(15);
    const __m256i all = _mm256_set1_epi8((char)0xff);
    uint64_t bits = 0, checked = 0;
    for (int half = 0; half < 2; half++) {
        __m256i rowClasses = _mm256_loadu_si256((const __m256i *)(classes + 32 * half));
        __m256i byteIndex = _mm256_and_si256(_mm256_srli_epi16(rowClasses, 3), thirtyOne);
        __m256i fromLow = _mm256_shuffle_epi8(low, byteIndex), fromHigh = _mm256_shuffle_epi8(high, byteIndex);
        __m256i byte = _mm256_blendv_epi8(fromLow, fromHigh, _mm256_cmpgt_epi8(byteIndex, fifteen));
        __m256i bit = _mm256_shuffle_epi8(bitOf, _mm256_and_si256(rowClasses, seven));
        __m256i yes = _mm256_cmpeq_epi8(_mm256_and_si256(byte, bit), bit);
        bits |= (uint64_t)(uint32_t)_mm256_movemask_epi8(yes) << (32 * half);
        checked |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(rowClasses, all)) << (32 * half);
    }
    *check = checked;
    return bits;
}
#endif

void staysearch_fold(const int64_t *values, long count, int64_t *sum, int64_t *smallest, int64_t *largest) {
#if defined(__x86_64__)
    if (has_avx2()) { fold_avx2(values, count, sum, smallest, largest); return; }
#endif
    fold_portable(values, count, sum, smallest, largest);
}

long staysearch_count_in_range(const int64_t *values, long count, int64_t lowest, int64_t highest) {
#if defined(__x86_64__)
    if (has_avx2()) return count_avx2(values, count, lowest, highest);
#endif
    return count_portable(values, count, lowest, highest);
}

static int pick_portable_only = 0;

void staysearch_pick_use_portable(int portable) { __atomic_store_n(&pick_portable_only, portable, __ATOMIC_RELAXED); }

long staysearch_pick_in_range(const int64_t *values, long count, int64_t lowest, int64_t highest, int64_t *picked) {
#if defined(__x86_64__)
    if (!__atomic_load_n(&pick_portable_only, __ATOMIC_RELAXED) && has_avx2()) return pick_avx2(values, count, lowest, highest, picked);
#endif
    return pick_portable(values, count, lowest, highest, picked);
}

static long slot_of_rank_portable(const int32_t *counts, long first, long last, int64_t rank, int64_t *before) {
    int64_t passed = *before;
    long slot = first;
    while (slot <= last && passed + counts[slot] <= rank) passed += counts[slot++];
    *before = passed;
    return slot;
}

#if defined(__x86_64__)
/// ``slot_of_rank_portable`` past 32 slots a step while their sum keeps the running count at or below the
/// rank (four loads added, one horizontal sum), then slot by slot.
STAYSEARCH_AVX2 static long slot_of_rank_avx2(const int32_t *counts, long first, long last, int64_t rank, int64_t *before) {
    int64_t passed = *before;
    long slot = first;
    for (; slot + 32 <= last + 1; slot += 32) {
        const __m256i *lanes = (const __m256i *)(counts + slot);
        __m256i sum = _mm256_add_epi32(_mm256_add_epi32(_mm256_loadu_si256(lanes), _mm256_loadu_si256(lanes + 1)),
                                       _mm256_add_epi32(_mm256_loadu_si256(lanes + 2), _mm256_loadu_si256(lanes + 3)));
        __m128i half = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
        half = _mm_add_epi32(half, _mm_shuffle_epi32(half, 0x4E));
        half = _mm_add_epi32(half, _mm_shuffle_epi32(half, 0xB1));
        int64_t step = (uint32_t)_mm_cvtsi128_si32(half);
        if (passed + step > rank) break;
        passed += step;
    }
    *before = passed;
    return slot_of_rank_portable(counts, slot, last, rank, before);
}
#endif

static int slot_of_rank_portable_only = 0;

void staysearch_slot_of_rank_use_portable(int portable) {
    __atomic_store_n(&slot_of_rank_portable_only, portable, __ATOMIC_RELAXED);
}

long staysearch_slot_of_rank(const int32_t *counts, long first, long last, int64_t rank, int64_t *before) {
#if defined(__x86_64__)
    if (!__atomic_load_n(&slot_of_rank_portable_only, __ATOMIC_RELAXED) && has_avx2()) {
        return slot_of_rank_avx2(counts, first, last, rank, before);
    }
#endif
    return slot_of_rank_portable(counts, first, last, rank, before);
}

long staysearch_first_in_range(const int64_t *values, long start, long count, int64_t lowest, int64_t highest) {
#if defined(__x86_64__)
    if (has_avx2()) return first_avx2(values, start, count, lowest, highest);
#endif
    return first_portable(values, start, count, lowest, highest);
}

void staysearch_add_slots(const int64_t *values, long count, int32_t *counts, long bins, int64_t unit, uint64_t magic, int64_t end,
                          long above) {
#if defined(__x86_64__)
    if (has_avx2()) { add_slots_avx2(values, count, counts, bins, unit, magic, end, above); return; }
#endif
    add_slots_portable(values, count, counts, bins, unit, magic, end, above);
}

uint64_t staysearch_verdict_bits(const uint8_t *classes, const uint8_t *allowed, uint64_t *check) {
#if defined(__x86_64__)
    if (has_avx2()) return verdicts_avx2(classes, allowed, check);
#endif
    return verdicts_portable(classes, allowed, check);
}


#if defined(__x86_64__)
/// SSE2 (every x86-64 processor): 16 bytes a step, their answers gathered by movemask.
uint64_t staysearch_bytes_at_least(const uint8_t *bytes, int threshold) {
    __m128i t = _mm_set1_epi8((char)threshold);
    uint64_t mask = 0;
    for (int k = 0; k < 4; k++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(bytes + 16 * k));
        mask |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(x, t), x)) << (16 * k);
    }
    return mask;
}

uint64_t staysearch_bytes_equal(const uint8_t *bytes, int value) {
    __m128i v = _mm_set1_epi8((char)value);
    uint64_t mask = 0;
    for (int k = 0; k < 4; k++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(bytes + 16 * k));
        mask |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, v)) << (16 * k);
    }
    return mask;
}
#else
uint64_t staysearch_bytes_at_least(const uint8_t *bytes, int threshold) {
    uint64_t mask = 0;
    for (int i = 0; i < 64; i++) mask |= (uint64_t)(bytes[i] >= threshold) << i;
    return mask;
}

uint64_t staysearch_bytes_equal(const uint8_t *bytes, int value) {
    uint64_t mask = 0;
    for (int i = 0; i < 64; i++) mask |= (uint64_t)(bytes[i] == value) << i;
    return mask;
}
#endif

/// A dense row's price on a night: the difference of its running sums after and before it (modulo 2^16,
/// as they are kept), from `sums` at the night's stripe.
static inline int32_t dense_night(const uint16_t *sums, long stride) { return (uint16_t)(sums[stride] - sums[0]); }

#if defined(__x86_64__)
/// Eight adjacent dense rows' prices on a night, widened to 32 bits: the two stripes of running sums around
/// it (from `sums`) subtracted in 16 bits.
STAYSEARCH_AVX2 static inline __m256i dense_nights8(const uint16_t *sums, long stride) {
    __m128i before = _mm_loadu_si128((const __m128i *)sums), after = _mm_loadu_si128((const __m128i *)(sums + stride));
    return _mm256_cvtepu16_epi32(_mm_sub_epi16(after, before));
}
#endif

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
                                   uint32_t *const *slots) {
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
                    slots[p][total - bracketLow[p]] += 1;
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
#define STAYSEARCH_AVX2_BMI2 __attribute__((target("avx2,bmi,bmi2,popcnt")))

/// Whether the processor has AVX2 and BMI2 (asked once, kept).
static int has_avx2_bmi2(void) {
    static int known = -1;
    int answer = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (answer < 0) {
        __builtin_cpu_init();
        answer = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt") ? 1 : 0;
        __atomic_store_n(&known, answer, __ATOMIC_RELAXED);
    }
    return answer;
}

/// The lanes whose 32-bit value is set in `lanes`, as 8 bits.
#define STAYSEARCH_BITS(lanes) ((uint64_t)(uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(lanes)))

/// The check-in by check-in totals of the lanes of `groups` (bit g: lanes 8g ..< 8g + 8) whose prices are
/// `constant` or, varying, `dense` / `matrix` (see staysearch_calendar_word), for the lanes of `valid[p]`.
STAYSEARCH_AVX2_BMI2 static void calendar_groups_avx2(const int32_t *constant, const uint16_t *dense, long denseStride,
                                                      const int32_t *matrix, long matrixStride, long span, long nights, long checkIns,
                                                      const uint64_t *valid, unsigned groups, int32_t lowest, int32_t highest,
                                                      const int32_t *bracketLow, const int32_t *bracketHigh, int32_t cheapest,
                                                      uint32_t *counts, uint32_t *below, int32_t *least, uint64_t *inBracket,
                                                      int32_t *totals, uint32_t *const *slots) {
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
            // Counted by whole unit in the bracket.
            uint32_t *slot = slots[p];
            const int32_t first = bracketLow[p], *dayTotals = totals + p * 64;
            for (; insideWord; insideWord &= insideWord - 1) slot[dayTotals[__builtin_ctzll(insideWord)] - first] += 1;
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
                                                     uint32_t *below, int32_t *least, int32_t *totals, uint32_t *const *slots) {
    const int count = batch->count;
    if (count == 0) return;
    const int width = (count + 7) / 8 * 8;
    // The last group's unused lanes are of one price (never valid), so that it reads no nights for them.
    for (int lane = count; lane < width; lane++) batch->constant[lane] = 0;
    uint64_t inBracket[STAYSEARCH_CALENDAR_CHECKINS];
    calendar_groups_avx2(batch->constant, NULL, 0, batch->matrix, 72, span, nights, checkIns, batch->valid, (1u << (width / 8)) - 1,
                         lowest, highest, bracketLow, bracketHigh, cheapest, counts, below, least, inBracket, totals, slots);
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
                                                    uint32_t *const *slots) {
    const int held = (int)_mm_popcnt_u64(totalled);
    if (batch->count + held > 64) {
        calendar_flush_avx2(batch, span, nights, checkIns, lowest, highest, bracketLow, bracketHigh, cheapest, counts, below, least,
                            totals, slots);
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
                                                    int32_t *totals, uint32_t *const *slots, staysearch_calendar_batch *batch) {
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
                               bracketLow, bracketHigh, cheapest, counts, below, least, totals, slots);
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
                             highest, bracketLow, bracketHigh, cheapest, counts, below, least, inBracket, totals, slots);
        return;
    }
unpacked:;
    uint64_t masked[STAYSEARCH_CALENDAR_CHECKINS];
    for (long p = 0; p < checkIns; p++) masked[p] = valid[p] & totalled;
    calendar_groups_avx2(constant, dense, denseStride, matrix, 64, span, nights, checkIns, masked, groups, lowest, highest,
                         bracketLow, bracketHigh, cheapest, counts, below, least, inBracket, totals, slots);
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

static int calendar_portable = 0;

void staysearch_calendar_use_portable(int portable) { __atomic_store_n(&calendar_portable, portable, __ATOMIC_RELAXED); }

void staysearch_calendar_word(const int32_t *constant, const int32_t *lowNight, const int32_t *highNight,
                              const uint16_t *dense, long denseStride, const int32_t *matrix, long span, long nights,
                              long checkIns, const uint64_t *valid, int32_t lowest, int32_t highest,
                              const int32_t *bracketLow, const int32_t *bracketHigh, int32_t cheapest, uint32_t *counts,
                              uint32_t *below, int32_t *least, uint64_t *inBracket, int32_t *totals, uint32_t *const *slots,
                              staysearch_calendar_batch *batch) {
#if defined(__x86_64__)
    if (!__atomic_load_n(&calendar_portable, __ATOMIC_RELAXED) && has_avx2_bmi2() && span <= STAYSEARCH_CALENDAR_SPAN) {
        calendar_word_avx2(constant, lowNight, highNight, dense, denseStride, matrix, span, nights, checkIns, valid, lowest, highest, bracketLow,
                           bracketHigh, cheapest, counts, below, least, inBracket, totals, slots, batch);
        return;
    }
#endif
    // Held lanes (none unless the fastest version ran before with this batch) are totalled first.
    if (batch) {
        staysearch_calendar_flush(batch, span, nights, checkIns, lowest, highest, bracketLow, bracketHigh, cheapest, counts, below,
                                  least, totals, slots);
    }
    calendar_word_portable(constant, dense, denseStride, matrix, span, nights, checkIns, valid, lowest, highest, bracketLow,
                           bracketHigh, cheapest, counts, below, least, inBracket, totals, slots);
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
                               uint32_t *counts, uint32_t *below, int32_t *least, int32_t *totals, uint32_t *const *slots) {
    if (batch->count == 0) return;
#if defined(__x86_64__)
    calendar_flush_avx2(batch, span, nights, checkIns, lowest, highest, bracketLow, bracketHigh, cheapest, counts, below, least,
                        totals, slots);
#endif
}

/// Whether row `row`'s stays are tightened by staysearch_stay_bounds: it has running sums and its dearest night
/// over `nights` keeps every stay within STAYSEARCH_CALENDAR_ROWS_LARGEST (so no 16-bit difference wraps).
static inline int stay_bounds_summed(const int32_t *slots, const int32_t *nightLows, const int32_t *nightHighs, long nights, long row) {
    return slots[row] >= 0 && nightLows[row] >= 0 && nightHighs[row] >= 0
        && (int64_t)nightHighs[row] * nights <= STAYSEARCH_CALENDAR_ROWS_LARGEST;
}

static void stay_bounds_portable(const uint16_t *sums, long stride, long nights, long windows, const int32_t *slots,
                                 const int32_t *nightLows, const int32_t *nightHighs, long from, long to, int32_t *stayLows,
                                 int32_t *stayHighs) {
    for (long row = from; row < to; row++) {
        if (!stay_bounds_summed(slots, nightLows, nightHighs, nights, row)) continue;
        const uint16_t *rowSums = sums + (long)slots[row] * stride;
        int32_t low = INT32_MAX, high = -1;
        for (long p = 0; p < windows; p++) {
            int32_t total = (uint16_t)(rowSums[p + nights] - rowSums[p]);
            low = total < low ? total : low;
            high = total > high ? total : high;
        }
        if (windows > 0) {
            stayLows[row] = low;
            stayHighs[row] = high;
        }
    }
}

#if defined(__x86_64__)
STAYSEARCH_AVX2 static void stay_bounds_avx2(const uint16_t *sums, long stride, long nights, long windows, const int32_t *slots,
                                             const int32_t *nightLows, const int32_t *nightHighs, long from, long to,
                                             int32_t *stayLows, int32_t *stayHighs) {
    if (windows <= 0) return;
    // Lanes past the last window (other rows' sums, or the padding) count for neither bound: the last
    // vector's lanes, worked out once.
    const __m256i lanes = _mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const long last = (windows - 1) & ~15L;
    const __m256i inside = _mm256_cmpgt_epi16(_mm256_set1_epi16((short)(windows - last)), lanes);
    const __m256i outside = _mm256_xor_si256(inside, _mm256_set1_epi16(-1));
    for (long row = from; row < to; row++) {
        if (!stay_bounds_summed(slots, nightLows, nightHighs, nights, row)) continue;
        const uint16_t *rowSums = sums + (long)slots[row] * stride;
        __m256i low = _mm256_set1_epi16(-1), high = _mm256_setzero_si256();
        for (long p = 0; p < last; p += 16) {
            __m256i total = _mm256_sub_epi16(_mm256_loadu_si256((const __m256i *)(rowSums + p + nights)),
                                             _mm256_loadu_si256((const __m256i *)(rowSums + p)));
            low = _mm256_min_epu16(low, total);
            high = _mm256_max_epu16(high, total);
        }
        __m256i total = _mm256_sub_epi16(_mm256_loadu_si256((const __m256i *)(rowSums + last + nights)),
                                         _mm256_loadu_si256((const __m256i *)(rowSums + last)));
        low = _mm256_min_epu16(low, _mm256_or_si256(total, outside));
        high = _mm256_max_epu16(high, _mm256_and_si256(total, inside));
        __m128i low8 = _mm_min_epu16(_mm256_castsi256_si128(low), _mm256_extracti128_si256(low, 1));
        __m128i high8 = _mm_max_epu16(_mm256_castsi256_si128(high), _mm256_extracti128_si256(high, 1));
        stayLows[row] = (uint16_t)_mm_cvtsi128_si32(_mm_minpos_epu16(low8));
        // The greatest as the least of its complement.
        stayHighs[row] = 0xFFFF - (uint16_t)_mm_cvtsi128_si32(_mm_minpos_epu16(_mm_xor_si128(high8, _mm_set1_epi16(-1))));
    }
}
#endif

void staysearch_stay_bounds(const uint16_t *sums, long stride, long nights, long windows, const int32_t *slots,
                            const int32_t *nightLows, const int32_t *nightHighs, long from, long to, int32_t *stayLows,
                            int32_t *stayHighs) {
#if defined(__x86_64__)
    if (!__atomic_load_n(&calendar_portable, __ATOMIC_RELAXED) && has_avx2()) {
        stay_bounds_avx2(sums, stride, nights, windows, slots, nightLows, nightHighs, from, to, stayLows, stayHighs);
        return;
    }
#endif
    stay_bounds_portable(sums, stride, nights, windows, slots, nightLows, nightHighs, from, to, stayLows, stayHighs);
}

/// `value` clamped into 0 ... 65,535.
static inline uint16_t clamp_u16(int64_t value) { return (uint16_t)(value < 0 ? 0 : value > 0xFFFF ? 0xFFFF : value); }

void staysearch_calendar_rows_prepare(staysearch_calendar_rows_plan *plan, long nights, long checkIns, int32_t lowest,
                                      int32_t highest, const int32_t *bracketLow, const int32_t *bracketHigh, int32_t cheapest) {
    __builtin_memset(plan, 0, sizeof *plan);
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

static uint64_t calendar_rows_portable(const staysearch_calendar_rows_plan *plan, const uint16_t *stayLow, const uint16_t *stayHigh,
                                       uint64_t exact, uint64_t constants, const int32_t *sumSlots, const uint16_t *stays,
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
            int32_t total = rowStays ? rowStays[p] : stayLow[lane];
            if (total < plan->lowest || total > plan->highest) continue;
            counts[p] += 1;
            below[p] += total < plan->bracketLow[p];
            if (total >= plan->bracketLow[p] && total <= plan->bracketHigh[p]) slots[p][total - plan->bracketLow[p]] += 1;
            if (total <= plan->cheapest && total < least[p]) least[p] = total;
        }
    }
    (void)stayHigh;
    return any & ~exact;
}

#if defined(__x86_64__)
/// For 32 words `valid[0 ..< 32]`, the 8 vectors whose byte *p* of vector *j* is byte *j* of `valid[p]`:
/// bit *k* of vector *j*'s bytes, gathered by a movemask, is row 8*j* + *k*'s check-ins.
STAYSEARCH_AVX2_BMI2 static void calendar_rows_transpose(const uint64_t *valid, __m256i *bytes) {
    // Words loaded so that the unpacks below leave them in order: vector i holds words 2i, 2i + 1 in its
    // low half and 16 + 2i, 17 + 2i in its high half.
    const __m256i interleave = _mm256_setr_epi8(0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15,
                                                0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15);
    __m256i x[8], y[8], z[8];
    for (int i = 0; i < 8; i++) {
        __m256i words = _mm256_loadu2_m128i((const __m128i *)(valid + 16 + 2 * i), (const __m128i *)(valid + 2 * i));
        x[i] = _mm256_shuffle_epi8(words, interleave);
    }
    // 16-bit pairs, then 32-bit, then 64-bit: byte j of 2, 4, 8, then 16 words a lane.
    for (int i = 0; i < 4; i++) {
        y[2 * i] = _mm256_unpacklo_epi16(x[2 * i], x[2 * i + 1]);       // bytes 0-3
        y[2 * i + 1] = _mm256_unpackhi_epi16(x[2 * i], x[2 * i + 1]);   // bytes 4-7
    }
    for (int i = 0; i < 2; i++) {
        for (int h = 0; h < 2; h++) {
            __m256i a = y[4 * i + h], b = y[4 * i + 2 + h];
            z[4 * i + 2 * h] = _mm256_unpacklo_epi32(a, b);      // bytes 4h + 0, 4h + 1
            z[4 * i + 2 * h + 1] = _mm256_unpackhi_epi32(a, b);  // bytes 4h + 2, 4h + 3
        }
    }
    for (int q = 0; q < 4; q++) {
        // z[q] (words 0-7's share) and z[4 + q] (words 8-15's) hold bytes 2q and 2q + 1.
        bytes[2 * q] = _mm256_unpacklo_epi64(z[q], z[4 + q]);
        bytes[2 * q + 1] = _mm256_unpackhi_epi64(z[q], z[4 + q]);
    }
}

/// What totalling a row's stays compares them with, the same for every row of a pass (16-bit lanes, the signed
/// ones biased by 2^15): the price range's ends, the cut for the least; and each lane *k* × 4,096.
typedef struct {
    __m256i bias, fitLow, fitHigh, cheap, laneBits, ones, laneUnits;
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
/// the least at most the cut in `lowest` (when `mayBeCheap`), and each inside its bracket appended at `*entriesOf`
/// as *k* × 4,096 + its unit in the bracket. `wholeRange`: every total of 16 bits lies in the price range.
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
    // Each total inside its bracket appended with its lane (a total inside is at least its bracket's low end),
    // eight lanes a step: a branch on how many are inside cost more than the counting (the number varies from
    // row to row and was mispredicted about once a row).
    const __m256i entries = _mm256_or_si256(_mm256_sub_epi16(total, lowBounds), limits->laneUnits);
    *entriesOf = calendar_rows_append(*entriesOf, _mm256_castsi256_si128(entries), inside & 0xFF);
    *entriesOf = calendar_rows_append(*entriesOf, _mm256_extracti128_si256(entries, 1), inside >> 8);
}

/// The rows of `totalled` totalled into the accumulators (see calendar_rows_total_avx2); `wholeRange`,
/// `mayBeCheap` (whether the rows' stays may be as cheap as the cut) and `constant` (whether the rows are of
/// one price) constants where it is inlined, so that each version tests the price range and the cut or not,
/// and reads a row's stays or its one total, without a branch. Both halves of a row are totalled whatever its
/// check-ins (a half with none adds nothing): a branch on them was mispredicted more than it saved.
STAYSEARCH_AVX2_BMI2 static inline __attribute__((always_inline)) void
calendar_rows_total_rows(const calendar_rows_limits *limits, const int wholeRange, const int mayBeCheap, const int constant,
                         uint64_t totalled, const __m256i *bytes, const int32_t *sumSlots, const uint16_t *fixedTotals,
                         const uint16_t *stays, long stayStride, __m256i from0, __m256i to0, __m256i low0, __m256i from1, __m256i to1,
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
            first = _mm256_loadu_si256((const __m256i *)rowStays);
            second = _mm256_loadu_si256((const __m256i *)(rowStays + 16));
        }
        calendar_rows_total_half(limits, first, checkInBits & 0xFFFF, mayBeCheap, wholeRange, from0, to0, low0, found0, under0, lowest0,
                                 entries0);
        calendar_rows_total_half(limits, second, checkInBits >> 16, mayBeCheap, wholeRange, from1, to1, low1, found1, under1, lowest1,
                                 entries1);
    }
}

/// Totals the stays of the word `plan` holds pending (see staysearch_calendar_rows).
STAYSEARCH_AVX2_BMI2 static void calendar_rows_total_avx2(const staysearch_calendar_rows_plan *plan, const uint16_t *stays,
                                                         long stayStride, uint32_t *counts, uint32_t *below, int32_t *least,
                                                         uint32_t *const *slots) {
    const uint64_t totalled = plan->pendingRows, constants = plan->pendingConstants, cheapRows = plan->pendingCheap;
    const int32_t *sumSlots = plan->pendingSlots;
    const uint16_t *fixedTotals = plan->pendingTotals;
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
        _mm256_setr_epi16(0, 1 << 12, 2 << 12, 3 << 12, 4 << 12, 5 << 12, 6 << 12, 7 << 12, (short)(8 << 12), (short)(9 << 12),
                          (short)(10 << 12), (short)(11 << 12), (short)(12 << 12), (short)(13 << 12), (short)(14 << 12), (short)(15 << 12))};
    // The totals inside their brackets (a bracket counted by unit is at most 4,096 units wide) of check-ins
    // 0-15 and 16-31, counted on their units once the word's rows are totalled: one loop a word rather than
    // one a row.
    uint16_t entryBuffers[2][64 * 16 + 8];
    uint16_t *entries0 = entryBuffers[0], *entries1 = entryBuffers[1];
    const int wholeRange = plan->lowest <= 0 && plan->highest >= STAYSEARCH_CALENDAR_ROWS_LARGEST;
    const __m256i low0 = _mm256_loadu_si256((const __m256i *)plan->lowBounds), low1 = _mm256_loadu_si256((const __m256i *)(plan->lowBounds + 16));
    const __m256i from0 = _mm256_xor_si256(low0, bias), from1 = _mm256_xor_si256(low1, bias);
    const __m256i to0 = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)plan->highBounds), bias);
    const __m256i to1 = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(plan->highBounds + 16)), bias);
    __m256i found0 = _mm256_setzero_si256(), found1 = found0, under0 = found0, under1 = found0;
    __m256i lowest0 = limits.ones, lowest1 = limits.ones;
#define STAYSEARCH_TOTAL_ROWS(whole, cheap, constant, rows)                                                                            \
    calendar_rows_total_rows(&limits, whole, cheap, constant, rows, bytes, sumSlots, fixedTotals, stays, stayStride, from0, to0, low0,     \
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
    for (const uint16_t *entry = entryBuffers[0]; entry < entries0; entry++) slots[*entry >> 12][*entry & 4095] += 1;
    for (const uint16_t *entry = entryBuffers[1]; entry < entries1; entry++) slots[16 + (*entry >> 12)][*entry & 4095] += 1;
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
                                                        const uint16_t *stayHigh, uint64_t exact, uint64_t constants,
                                                        const int32_t *sumSlots, const uint16_t *stays, long stayStride,
                                                        const uint64_t *valid, uint32_t *counts, uint32_t *below, int32_t *least,
                                                        uint32_t *const *slots) {
    const long checkIns = plan->checkIns;
    uint64_t words[32], anyValid = 0;
    for (long p = 0; p < checkIns; p++) anyValid |= valid[p];
    if (!anyValid) return 0;
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
    const uint64_t settled = exact & ~misfit & (isBelow | isAbove) & (constants | notCheap);
    const uint64_t settledBelow = settled & isBelow, settledCheap = settled & constants & ~notCheap, never = exact & neverFits;
    const uint64_t returned = anyValid & ~exact;
    for (long p = 0; p < checkIns; p++) words[p] = valid[p] & exact;
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
    if (!__atomic_load_n(&calendar_portable, __ATOMIC_RELAXED) && has_avx2_bmi2()) {
        bookable_bounds_avx2(bookable, wordsPerDay, nights, windows, from, to, exact, constants, sumSlots, stays, stayStride, classes,
                             weekdayMasks, weekdaysOfClass, low16, high16);
        return;
    }
#endif
    bookable_bounds_portable(bookable, wordsPerDay, nights, windows, from, to, exact, constants, sumSlots, stays, stayStride, classes,
                             weekdayMasks, weekdaysOfClass, low16, high16);
}

uint64_t staysearch_calendar_rows(staysearch_calendar_rows_plan *plan, const uint16_t *stayLow, const uint16_t *stayHigh,
                                  uint64_t exact, uint64_t constants, const int32_t *sumSlots, const uint16_t *stays, long stayStride,
                                  const uint64_t *valid, uint32_t *counts, uint32_t *below, int32_t *least, uint32_t *const *slots) {
#if defined(__x86_64__)
    if (!__atomic_load_n(&calendar_portable, __ATOMIC_RELAXED) && has_avx2_bmi2()) {
        return calendar_rows_avx2(plan, stayLow, stayHigh, exact, constants, sumSlots, stays, stayStride, valid, counts, below, least,
                                  slots);
    }
#endif
    staysearch_calendar_rows_finish(plan, stays, stayStride, counts, below, least, slots);
    return calendar_rows_portable(plan, stayLow, stayHigh, exact, constants, sumSlots, stays, stayStride, valid, counts, below, least,
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

static void stays_of_sums_portable(const uint16_t *sums, long stride, long nights, long windows, long slots, uint16_t *stays,
                                   long stayStride) {
    for (long slot = 0; slot < slots; slot++) {
        const uint16_t *from = sums + slot * stride;
        uint16_t *to = stays + slot * stayStride;
        long p = 0;
        for (; p < windows; p++) to[p] = (uint16_t)(from[p + nights] - from[p]);
        for (; p < stayStride; p++) to[p] = 0;
    }
}

#if defined(__x86_64__)
/// Sixteen check-ins a step; the lanes past the check-ins (read from the next slot's sums, or the padding)
/// cleared by a mask.
STAYSEARCH_AVX2_BMI2 static void stays_of_sums_avx2(const uint16_t *sums, long stride, long nights, long windows, long slots,
                                                   uint16_t *stays) {
    const __m256i index = _mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m256i keep0 = _mm256_cmpgt_epi16(_mm256_set1_epi16((short)windows), index);
    const __m256i keep1 = _mm256_cmpgt_epi16(_mm256_set1_epi16((short)(windows - 16)), index);
    for (long slot = 0; slot < slots; slot++) {
        const uint16_t *from = sums + slot * stride;
        uint16_t *to = stays + slot * 32;
        __m256i first = _mm256_sub_epi16(_mm256_loadu_si256((const __m256i *)(from + nights)), _mm256_loadu_si256((const __m256i *)from));
        __m256i second = _mm256_sub_epi16(_mm256_loadu_si256((const __m256i *)(from + 16 + nights)),
                                          _mm256_loadu_si256((const __m256i *)(from + 16)));
        _mm256_storeu_si256((__m256i *)to, _mm256_and_si256(first, keep0));
        _mm256_storeu_si256((__m256i *)(to + 16), _mm256_and_si256(second, keep1));
    }
}
#endif

void staysearch_stays_of_sums(const uint16_t *sums, long stride, long nights, long windows, long slots, uint16_t *stays,
                              long stayStride) {
#if defined(__x86_64__)
    if (!__atomic_load_n(&calendar_portable, __ATOMIC_RELAXED) && has_avx2_bmi2() && stayStride == 32 && windows <= 32) {
        stays_of_sums_avx2(sums, stride, nights, windows, slots, stays);
        return;
    }
#endif
    stays_of_sums_portable(sums, stride, nights, windows, slots, stays, stayStride);
}

/// Runs of nights ANDed by doubling in `bits` (`span` words): returns the longest run, at most `nights`.
static inline long calendar_stays_runs(uint64_t *bits, long span, long nights) {
    long run = 1;
    while (run * 2 <= nights) {
        for (long night = 0; night < span - run; night++) bits[night] &= bits[night + run];
        run *= 2;
    }
    return run;
}

static uint64_t calendar_stays_portable(const uint64_t *cell, long stride, long span, long nights, long checkIns,
                                        uint64_t candidates, const uint64_t *allowed, const long *tableOfCheckIn,
                                        uint64_t *nightBits, uint64_t *stays, uint64_t *valid) {
    for (long night = 0; night < span; night++) nightBits[night] = candidates & cell[night * stride];
    const long second = nights - calendar_stays_runs(nightBits, span, nights);
    uint64_t any = 0;
    for (long p = 0; p < checkIns; p++) {
        const uint64_t bits = nightBits[p] & nightBits[p + second];
        stays[p] = bits;
        valid[p] = bits & allowed[tableOfCheckIn ? tableOfCheckIn[p] : 0];
        any |= bits;
    }
    return any;
}

#if defined(__x86_64__)
STAYSEARCH_AVX2_BMI2 static uint64_t calendar_stays_avx2(const uint64_t *cell, long stride, long span, long nights, long checkIns,
                                                         uint64_t candidates, const uint64_t *allowed, const long *tableOfCheckIn,
                                                         uint64_t *nightBits, uint64_t *stays, uint64_t *valid) {
    // Each night's bits read once; for stays of two nights or more, runs of two nights ANDed as they are read.
    // The candidates are ANDed into the stays at the end.
    long run = 1, night = 0;
    if (nights >= 2) {
        uint64_t next = cell[0];
        for (; night + 1 < span; night++) {
            cell += stride;
            const uint64_t here = next;
            next = cell[0];
            nightBits[night] = here & next;
        }
        nightBits[night] = next;
        run = 2;
    } else {
        for (; night < span; night++, cell += stride) nightBits[night] = cell[0];
    }
    // Four nights a step, in place: each step reads the nights after its own before they are narrowed.
    while (run * 2 <= nights) {
        const long count = span - run;
        long at = 0;
        for (; at + 4 <= count; at += 4) {
            __m256i here = _mm256_loadu_si256((const __m256i *)(nightBits + at));
            __m256i later = _mm256_loadu_si256((const __m256i *)(nightBits + at + run));
            _mm256_storeu_si256((__m256i *)(nightBits + at), _mm256_and_si256(here, later));
        }
        for (; at < count; at++) nightBits[at] &= nightBits[at + run];
        run *= 2;
    }
    const long second = nights - run;
    __m256i any4 = _mm256_setzero_si256();
    long p = 0;
    if (!tableOfCheckIn) {
        const __m256i allowed4 = _mm256_set1_epi64x((long long)allowed[0]), candidates4 = _mm256_set1_epi64x((long long)candidates);
        for (; p + 4 <= checkIns; p += 4) {
            __m256i bits = _mm256_and_si256(_mm256_and_si256(_mm256_loadu_si256((const __m256i *)(nightBits + p)), candidates4),
                                            _mm256_loadu_si256((const __m256i *)(nightBits + p + second)));
            _mm256_storeu_si256((__m256i *)(stays + p), bits);
            _mm256_storeu_si256((__m256i *)(valid + p), _mm256_and_si256(bits, allowed4));
            any4 = _mm256_or_si256(any4, bits);
        }
    }
    __m128i any2 = _mm_or_si128(_mm256_castsi256_si128(any4), _mm256_extracti128_si256(any4, 1));
    uint64_t any = (uint64_t)_mm_cvtsi128_si64(any2) | (uint64_t)_mm_extract_epi64(any2, 1);
    for (; p < checkIns; p++) {
        const uint64_t bits = candidates & nightBits[p] & nightBits[p + second];
        stays[p] = bits;
        valid[p] = bits & allowed[tableOfCheckIn ? tableOfCheckIn[p] : 0];
        any |= bits;
    }
    return any;
}
#endif

uint64_t staysearch_calendar_stays(const uint64_t *cell, long stride, long span, long nights, long checkIns,
                                   uint64_t candidates, const uint64_t *allowed, const long *tableOfCheckIn,
                                   uint64_t *nightBits, uint64_t *stays, uint64_t *valid) {
#if defined(__x86_64__)
    if (!__atomic_load_n(&calendar_portable, __ATOMIC_RELAXED) && has_avx2_bmi2()) {
        return calendar_stays_avx2(cell, stride, span, nights, checkIns, candidates, allowed, tableOfCheckIn, nightBits, stays, valid);
    }
#endif
    return calendar_stays_portable(cell, stride, span, nights, checkIns, candidates, allowed, tableOfCheckIn, nightBits, stays, valid);
}

void staysearch_transpose_sums(const uint16_t *stripes, long stripeStride, long days, long rows, uint16_t *out, long outStride) {
    long row = 0;
#if defined(__x86_64__)
    // Eight rows by eight days at a time (SSE2, every x86-64 has it): eight loads of a day's eight rows, an
    // 8 × 8 transpose by unpacks, eight stores of a row's eight days.
    for (; row + 8 <= rows; row += 8) {
        long day = 0;
        for (; day + 8 <= days; day += 8) {
            __m128i v[8];
            for (int k = 0; k < 8; k++) v[k] = _mm_loadu_si128((const __m128i *)(stripes + (day + k) * stripeStride + row));
            __m128i a0 = _mm_unpacklo_epi16(v[0], v[1]), a1 = _mm_unpackhi_epi16(v[0], v[1]);
            __m128i a2 = _mm_unpacklo_epi16(v[2], v[3]), a3 = _mm_unpackhi_epi16(v[2], v[3]);
            __m128i a4 = _mm_unpacklo_epi16(v[4], v[5]), a5 = _mm_unpackhi_epi16(v[4], v[5]);
            __m128i a6 = _mm_unpacklo_epi16(v[6], v[7]), a7 = _mm_unpackhi_epi16(v[6], v[7]);
            __m128i b0 = _mm_unpacklo_epi32(a0, a2), b1 = _mm_unpackhi_epi32(a0, a2);
            __m128i b2 = _mm_unpacklo_epi32(a1, a3), b3 = _mm_unpackhi_epi32(a1, a3);
            __m128i b4 = _mm_unpacklo_epi32(a4, a6), b5 = _mm_unpackhi_epi32(a4, a6);
            __m128i b6 = _mm_unpacklo_epi32(a5, a7), b7 = _mm_unpackhi_epi32(a5, a7);
            __m128i w[8] = {_mm_unpacklo_epi64(b0, b4), _mm_unpackhi_epi64(b0, b4), _mm_unpacklo_epi64(b1, b5),
                            _mm_unpackhi_epi64(b1, b5), _mm_unpacklo_epi64(b2, b6), _mm_unpackhi_epi64(b2, b6),
                            _mm_unpacklo_epi64(b3, b7), _mm_unpackhi_epi64(b3, b7)};
            for (int k = 0; k < 8; k++) _mm_storeu_si128((__m128i *)(out + (row + k) * outStride + day), w[k]);
        }
        for (; day < days; day++) {
            for (int k = 0; k < 8; k++) out[(row + k) * outStride + day] = stripes[day * stripeStride + row + k];
        }
    }
#endif
    for (; row < rows; row++) {
        for (long day = 0; day < days; day++) out[row * outStride + day] = stripes[day * stripeStride + row];
    }
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

static int dense_word_cheapest_portable_only = 0;

void staysearch_dense_word_cheapest_use_portable(int portable) {
    __atomic_store_n(&dense_word_cheapest_portable_only, portable, __ATOMIC_RELAXED);
}

static void dense_word_cheapest_portable(const uint16_t *sums, long stride, long nights, long checkIns, const uint64_t *allowed,
                                         uint64_t lanes, int32_t *units, int32_t *checkIn) {
    for (; lanes; lanes &= lanes - 1) {
        int lane = __builtin_ctzll(lanes);
        int32_t best = INT32_MAX, bestK = 0;
        for (long k = 0; k < checkIns; k++) {
            int32_t sum = (uint16_t)(sums[(k + nights) * stride + lane] - sums[k * stride + lane]);
            if ((allowed[lane] >> k & 1) && sum < best) {
                best = sum;
                bestK = (int32_t)k;
            }
        }
        units[lane] = best;
        checkIn[lane] = bestK;
    }
}

#if defined(__x86_64__)
/// Group by group of eight lanes: each check-in's stay the difference of the running sums at its ends,
/// each allowed stay cheaper than the best so far taken by blends (strictly cheaper: the earliest of equal
/// totals stays).
STAYSEARCH_AVX2 static void dense_word_cheapest_avx2(const uint16_t *sums, long stride, long nights, long checkIns,
                                                     const uint64_t *allowed, uint64_t lanes, int32_t *units, int32_t *checkIn) {
    const __m256i lowHalves = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    const long ends = nights * stride;
    for (int group = 0; group < 8; group++) {
        if (!((lanes >> (group * 8)) & 0xFF)) continue;
        const uint16_t *column = sums + group * 8;
        // The eight lanes' allowed check-ins (fewer than 32: the low half of each mask).
        __m256i first = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(allowed + group * 8)), lowHalves);
        __m256i second = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(allowed + group * 8 + 4)), lowHalves);
        __m256i masks = _mm256_permute2x128_si256(first, second, 0x20);
        __m256i best = _mm256_set1_epi32(INT32_MAX), bestK = _mm256_setzero_si256();
        for (long k = 0; k < checkIns; k++) {
            const uint16_t *before = column + k * stride;
            __m256i sum = dense_nights8(before, ends);
            __m256i bit = _mm256_set1_epi32((int32_t)(1u << k));
            __m256i isAllowed = _mm256_cmpeq_epi32(_mm256_and_si256(masks, bit), bit);
            __m256i better = _mm256_and_si256(isAllowed, _mm256_cmpgt_epi32(best, sum));
            best = _mm256_blendv_epi8(best, sum, better);
            bestK = _mm256_blendv_epi8(bestK, _mm256_set1_epi32((int32_t)k), better);
        }
        _mm256_storeu_si256((__m256i *)(units + group * 8), best);
        _mm256_storeu_si256((__m256i *)(checkIn + group * 8), bestK);
    }
}
#endif

void staysearch_dense_word_cheapest(const uint16_t *sums, long stride, long nights, long checkIns, const uint64_t *allowed,
                                    uint64_t lanes, int32_t *units, int32_t *checkIn) {
#if defined(__x86_64__)
    if (!__atomic_load_n(&dense_word_cheapest_portable_only, __ATOMIC_RELAXED) && checkIns <= 31 && has_avx2()) {
        dense_word_cheapest_avx2(sums, stride, nights, checkIns, allowed, lanes, units, checkIn);
        return;
    }
#endif
    dense_word_cheapest_portable(sums, stride, nights, checkIns, allowed, lanes, units, checkIn);
}

void staysearch_prefetch_stripes(const void *first, long stride, long count, long lines) {
    const char *stripe = (const char *)first;
    for (long k = 0; k < count; k++, stripe += stride) {
        for (long line = 0; line < lines; line++) __builtin_prefetch(stripe + line * 64, 0, 3);
    }
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
