// Flexible dates (Swift: `Scan+FlexibleDates`, `Scan`): a word of dense rows' cheapest stay over consecutive
// check-ins at once.

#include "dispatch.h"

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
