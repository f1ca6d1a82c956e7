#ifndef STAYSEARCH_KERNELS_H
#define STAYSEARCH_KERNELS_H

#include <stdint.h>

/// The scan's innermost loops over a block's values and a word's stay rule classes, in C so that they
/// can use AVX2 where the processor has it (Swift code is compiled for baseline x86-64 without unsafe
/// flags); each has a portable version, chosen at run time.

/// Adds the sum of `values[0 ..< count]` to `*sum` and narrows `*smallest` and `*largest` to them.
void staysearch_fold(const int64_t *values, long count, int64_t *sum, int64_t *smallest, int64_t *largest);

/// How many of `values[0 ..< count]` lie in `lowest ... highest`.
long staysearch_count_in_range(const int64_t *values, long count, int64_t lowest, int64_t highest);

/// The first position from `start` on, before `count`, whose value lies in `lowest ... highest`; `count`
/// when there is none.
long staysearch_first_in_range(const int64_t *values, long start, long count, int64_t lowest, int64_t highest);

/// For the 64 rows whose stay rule classes are `classes[0 ..< 64]`, the bits of rows whose class is allowed:
/// bit `class mod 8` of `allowed[class ÷ 8]` (32 bytes, 256 bits); the rows of class 255 (their rules are
/// read run by run) go to `*check`.
uint64_t staysearch_verdict_bits(const uint8_t *classes, const uint8_t *allowed, uint64_t *check);

/// The rows among the 64 bytes from `bytes` whose value is at least `threshold` (1 ... 255), as bits.
uint64_t staysearch_bytes_at_least(const uint8_t *bytes, int threshold);

/// The rows among the 64 bytes from `bytes` whose value is `value` (0 ... 255), as bits.
uint64_t staysearch_bytes_equal(const uint8_t *bytes, int value);

/// Adds each of `values[0 ..< count]` (none negative) to its price slot's count in `counts`: below `end`,
/// slot ⌊z ÷ unit⌋ + ⌈z ÷ unit⌉ with z = value · `bins`, else slot `above`. `magic` is ⌈2^64 ÷ unit⌉, and
/// `end` · `bins` · `unit` + `unit`² stays below 2^64 (see PriceSlots).
void staysearch_add_slots(const int64_t *values, long count, int32_t *counts, long bins, int64_t unit, uint64_t magic, int64_t end,
                          long above);

#endif
