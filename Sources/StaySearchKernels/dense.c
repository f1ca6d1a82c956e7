// A search's stays on a word of 64 dense rows of consecutive ranks (Swift: `Scan`): each row's total from the
// running sums at the stay's ends and the row's cheapest night, sixteen rows a step, with no branch on a row; then
// the totals of the rows too wide for that from their 24-bit sums, each row's carry found by counting bits.

#include "dispatch.h"

static int dense_word_totals_portable_only = 0;

void staysearch_dense_word_totals_use_portable(int portable) {
    __atomic_store_n(&dense_word_totals_portable_only, portable, __ATOMIC_RELAXED);
}

static uint64_t dense_word_totals_portable(const uint16_t *before, const uint16_t *after, const uint16_t *minima,
                                           const uint16_t *maxima, long nights, int32_t *totals) {
    const long most = 0xFFFF / nights;
    uint64_t wide = 0;
    for (int lane = 0; lane < 64; lane++) {
        const long least = (long)minima[lane] * nights;
        const uint16_t rest = (uint16_t)((uint16_t)(after[lane] - before[lane]) - (uint16_t)least);
        totals[lane] = (int32_t)(least + rest);
        wide |= (uint64_t)((long)maxima[lane] - (long)minima[lane] > most) << lane;
    }
    return wide;
}

#if defined(__x86_64__)
STAYSEARCH_AVX2 static uint64_t dense_word_totals_avx2(const uint16_t *before, const uint16_t *after, const uint16_t *minima,
                                                       const uint16_t *maxima, long nights, int32_t *totals) {
    const long most = 0xFFFF / nights;
    const __m256i nights16 = _mm256_set1_epi16((short)nights), nights32 = _mm256_set1_epi32((int)nights);
    // A lane is wide when its spread is at least most + 1 (unsigned); with one night (most 65,535) none is.
    const __m256i past = _mm256_set1_epi16((short)(most + 1));
    uint64_t wide = 0;
    for (int group = 0; group < 64; group += 16) {
        const __m256i low = _mm256_loadu_si256((const __m256i *)(minima + group));
        const __m256i high = _mm256_loadu_si256((const __m256i *)(maxima + group));
        const __m256i difference = _mm256_sub_epi16(_mm256_loadu_si256((const __m256i *)(after + group)),
                                                     _mm256_loadu_si256((const __m256i *)(before + group)));
        // The rest over the cheapest night times the nights, modulo 2^16, then that product in 32 bits added.
        const __m256i rest = _mm256_sub_epi16(difference, _mm256_mullo_epi16(low, nights16));
        const __m256i least0 = _mm256_mullo_epi32(_mm256_cvtepu16_epi32(_mm256_castsi256_si128(low)), nights32);
        const __m256i least1 = _mm256_mullo_epi32(_mm256_cvtepu16_epi32(_mm256_extracti128_si256(low, 1)), nights32);
        _mm256_storeu_si256((__m256i *)(totals + group),
                            _mm256_add_epi32(least0, _mm256_cvtepu16_epi32(_mm256_castsi256_si128(rest))));
        _mm256_storeu_si256((__m256i *)(totals + group + 8),
                            _mm256_add_epi32(least1, _mm256_cvtepu16_epi32(_mm256_extracti128_si256(rest, 1))));
        if (most < 0xFFFF) {
            const __m256i spread = _mm256_sub_epi16(high, low);
            const __m256i isWide = _mm256_cmpeq_epi16(_mm256_max_epu16(spread, past), spread);
            // Sixteen 16-bit masks to bytes (lanes 0–7 in bits 0–7, lanes 8–15 in bits 16–23), then to 16 bits.
            const uint32_t bytes = (uint32_t)_mm256_movemask_epi8(_mm256_packs_epi16(isWide, isWide));
            wide |= (uint64_t)((bytes & 0xFF) | ((bytes >> 8) & 0xFF00)) << group;
        }
    }
    return wide;
}
#endif

uint64_t staysearch_dense_word_totals(const uint16_t *before, const uint16_t *after, const uint16_t *minima, const uint16_t *maxima,
                                      long nights, int32_t *totals) {
#if defined(__x86_64__)
    if (!__atomic_load_n(&dense_word_totals_portable_only, __ATOMIC_RELAXED) && has_avx2()) {
        return dense_word_totals_avx2(before, after, minima, maxima, nights, totals);
    }
#endif
    return dense_word_totals_portable(before, after, minima, maxima, nights, totals);
}

static int carried_word_totals_portable_only = 0;

void staysearch_carried_word_totals_use_portable(int portable) {
    __atomic_store_n(&carried_word_totals_portable_only, portable, __ATOMIC_RELAXED);
}

/// ``staysearch_carried_word_totals``, compiled twice: baseline x86-64 counts a word's bits in a dozen instructions,
/// a processor with POPCNT in one.
__attribute__((always_inline)) static inline uint64_t carried_word_totals(const uint16_t *before, const uint16_t *after,
                                                                          const uint8_t *carriesBefore, const uint8_t *carriesAfter,
                                                                          const uint16_t *minima, long nights, uint64_t carried,
                                                                          uint64_t lanes, int32_t *totals) {
    for (uint64_t rest = lanes & carried; rest != 0; rest &= rest - 1) {
        const int lane = __builtin_ctzll(rest);
        const int k = __builtin_popcountll(carried & ((UINT64_C(1) << lane) - 1));
        const long first = (long)carriesBefore[k] << 16 | before[lane], last = (long)carriesAfter[k] << 16 | after[lane];
        const long least = (long)minima[lane] * nights;
        totals[lane] = (int32_t)(least + ((last - first - least) & 0xFFFFFF));
    }
    return lanes & ~carried;
}

static uint64_t carried_word_totals_portable(const uint16_t *before, const uint16_t *after, const uint8_t *carriesBefore,
                                             const uint8_t *carriesAfter, const uint16_t *minima, long nights, uint64_t carried,
                                             uint64_t lanes, int32_t *totals) {
    return carried_word_totals(before, after, carriesBefore, carriesAfter, minima, nights, carried, lanes, totals);
}

#if defined(__x86_64__)
STAYSEARCH_AVX2_BMI2 static uint64_t carried_word_totals_popcnt(const uint16_t *before, const uint16_t *after,
                                                                const uint8_t *carriesBefore, const uint8_t *carriesAfter,
                                                                const uint16_t *minima, long nights, uint64_t carried,
                                                                uint64_t lanes, int32_t *totals) {
    return carried_word_totals(before, after, carriesBefore, carriesAfter, minima, nights, carried, lanes, totals);
}
#endif

uint64_t staysearch_carried_word_totals(const uint16_t *before, const uint16_t *after, const uint8_t *carriesBefore,
                                        const uint8_t *carriesAfter, const uint16_t *minima, long nights, uint64_t carried,
                                        uint64_t lanes, int32_t *totals) {
#if defined(__x86_64__)
    if (!__atomic_load_n(&carried_word_totals_portable_only, __ATOMIC_RELAXED) && has_avx2_bmi2()) {
        return carried_word_totals_popcnt(before, after, carriesBefore, carriesAfter, minima, nights, carried, lanes, totals);
    }
#endif
    return carried_word_totals_portable(before, after, carriesBefore, carriesAfter, minima, nights, carried, lanes, totals);
}
