// A month of check-ins over every day-by-day row of a saved index, the way a price calendar counts it,
// totalled in 16-bit lanes with no row settled in advance: for each word of 64 dense rows and each of 31
// check-ins, every row's stay total slid a night (sixteen rows an instruction), compared with the day's
// bracket of its median and with a cut under its cheapest, as bits; the stays found and those below the
// bracket counted by popcounts, those inside counted by unit, the cheapest kept. Each block of 256 words'
// nights is read stripe after stripe before its words are (a month's nights are 33–37 streams read
// together otherwise: Benchmarks/roofline/stripes.c). Bookable stays are priced ones and a fixed
// pseudo-random 85 %; brackets are the exact 48.5th and 51.5th percentiles of each day's totals. The counts
// are checked against a plain loop. Prints the month's time a row, with and without the blocks read first.
//
//   cc -O3 -mavx2 -mbmi -mbmi2 -mpopcnt -o calendar16 Benchmarks/roofline/calendar16.c && ./calendar16 dynamic.ssx
#include <immintrin.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>

#define CHECKINS 31
#define BLOCK 256
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static int ascending(const void *a, const void *b) { uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b; return x < y ? -1 : x > y; }
#define BITS16(a, b, c, d) ((uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_permute4x64_epi64(_mm256_packs_epi16(a, b), 0xD8)) | \
                            (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_permute4x64_epi64(_mm256_packs_epi16(c, d), 0xD8)) << 32)
