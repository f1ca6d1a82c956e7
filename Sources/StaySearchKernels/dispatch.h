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
#endif

/// A dense row's price on a night: the difference of its running sums after and before it (modulo 2^16,
/// as they are kept), from `sums` at the night's stripe.
static inline int32_t dense_night(const uint16_t *sums, long stride) { return (uint16_t)(sums[stride] - sums[0]); }

/// Whether the price calendar's kernels run their portable versions (`staysearch_calendar_use_portable`, for
/// the tests that pit them against the AVX2 ones); defined in calendar-word.c.
extern int staysearch_calendar_portable __attribute__((visibility("hidden")));

#endif
