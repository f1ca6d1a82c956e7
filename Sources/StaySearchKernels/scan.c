// A scan's settling of a block's values and its stay rules (Swift: `Scan`, `PriceSlots`, `PriceSlots+Median`,
// `Selection+ExtraRank`, `RadixSelection`, `KeptMatches`, `ByteMasks`, `ListingIndex+Recommended`): a block's
// sum and bounds, the values in a price range (counted, picked, the first), the price slots a value counts in,
// the slot of a rank, a word's stay-rule verdicts, and byte masks of a column.

#include "dispatch.h"

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

#if defined(__x86_64__)
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
#endif

void staysearch_fold(const int64_t *values, long count, int64_t *sum, int64_t *smallest, int64_t *largest) {
#if defined(__x86_64__)
    if (has_avx2()) { fold_avx2(values, count, sum, smallest, largest); return; }
#endif
    fold_portable(values, count, sum, smallest, largest);
}

static long count_portable(const int64_t *values, long count, int64_t lowest, int64_t highest) {
    long total = 0;
    for (long i = 0; i < count; i++) total += values[i] >= lowest && values[i] <= highest;
    return total;
}

#if defined(__x86_64__)
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
#endif

long staysearch_count_in_range(const int64_t *values, long count, int64_t lowest, int64_t highest) {
#if defined(__x86_64__)
    if (has_avx2()) return count_avx2(values, count, lowest, highest);
#endif
    return count_portable(values, count, lowest, highest);
}

static long first_portable(const int64_t *values, long start, long count, int64_t lowest, int64_t highest) {
    for (long i = start; i < count; i++) {
        if (values[i] >= lowest && values[i] <= highest) return i;
    }
    return count;
}

#if defined(__x86_64__)
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
#endif

long staysearch_first_in_range(const int64_t *values, long start, long count, int64_t lowest, int64_t highest) {
#if defined(__x86_64__)
    if (has_avx2()) return first_avx2(values, start, count, lowest, highest);
#endif
    return first_portable(values, start, count, lowest, highest);
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

#if defined(__x86_64__)
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
#endif

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

static void add_slots_portable(const int64_t *values, long count, int32_t *counts, long bins, int64_t unit, uint64_t magic,
                               int64_t end, long above, long between, int64_t *aside, long asideCapacity) {
    for (long i = 0; i < count; i++) {
        uint64_t scaled = (uint64_t)values[i] * (uint64_t)bins;
        uint64_t floor = (uint64_t)(((unsigned __int128)scaled * magic) >> 64);
        uint64_t ceiling = (uint64_t)(((unsigned __int128)(scaled + (uint64_t)unit - 1) * magic) >> 64);
        if (values[i] >= end) {
            counts[above] += 1;
        } else if (between < 0) {
            counts[floor + ceiling] += 1;
        } else if (floor == ceiling) {
            counts[floor] += 1;
        } else {
            // Between two cuts: kept aside while there is room, counted always.
            if (counts[between] < asideCapacity) aside[counts[between]] = values[i];
            counts[between] += 1;
        }
    }
}

#if defined(__x86_64__)
/// The largest unit the AVX2 slots take: up to it the quotients in doubles are exact (see add_slots_avx2). Every
/// unit PriceSlots makes is below it: 100 minor units a night for at most 100,000 nights, or a granule of at most
/// 10^7 minor units (₫100,000).
#define STAYSEARCH_SLOTS_LARGEST_UNIT (1L << 24)

/// Four values at a time in doubles: a value below 2^52 becomes a double exactly (its bits under those of
/// 2^52, less 2^52), z = value · bins exactly (z < 2^52), and ⌊z ÷ u⌋ = ⌊(z + ½) · fl(1 ÷ u)⌋,
/// ⌈z ÷ u⌉ = ⌊(z + u − ½) · fl(1 ÷ u)⌋. Below `end`, z ÷ u is under 2^21 (at most 2,097,152 slots), so both
/// products are off their true quotients by under 2^21 · 2^-51.9 < 2^-30.9 (two roundings); the true quotients,
/// odd numbers over 2u, lie at least 1 ÷ 2u ≥ 2^-25 from the next whole number (u ≤ 2^24). With `between`, a
/// lane takes slot ⌊z ÷ u⌋, and four values of which one lies between cuts (its quotients differ) are added by the
/// portable loop, which keeps it aside. The counts are added one by one.
STAYSEARCH_AVX2 static void add_slots_avx2(const int64_t *values, long count, int32_t *counts, long bins, int64_t unit,
                                           uint64_t magic, int64_t end, long above, long between, int64_t *aside,
                                           long asideCapacity) {
    if (unit > STAYSEARCH_SLOTS_LARGEST_UNIT) {
        add_slots_portable(values, count, counts, bins, unit, magic, end, above, between, aside, asideCapacity);
        return;
    }
    const int apart = between >= 0;
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
        if (apart && _mm256_movemask_pd(_mm256_cmp_pd(low, high, _CMP_NEQ_OQ))) {
            add_slots_portable(values + i, 4, counts, bins, unit, magic, end, above, between, aside, asideCapacity);
            continue;
        }
        __m128i slots = _mm256_cvttpd_epi32(apart ? low : _mm256_add_pd(low, high));
        // Lanes from `end` up take `above` (their 64-bit masks narrowed to 32 bits).
        __m128i pastLanes = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(past, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6)));
        slots = _mm_blendv_epi8(slots, _mm_set1_epi32((int)above), pastLanes);
        counts[_mm_cvtsi128_si32(slots)] += 1;
        counts[_mm_extract_epi32(slots, 1)] += 1;
        counts[_mm_extract_epi32(slots, 2)] += 1;
        counts[_mm_extract_epi32(slots, 3)] += 1;
    }
    add_slots_portable(values + i, count - i, counts, bins, unit, magic, end, above, between, aside, asideCapacity);
}
#endif

void staysearch_add_slots(const int64_t *values, long count, int32_t *counts, long bins, int64_t unit, uint64_t magic, int64_t end,
                          long above, long between, int64_t *aside, long asideCapacity) {
#if defined(__x86_64__)
    if (has_avx2()) { add_slots_avx2(values, count, counts, bins, unit, magic, end, above, between, aside, asideCapacity); return; }
#endif
    add_slots_portable(values, count, counts, bins, unit, magic, end, above, between, aside, asideCapacity);
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

#if defined(__x86_64__)
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
