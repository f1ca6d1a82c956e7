// A stay's total from day-by-day prices two ways, on the dense section of a saved index (docs/performance.md,
// "A scan's work"): the 2-byte day-major table the scan reads, 64 rows' stays summed a night at a time, against
// the same table held as running sums modulo 2^16 (day d holds the row's prices of days 0 ..< d, still two bytes
// a day and a row), where a stay is the difference of two days whatever its length — exact when the stay's
// total is below 65,536 units (a row's highest nightly price × the stay's nights tells) and every night of it
// is priced (unpriced nights and days without a calendar row count 0 in the sums: both are always closed, so
// the scan never prices a stay holding one). Every row, then a pseudo-random half, as candidates; stays of 1,
// 3, 7, 14 and 28 nights, each pass on other days so that the stripes come from memory; best of five passes.
// The totals of every stay whose nights are all priced and whose total is below 65,536 units are checked equal.
//
//   cc -O3 -mavx2 -o prefix-dense Benchmarks/roofline/prefix-dense.c && ./prefix-dense dynamic.ssx
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
    if (argc < 2) { fprintf(stderr, "usage: prefix-dense INDEX.ssx (an index with day-by-day prices)\n"); return 64; }
    int fd = open(argv[1], O_RDONLY); struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) { perror(argv[1]); return 66; }
    uint8_t *f = mmap(0, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    int days = *(int32_t *)(f + 36); uint32_t sections = *(uint32_t *)(f + 40);
    uint16_t *dense = 0; uint64_t count = 0;
    for (uint32_t e = 0; e < sections; e++) { uint8_t *b = f + 64 + 32 * e;
        if (*(uint32_t *)b == 59) { dense = (uint16_t *)(f + *(uint64_t *)(b + 8)); count = *(uint64_t *)(b + 16); } }
    if (!dense || days < 300 || count / (days + 1) < 64) { fprintf(stderr, "%s: no day-by-day prices to sum (generate --pricing dynamic)\n", argv[1]); return 65; }
    long stride = count / (days + 1), rows = stride, words = rows / 64; rows = words * 64;
    uint16_t *A = malloc(sizeof(uint16_t) * days * rows), *P = malloc(sizeof(uint16_t) * (days + 1) * rows);
    // The index keeps running sums (section 59): each night's price is the difference of two neighbours.
    for (long d = 0; d < days; d++) for (long r = 0; r < rows; r++) A[d * rows + r] = dense[(d + 1) * stride + r] - dense[d * stride + r];
    // Running sums modulo 2^16, unpriced nights and days without a row as 0; each row's highest price.
    uint16_t *highest = calloc(rows, 2); long unpriced = 0;
    memset(P, 0, rows * 2);
    for (long d = 0; d < days; d++) for (long r = 0; r < rows; r++) {
        uint16_t c = A[d * rows + r], v = c >= 0xFFFE ? 0 : c;
        unpriced += c >= 0xFFFE;
        if (v > highest[r]) highest[r] = v;
        P[(d + 1) * rows + r] = (uint16_t)(P[d * rows + r] + v);
    }
    long exact14 = 0, exact28 = 0;
    for (long r = 0; r < rows; r++) { exact14 += (long)highest[r] * 14 < 65536; exact28 += (long)highest[r] * 28 < 65536; }
    printf("%ld dense rows, %d days, %.2f %% of nights unpriced or without a row; rows whose every stay of 14 / 28 nights is below 65,536 units: "
           "%.3f %% / %.3f %%\n", rows, days, 100.0 * unpriced / ((double)rows * days), 100.0 * exact14 / rows, 100.0 * exact28 / rows);
    uint64_t checkA = 0, checkB = 0, mismatches = 0, compared = 0;
    static const int lengths[] = {1, 3, 7, 14, 28};
    for (int half = 0; half < 2; half++) for (int li = 0; li < 5; li++) {
        int n = lengths[li];
        double best[2] = {1e9, 1e9};
        for (int rep = 0; rep < 5; rep++) {
            int start = 10 + rep * 60;
            uint64_t cand = 0x9E3779B97F4A7C15ull;
            double t0 = now();
            for (long w = 0; w < words; w++) {
                uint32_t tot[64] = {0};
                for (int d = 0; d < n; d++) { const uint16_t *p = A + (long)(start + d) * rows + w * 64; for (int k = 0; k < 64; k++) tot[k] += p[k]; }
                uint64_t c = half ? (cand = cand * 6364136223846793005ull + 1442695040888963407ull) : ~0ull;
                while (c) { int b = __builtin_ctzll(c); c &= c - 1; checkA += tot[b]; }
            }
            double t1 = now();
            cand = 0x9E3779B97F4A7C15ull;
            for (long w = 0; w < words; w++) {
                uint32_t tot[64];
                const uint16_t *s = P + (long)start * rows + w * 64, *e = P + (long)(start + n) * rows + w * 64;
                for (int k = 0; k < 64; k++) tot[k] = (uint16_t)(e[k] - s[k]);
                uint64_t c = half ? (cand = cand * 6364136223846793005ull + 1442695040888963407ull) : ~0ull;
                while (c) { int b = __builtin_ctzll(c); c &= c - 1; checkB += tot[b]; }
            }
            double t2 = now();
            if (t1 - t0 < best[0]) best[0] = t1 - t0;
            if (t2 - t1 < best[1]) best[1] = t2 - t1;
        }
        printf("%s, %2d nights: night by night %.2f ns a row, two running sums %.2f ns a row (%.2fx)\n",
               half ? "half the rows candidates" : "every row a candidate", n, best[0] * 1e9 / rows, best[1] * 1e9 / rows, best[1] / best[0]);
    }
    // Every stay of 1 to 28 nights from every 9th day, every night priced and below 65,536 units: equal.
    for (int n = 1; n <= 28; n++) for (int s = 0; s + n <= days; s += 9) for (long r = 0; r < rows; r++) {
        uint32_t sum = 0; int priced = 1;
        for (int d = s; d < s + n; d++) { uint16_t c = A[(long)d * rows + r]; if (c >= 0xFFFE) { priced = 0; break; } sum += c; }
        if (!priced || sum >= 65536) continue;
        compared++;
        mismatches += (uint16_t)(P[(long)(s + n) * rows + r] - P[(long)s * rows + r]) != sum;
    }
    printf("%llu stays compared, %llu different (checks %llu %llu)\n", (unsigned long long)compared, (unsigned long long)mismatches,
           (unsigned long long)(checkA & 0xFFFF), (unsigned long long)(checkB & 0xFFFF));
    return mismatches != 0;
}
