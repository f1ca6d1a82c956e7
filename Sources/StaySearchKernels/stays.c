// A row's stays from its running sums (Swift: `SpanPrices`, `ListingIndex+PriceCalendar`): each summed row's
// least and greatest stay over a span, its stays a cache line a row, the dense stripes turned row-major, and a
// calendar word's bookable rows for each check-in.

#include "dispatch.h"

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
    if (!__atomic_load_n(&staysearch_calendar_portable, __ATOMIC_RELAXED) && has_avx2()) {
        stay_bounds_avx2(sums, stride, nights, windows, slots, nightLows, nightHighs, from, to, stayLows, stayHighs);
        return;
    }
#endif
    stay_bounds_portable(sums, stride, nights, windows, slots, nightLows, nightHighs, from, to, stayLows, stayHighs);
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
    if (!__atomic_load_n(&staysearch_calendar_portable, __ATOMIC_RELAXED) && has_avx2_bmi2() && stayStride == 32 && windows <= 32) {
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
    if (!__atomic_load_n(&staysearch_calendar_portable, __ATOMIC_RELAXED) && has_avx2_bmi2()) {
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
