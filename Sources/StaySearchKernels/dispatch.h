// The run-time choice between a kernel's AVX2 version and its portable twin, shared by every kernel file:
// Swift is compiled for baseline x86-64 without unsafe flags, so AVX2 is reached through functions compiled for
// it (`STAYSEARCH_AVX2`) and chosen once the processor has been asked (`has_avx2`).
#ifndef STAYSEARCH_DISPATCH_H
#define STAYSEARCH_DISPATCH_H

#include "StaySearchKernels.h"

#if defined(__x86_64__)
#include <immintrin.h>
#define STAYSEARCH_AVX2 __attribute__((target("avx2")))

/// Whether the processor has AVX2: asked once, kept (a relaxed atomic: every thread finds the same answer).
static inline int has_avx2(void) {
    static int known = -1;
    int answer = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (answer < 0) {
        __builtin_cpu_init();
        answer = __builtin_cpu_supports("avx2") ? 1 : 0;
        __atomic_store_n(&known, answer, __ATOMIC_RELAXED);
    }
    return answer;
}

#define STAYSEARCH_AVX2_BMI2 __attribute__((target("avx2,bmi,bmi2,popcnt")))

/// Whether the processor has AVX2 and BMI2 (asked once, kept).
static inline int has_avx2_bmi2(void) {
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

/// Eight adjacent dense rows' prices on a night, widened to 32 bits: the two stripes of running sums around
/// it (from `sums`) subtracted in 16 bits.
STAYSEARCH_AVX2 static inline __m256i dense_nights8(const uint16_t *sums, long stride) {
    __m128i before = _mm_loadu_si128((const __m128i *)sums), after = _mm_loadu_si128((const __m128i *)(sums + stride));
    return _mm256_cvtepu16_epi32(_mm_sub_epi16(after, before));
}
/// For 32 words `valid[0 ..< 32]`, the 8 vectors whose byte *p* of vector *j* is byte *j* of `valid[p]`:
/// bit *k* of vector *j*'s bytes, gathered by a movemask, is row 8*j* + *k*'s check-ins.
STAYSEARCH_AVX2_BMI2 static inline void calendar_rows_transpose(const uint64_t *valid, __m256i *bytes) {
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
#endif

/// A dense row's price on a night: the difference of its running sums after and before it (modulo 2^16,
/// as they are kept), from `sums` at the night's stripe.
static inline int32_t dense_night(const uint16_t *sums, long stride) { return (uint16_t)(sums[stride] - sums[0]); }

/// Whether the price calendar's kernels run their portable versions (`staysearch_calendar_use_portable`, for
/// the tests that pit them against the AVX2 ones); defined in calendar-word.c.
extern int staysearch_calendar_portable __attribute__((visibility("hidden")));

#endif
