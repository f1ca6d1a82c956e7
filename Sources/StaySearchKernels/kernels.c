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

/// A lane's price on night `night` (see staysearch_calendar_word).
static inline int32_t calendar_price(const int32_t *constant, const uint16_t *dense, long denseStride, const int32_t *matrix,
                                     long night, int lane) {
    if (constant[lane] >= 0) return constant[lane];
    return dense ? (int32_t)dense[night * denseStride + lane] : matrix[night * 64 + lane];
}

static void calendar_word_portable(const int32_t *constant, const uint16_t *dense, long denseStride, const int32_t *matrix,
                                   long span, long nights, long checkIns, const uint64_t *valid, int32_t lowest,
                                   int32_t highest, const int32_t *bracketLow, const int32_t *bracketHigh,
                                   uint32_t *counts, uint32_t *below, int32_t *least, uint64_t *inBracket, int32_t *totals) {
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
            if (total < least[p]) least[p] = total;
            if (total >= bracketLow[p] && total <= bracketHigh[p]) {
                inBracket[p] |= bit;
                totals[p * 64 + lane] = total;
            }
        }
    }
}

#if defined(__x86_64__)
/// Eight lanes' prices on night `night`, from `lane`.
STAYSEARCH_AVX2 static inline __m256i calendar_prices_avx2(__m256i constant, __m256i isConstant, const uint16_t *dense,
                                                           long denseStride, const int32_t *matrix, long night, int lane) {
    __m256i varying = dense ? _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(dense + night * denseStride + lane)))
                            : _mm256_loadu_si256((const __m256i *)(matrix + night * 64 + lane));
    return _mm256_blendv_epi8(varying, constant, isConstant);
}

STAYSEARCH_AVX2 static void calendar_word_avx2(const int32_t *constant, const uint16_t *dense, long denseStride,
                                               const int32_t *matrix, long span, long nights, long checkIns,
                                               const uint64_t *valid, int32_t lowest, int32_t highest,
                                               const int32_t *bracketLow, const int32_t *bracketHigh, uint32_t *counts,
                                               uint32_t *below, int32_t *least, uint64_t *inBracket, int32_t *totals) {
    (void)span;
    uint64_t inRange[STAYSEARCH_CALENDAR_CHECKINS], under[STAYSEARCH_CALENDAR_CHECKINS], bracket[STAYSEARCH_CALENDAR_CHECKINS];
    __m256i smallest[STAYSEARCH_CALENDAR_CHECKINS];
    const __m256i laneBits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    const __m256i low = _mm256_set1_epi32(lowest - 1), high = _mm256_set1_epi32(highest);
    const __m256i none = _mm256_set1_epi32(INT32_MAX);
    for (long p = 0; p < checkIns; p++) {
        inRange[p] = under[p] = bracket[p] = 0;
        smallest[p] = none;
    }
    for (int lane = 0; lane < 64; lane += 8) {
        __m256i fixed = _mm256_loadu_si256((const __m256i *)(constant + lane));
        __m256i isConstant = _mm256_cmpgt_epi32(fixed, _mm256_set1_epi32(-1));
        __m256i total = _mm256_setzero_si256();
        for (long n = 0; n < nights; n++) {
            total = _mm256_add_epi32(total, calendar_prices_avx2(fixed, isConstant, dense, denseStride, matrix, n, lane));
        }
        for (long p = 0; p < checkIns; p++) {
            if (p > 0) {
                __m256i entering = calendar_prices_avx2(fixed, isConstant, dense, denseStride, matrix, p + nights - 1, lane);
                __m256i leaving = calendar_prices_avx2(fixed, isConstant, dense, denseStride, matrix, p - 1, lane);
                total = _mm256_sub_epi32(_mm256_add_epi32(total, entering), leaving);
            }
            uint32_t validBits = (uint32_t)(valid[p] >> lane) & 0xFF;
            if (!validBits) continue;
            __m256i fits = _mm256_andnot_si256(_mm256_cmpgt_epi32(total, high), _mm256_cmpgt_epi32(total, low));
            __m256i isValid = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)validBits), laneBits), laneBits);
            __m256i found = _mm256_and_si256(fits, isValid);
            uint64_t foundBits = (uint64_t)(uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(found));
            if (!foundBits) continue;
            inRange[p] |= foundBits << lane;
            smallest[p] = _mm256_min_epi32(smallest[p], _mm256_blendv_epi8(none, total, found));
            __m256i bracketLowLanes = _mm256_set1_epi32(bracketLow[p]);
            __m256i isUnder = _mm256_cmpgt_epi32(bracketLowLanes, total);
            __m256i isOver = _mm256_cmpgt_epi32(total, _mm256_set1_epi32(bracketHigh[p]));
            uint64_t underBits = (uint64_t)(uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(isUnder));
            uint64_t overBits = (uint64_t)(uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(isOver));
            under[p] |= (underBits & foundBits) << lane;
            uint64_t inside = foundBits & ~underBits & ~overBits;
            if (inside) {
                bracket[p] |= inside << lane;
                _mm256_storeu_si256((__m256i *)(totals + p * 64 + lane), total);
            }
        }
    }
    for (long p = 0; p < checkIns; p++) {
        counts[p] += (uint32_t)__builtin_popcountll(inRange[p]);
        below[p] += (uint32_t)__builtin_popcountll(under[p]);
        inBracket[p] = bracket[p];
        __m128i half = _mm_min_epi32(_mm256_castsi256_si128(smallest[p]), _mm256_extracti128_si256(smallest[p], 1));
        half = _mm_min_epi32(half, _mm_shuffle_epi32(half, _MM_SHUFFLE(1, 0, 3, 2)));
        half = _mm_min_epi32(half, _mm_shuffle_epi32(half, _MM_SHUFFLE(2, 3, 0, 1)));
        int32_t value = _mm_cvtsi128_si32(half);
        if (value < least[p]) least[p] = value;
    }
}
#endif

void staysearch_calendar_word(const int32_t *constant, const uint16_t *dense, long denseStride, const int32_t *matrix,
                              long span, long nights, long checkIns, const uint64_t *valid, int32_t lowest, int32_t highest,
                              const int32_t *bracketLow, const int32_t *bracketHigh, uint32_t *counts, uint32_t *below,
                              int32_t *least, uint64_t *inBracket, int32_t *totals) {
#if defined(__x86_64__)
    if (has_avx2()) {
        calendar_word_avx2(constant, dense, denseStride, matrix, span, nights, checkIns, valid, lowest, highest, bracketLow,
                           bracketHigh, counts, below, least, inBracket, totals);
        return;
    }
#endif
    calendar_word_portable(constant, dense, denseStride, matrix, span, nights, checkIns, valid, lowest, highest, bracketLow,
                           bracketHigh, counts, below, least, inBracket, totals);
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
