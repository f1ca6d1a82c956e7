// The day-by-day prices' word sums in two layouts, on the dense section of a saved index
// (docs/performance.md, "A scan's work"): the 2-byte day-major table the scan reads (64 rows' stays
// summed a night at a time), against a split layout — rows whose every price lies within 254 units of their
// lowest in a one-byte table (the byte less that lowest), the others in a 2-byte table, each word of 64 rows
// with a mask of its narrow rows and their rank bases — whose two sums are expanded to row order once per
// word (a popcount and a branch-free select a candidate). Every row, then a pseudo-random half, as
// candidates; stays of 1, 3, 7 and 14 nights from day 100; best of five passes.
//
//   cc -O3 -mavx2 -o split-dense Benchmarks/roofline/split-dense.c && ./split-dense dynamic.ssx
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: split-dense INDEX.ssx (an index with day-by-day prices)\n"); return 64; }
    int fd = open(argv[1], O_RDONLY); struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) { perror(argv[1]); return 66; }
    uint8_t *f = mmap(0, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    int days = *(int32_t *)(f + 36); uint32_t sections = *(uint32_t *)(f + 40);
    uint16_t *dense = 0; uint64_t count = 0;
    for (uint32_t e = 0; e < sections; e++) { uint8_t *b = f + 64 + 32 * e;
        if (*(uint32_t *)b == 59) { dense = (uint16_t *)(f + *(uint64_t *)(b + 8)); count = *(uint64_t *)(b + 16); } }
    if (!dense || days <= 114 || count / (days + 1) < 64) { fprintf(stderr, "%s: no day-by-day prices to sum (generate --pricing dynamic)\n", argv[1]); return 65; }
    long stride = count / (days + 1), rows = stride, words = rows / 64; rows = words * 64;
    uint16_t *A = malloc(sizeof(uint16_t) * days * rows);
    // The index keeps running sums (section 59): each night's price is the difference of two neighbours.
    for (long d = 0; d < days; d++) for (long r = 0; r < rows; r++) A[d * rows + r] = dense[(d + 1) * stride + r] - dense[d * stride + r];
    // Split layout.
    uint64_t *mask = calloc(words, 8); uint32_t *nbase = malloc(4 * (words + 1)), *wbase = malloc(4 * (words + 1));
    uint16_t *lowest = malloc(2 * rows); long narrow = 0;
    for (long r = 0; r < rows; r++) { int lo = 0xFFFF, hi = 0;
        for (int d = 0; d < days; d++) { int c = A[d * rows + r]; if (c >= 0xFFFE) continue; if (c < lo) lo = c; if (c > hi) hi = c; }
        lowest[r] = lo == 0xFFFF ? 0 : lo;
        if (hi - lowest[r] <= 254) { mask[r >> 6] |= 1ull << (r & 63); narrow++; } }
    long wide = rows - narrow; long nn = 0, ww = 0;
    for (long w = 0; w < words; w++) { nbase[w] = nn; wbase[w] = ww; nn += __builtin_popcountll(mask[w]); ww += 64 - __builtin_popcountll(mask[w]); }
    uint8_t *N = malloc((size_t)days * narrow); uint16_t *W = malloc(2 * (size_t)days * wide); uint16_t *nlow = malloc(2 * narrow);
    for (long r = 0, i = 0, j = 0; r < rows; r++) {
        if (mask[r >> 6] >> (r & 63) & 1) { nlow[i] = lowest[r]; for (int d = 0; d < days; d++) { int c = A[d * rows + r]; N[d * narrow + i] = c >= 0xFFFE ? 255 : c - lowest[r]; } i++; }
        else { for (int d = 0; d < days; d++) W[d * wide + j] = A[d * rows + r]; j++; } }
    printf("%ld dense rows, %d days: narrow %.1f %%; bytes a row %.0f -> %.0f\n", rows, days, 100.0 * narrow / rows,
           2.0 * days, (double)(days * narrow + 2.0 * days * wide + 2 * narrow + 16.0 * words) / rows);
    int start = 100; uint64_t check = 0;
    // Candidates: every row, or a pseudo-random half.
    for (int half = 0; half < 2; half++) for (int n = 1; n <= 14; n += (n == 1 ? 2 : n == 3 ? 4 : 7)) {
        double best[2] = {1e9, 1e9};
        for (int rep = 0; rep < 5; rep++) {
            uint64_t cand = 0x9E3779B97F4A7C15ull;
            double t0 = now();
            for (long w = 0; w < words; w++) {
                uint32_t tot[64] = {0};
                for (int d = 0; d < n; d++) { const uint16_t *p = A + (long)(start + d) * rows + w * 64; for (int k = 0; k < 64; k++) tot[k] += p[k]; }
                uint64_t c = half ? (cand = cand * 6364136223846793005ull + 1442695040888963407ull) : ~0ull;
                while (c) { int b = __builtin_ctzll(c); c &= c - 1; check += tot[b]; }
            }
            double t1 = now();
            for (long w = 0; w < words; w++) {
                uint32_t nt[64] = {0}, wt[64] = {0};
                uint64_t m = mask[w]; int nc = __builtin_popcountll(m), wc = 64 - nc;
                for (int d = 0; d < n; d++) {
                    const uint8_t *p = N + (long)(start + d) * narrow + nbase[w]; for (int k = 0; k < 64; k++) nt[k] += p[k];
                    const uint16_t *q = W + (long)(start + d) * wide + wbase[w]; for (int k = 0; k < 64; k++) wt[k] += q[k];
                }
                (void)nc; (void)wc;
                uint64_t c = half ? (cand = cand * 6364136223846793005ull + 1442695040888963407ull) : ~0ull;
                // Narrow totals with their bases first, then one branch-free select a candidate.
                for (int k = 0; k < 64; k++) nt[k] += (uint32_t)n * nlow[nbase[w] + (k < nc ? k : 0)];
                while (c) { int b = __builtin_ctzll(c); c &= c - 1; uint64_t below = m & ((1ull << b) - 1);
                    int i = __builtin_popcountll(below), j = b - i; uint32_t isN = (uint32_t)(m >> b & 1);
                    uint32_t a = nt[i & 63], z = wt[j & 63]; check += (a & -isN) | (z & (isN - 1)); }
            }
            double t2 = now();
            if (t1 - t0 < best[0]) best[0] = t1 - t0;
            if (t2 - t1 < best[1]) best[1] = t2 - t1;
        }
        printf("%s, %2d nights: 2-byte %.2f ns a row, split %.2f ns a row (%.2fx)\n", half ? "half the rows candidates" : "every row a candidate",
               n, best[0] * 1e9 / rows, best[1] * 1e9 / rows, best[1] / best[0]);
    }
    printf("check %llu\n", (unsigned long long)check);
    return 0;
}