static volatile uint8_t sink;

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: calendar16 INDEX.ssx (an index with day-by-day prices)\n"); return 64; }
    int fd = open(argv[1], O_RDONLY); struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) { perror(argv[1]); return 66; }
    uint8_t *f = mmap(0, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    int days = *(int32_t *)(f + 36); uint32_t sections = *(uint32_t *)(f + 40);
    const uint16_t *dense = 0; uint64_t count = 0;
    for (uint32_t e = 0; e < sections; e++) { uint8_t *b = f + 64 + 32 * e;
        if (*(uint32_t *)b == 59) { dense = (const uint16_t *)(f + *(uint64_t *)(b + 8)); count = *(uint64_t *)(b + 16); } }
    if (!dense || days < 100 || count / (days + 1) < 64 * 4096) { fprintf(stderr, "%s: too few day-by-day prices (generate --pricing dynamic)\n", argv[1]); return 65; }
    long stride = count / (days + 1), allWords = stride / 64;
    uint16_t *codes = malloc(2 * (size_t)days * stride);
    // The index keeps running sums (section 59): each night's price is the difference of two neighbours.
    for (long d = 0; d < days; d++) for (long k = 0; k < stride; k++) codes[d * stride + k] = dense[(d + 1) * stride + k] - dense[d * stride + k];
    const int start = 30;
    for (int nights = 3; nights <= 7; nights += 4) {
        const int span = CHECKINS + nights - 1;
        uint64_t *valid = malloc(8 * (size_t)allWords * CHECKINS), random = 12345;
        uint32_t *sorted = malloc(4 * (size_t)allWords * 64);
        int32_t low[CHECKINS], high[CHECKINS], cut[CHECKINS], expectedLeast[CHECKINS];
        long expectedCount[CHECKINS], expectedBelow[CHECKINS];
        for (long w = 0; w < allWords; w++) for (int p = 0; p < CHECKINS; p++) {
            uint64_t bits = 0;
            for (int k = 0; k < 64; k++) { uint32_t total = 0; int priced = 1;
                for (int d = 0; d < nights; d++) { uint16_t c = codes[(long)(start + p + d) * stride + w * 64 + k]; priced &= c < 0xFFFE; total += c; }
                random = random * 6364136223846793005ull + 1442695040888963407ull;
                if (priced && total <= 65535 && (random >> 33) % 100 < 85) bits |= 1ull << k; }
            valid[w * CHECKINS + p] = bits; }
        for (int p = 0; p < CHECKINS; p++) { long m = 0;
            for (long w = 0; w < allWords; w++) for (int k = 0; k < 64; k++) if (valid[w * CHECKINS + p] >> k & 1) { uint32_t total = 0;
                for (int d = 0; d < nights; d++) total += codes[(long)(start + p + d) * stride + w * 64 + k];
                sorted[m++] = total; }
            qsort(sorted, m, 4, ascending);
            low[p] = sorted[(long)(m * 0.485)]; high[p] = sorted[(long)(m * 0.515)]; cut[p] = sorted[m / 256];
            expectedCount[p] = m; long b = 0; while (b < m && sorted[b] < (uint32_t)low[p]) b++; expectedBelow[p] = b; expectedLeast[p] = sorted[0]; }
        int width = 0; for (int p = 0; p < CHECKINS; p++) width = high[p] - low[p] + 1 > width ? high[p] - low[p] + 1 : width;
        uint32_t *slots = malloc(4 * (size_t)CHECKINS * width);
        for (int plain = 0; plain < 2; plain++) {
            const long words = allWords;
            double best = 1e9; long inside = 0; int exact = 1;
            for (int round = 0; round < 7; round++) {
                uint32_t counts[CHECKINS] = {0}, below[CHECKINS] = {0}; int32_t least[CHECKINS];
                for (int p = 0; p < CHECKINS; p++) least[p] = 1 << 30;
                memset(slots, 0, 4 * (size_t)CHECKINS * width); inside = 0;
                const __m256i flip = _mm256_set1_epi16((short)0x8000);
                double t0 = now();
                for (long w = 0; w < words; w++) {
                    const uint16_t *first = codes + (long)start * stride + w * 64;
                    if (!plain && w % BLOCK == 0) {
                        long bytes = (words - w < BLOCK ? words - w : BLOCK) * 128;
                        for (int d = 0; d < span; d++) for (long at = 0; at < bytes; at += 64) sink |= ((const volatile uint8_t *)(first + (long)d * stride))[at];
                    }
                    __m256i t0 = _mm256_setzero_si256(), t1 = t0, t2 = t0, t3 = t0;
                    for (int d = 0; d < nights; d++) { const __m256i *q = (const __m256i *)(first + (long)d * stride);
                        t0 = _mm256_add_epi16(t0, _mm256_loadu_si256(q)); t1 = _mm256_add_epi16(t1, _mm256_loadu_si256(q + 1));
                        t2 = _mm256_add_epi16(t2, _mm256_loadu_si256(q + 2)); t3 = _mm256_add_epi16(t3, _mm256_loadu_si256(q + 3)); }
                    uint16_t totals[CHECKINS * 64]; uint64_t insideBits[CHECKINS], cheapBits[CHECKINS];
                    for (int p = 0; p < CHECKINS; p++) {
                        if (p > 0) { const __m256i *in = (const __m256i *)(first + (long)(p + nights - 1) * stride), *out = (const __m256i *)(first + (long)(p - 1) * stride);
                            t0 = _mm256_sub_epi16(_mm256_add_epi16(t0, _mm256_loadu_si256(in)), _mm256_loadu_si256(out));
                            t1 = _mm256_sub_epi16(_mm256_add_epi16(t1, _mm256_loadu_si256(in + 1)), _mm256_loadu_si256(out + 1));
                            t2 = _mm256_sub_epi16(_mm256_add_epi16(t2, _mm256_loadu_si256(in + 2)), _mm256_loadu_si256(out + 2));
                            t3 = _mm256_sub_epi16(_mm256_add_epi16(t3, _mm256_loadu_si256(in + 3)), _mm256_loadu_si256(out + 3)); }
                        const __m256i s0 = _mm256_xor_si256(t0, flip), s1 = _mm256_xor_si256(t1, flip), s2 = _mm256_xor_si256(t2, flip), s3 = _mm256_xor_si256(t3, flip);
                        const __m256i under = _mm256_set1_epi16((short)(low[p] ^ 0x8000)), over = _mm256_set1_epi16((short)(high[p] ^ 0x8000));
                        const __m256i cheap = _mm256_set1_epi16((short)((cut[p] + 1) ^ 0x8000));
                        const uint64_t v = valid[w * CHECKINS + p];
                        const uint64_t isUnder = BITS16(_mm256_cmpgt_epi16(under, s0), _mm256_cmpgt_epi16(under, s1), _mm256_cmpgt_epi16(under, s2), _mm256_cmpgt_epi16(under, s3));
                        const uint64_t isOver = BITS16(_mm256_cmpgt_epi16(s0, over), _mm256_cmpgt_epi16(s1, over), _mm256_cmpgt_epi16(s2, over), _mm256_cmpgt_epi16(s3, over));
                        const uint64_t isCheap = BITS16(_mm256_cmpgt_epi16(cheap, s0), _mm256_cmpgt_epi16(cheap, s1), _mm256_cmpgt_epi16(cheap, s2), _mm256_cmpgt_epi16(cheap, s3));
                        counts[p] += _mm_popcnt_u64(v); below[p] += _mm_popcnt_u64(v & isUnder);
                        insideBits[p] = v & ~isUnder & ~isOver; cheapBits[p] = v & isCheap;
                        _mm256_storeu_si256((__m256i *)(totals + p * 64), t0); _mm256_storeu_si256((__m256i *)(totals + p * 64 + 16), t1);
                        _mm256_storeu_si256((__m256i *)(totals + p * 64 + 32), t2); _mm256_storeu_si256((__m256i *)(totals + p * 64 + 48), t3);
                    }
                    // The totals in brackets listed (the first three of a check-in without a branch), then counted.
                    uint32_t listed[CHECKINS * 64 + 1]; long n = 0;
                    for (int p = 0; p < CHECKINS; p++) { uint64_t bits = insideBits[p]; const uint16_t *day = totals + p * 64; const uint32_t at = p * width - low[p];
                        for (int step = 0; step < 3; step++) { listed[n] = at + day[_tzcnt_u64(bits) & 63]; n += bits != 0; bits = _blsr_u64(bits); }
                        for (; bits; bits = _blsr_u64(bits)) listed[n++] = at + day[_tzcnt_u64(bits)];
                        for (uint64_t c = cheapBits[p]; c; c = _blsr_u64(c)) { int32_t x = day[_tzcnt_u64(c)]; least[p] = x < least[p] ? x : least[p]; } }
                    for (long k = 0; k < n; k++) slots[listed[k]]++;
                    inside += n;
                }
                double t = now() - t0;
                best = t < best ? t : best;
                for (int p = 0; p < CHECKINS; p++) exact &= counts[p] == expectedCount[p] && below[p] == expectedBelow[p] && least[p] == expectedLeast[p];
            }
            printf("%d nights, %ld rows, %s: %.2f ns a row for the month (%.1f %% of stays in brackets)%s\n", nights, words * 64,
                   plain ? "word by word only" : "blocks read stripe after stripe first", best * 1e9 / (words * 64),
                   100.0 * inside / ((double)expectedCount[0] * CHECKINS), exact ? ", counts as the plain loop's" : ", COUNTS DIFFER");
        }
        free(valid); free(sorted); free(slots);
    }
    return 0;
}
