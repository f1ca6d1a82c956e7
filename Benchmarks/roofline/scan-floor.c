// The least work a query over every listing of a saved day-by-day index could cost on this machine: one pass,
// 64 rows a word, doing only what such a query's answer needs — the guests (one byte a row, 32 rows an
// instruction), the stay's nights (a bit set a night ANDed), each candidate's total as the 16-bit difference of
// its running sums (sixteen rows an instruction), and per candidate its count, sum, least and greatest, its
// histogram slot (the slot of price order's scan, ⌊z ÷ n⌋ + ⌈z ÷ n⌉ for z = units × 30 bins, read from a
// table made for the query) and the page of the 20 cheapest. No stay rules, no filters, no rows too dear for a
// difference of sums (their 14-night totals wrap here), nothing kept: a floor under the engine's figure, not a
// search. Each word's dense rows are taken as the 64 running sums of the same rank (the index's few rows priced
// by runs shift them; the work is the same). The first pass of each length is checked against a plain loop.
//
//   cc -O3 -mavx2 -mbmi -mbmi2 -mpopcnt -o scan-floor Benchmarks/roofline/scan-floor.c && ./scan-floor dynamic.ssx [guests]
#include <immintrin.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

typedef struct { uint64_t count, sum; uint32_t lowest, highest; uint32_t page[20]; int pageCount; } Answer;

static void offer(Answer *a, uint32_t total) {
    // The page of the 20 cheapest totals, kept sorted; the caller offers only totals below its cutoff.
    int k = a->pageCount < 20 ? a->pageCount++ : 19;
    while (k > 0 && a->page[k - 1] > total) { a->page[k] = a->page[k - 1]; k--; }
    a->page[k] = total;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: scan-floor INDEX.ssx [guests] (an index with day-by-day prices)\n"); return 64; }
    int guests = argc > 2 ? atoi(argv[2]) : 2;
    int fd = open(argv[1], O_RDONLY); struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) { perror(argv[1]); return 66; }
    uint8_t *f = mmap(0, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    uint64_t rowCount = *(uint64_t *)(f + 24); int days = *(int32_t *)(f + 36); uint32_t sections = *(uint32_t *)(f + 40);
    const uint16_t *dense = 0; const uint8_t *accommodates = 0; const uint64_t *bookable = 0; uint64_t denseCount = 0;
    for (uint32_t e = 0; e < sections; e++) {
        uint8_t *b = f + 64 + 32 * e; uint32_t kind = *(uint32_t *)b; uint8_t *at = f + *(uint64_t *)(b + 8);
        if (kind == 59) { dense = (const uint16_t *)at; denseCount = *(uint64_t *)(b + 16); }
        if (kind == 6) accommodates = at;
        if (kind == 15) bookable = (const uint64_t *)at;
    }
    long stride = dense ? (long)(denseCount / (days + 1)) : 0;
    if (!dense || !accommodates || !bookable || stride < 64 * 1024) {
        fprintf(stderr, "%s: too few day-by-day prices (generate --pricing dynamic)\n", argv[1]); return 65;
    }
    long wordsPerDay = (long)((rowCount + 63) / 64), words = stride / 64, rows = words * 64;
    // Resident, as a loaded index is.
    uint16_t *sums = malloc(2 * (size_t)(days + 1) * stride); memcpy(sums, dense, 2 * (size_t)(days + 1) * stride);
    uint64_t *bits = malloc(8 * (size_t)days * wordsPerDay); memcpy(bits, bookable, 8 * (size_t)days * wordsPerDay);
    uint8_t *guestsColumn = malloc(rows + 64); memcpy(guestsColumn, accommodates, rows);
    // Slots: 30 bins, a unit of one currency unit a night (the engine's price slots): slot = ⌊z/u⌋ + ⌈z/u⌉, z = total × 30.
    uint32_t *slots = calloc(1 << 17, 4), *slots2 = calloc(1 << 17, 4);
    uint32_t *slotOf = malloc(4 << 16);
    printf("%ld rows (%ld words), %d days, %d guests\n", rows, words, days, guests);
    static const int lengths[] = {1, 3, 7, 14};
    for (int li = 0; li < 4; li++) {
        int n = lengths[li];
        for (long t = 0; t < 65536; t++) { long z = t * 30, s = z / n + (z + n - 1) / n; slotOf[t] = s < (1 << 17) - 1 ? (uint32_t)s : (1 << 17) - 1; }
        double best = 1e9; Answer answer = {0};
        for (int pass = 0; pass < 5; pass++) {
            int start = 20 + pass * 61;     // other stripes each pass: from memory, not the last level cache
            memset(slots, 0, 4 << 17);
            Answer a = {0}; a.lowest = UINT32_MAX; uint32_t cutoff = UINT32_MAX;
            const __m256i floorGuests = _mm256_set1_epi8((char)(guests - 1));
            double t0 = now();
            for (long w = 0; w < words; w++) {
                const __m256i *g = (const __m256i *)(guestsColumn + w * 64);
                uint64_t c = (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(_mm256_loadu_si256(g), floorGuests))
                           | (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(_mm256_loadu_si256(g + 1), floorGuests)) << 32;
                const uint64_t *cell = bits + (long)start * wordsPerDay + w;
                for (int k = 0; k < n; k++) c &= cell[k * wordsPerDay];
                if (!c) continue;
                uint16_t totals[64] __attribute__((aligned(32)));
                const uint16_t *in = sums + (long)start * stride + w * 64, *out = sums + (long)(start + n) * stride + w * 64;
                for (int q = 0; q < 4; q++)
                    _mm256_store_si256((__m256i *)totals + q, _mm256_sub_epi16(_mm256_loadu_si256((const __m256i *)out + q),
                                                                               _mm256_loadu_si256((const __m256i *)in + q)));
                a.count += (uint64_t)_mm_popcnt_u64(c);
                uint64_t sum = 0; uint32_t lo = a.lowest, hi = a.highest;
                for (; c; c &= c - 1) {
                    uint32_t t = totals[__builtin_ctzll(c)];
                    sum += t;
                    lo = t < lo ? t : lo;
                    hi = t > hi ? t : hi;
                    slots[slotOf[t]] += 1;
                    if (__builtin_expect(t < cutoff, 0)) { offer(&a, t); if (a.pageCount == 20) cutoff = a.page[19]; }
                }
                a.sum += sum; a.lowest = lo; a.highest = hi;
            }
            double t1 = now();
            if (t1 - t0 < best) best = t1 - t0;
            answer = a;
            if (pass == 0) {
                // The plain loop over the same rows: every answer and slot equal.
                Answer b = {0}; b.lowest = UINT32_MAX; uint32_t cut = UINT32_MAX;
                memset(slots2, 0, 4 << 17);
                for (long r = 0; r < rows; r++) {
                    if (guestsColumn[r] < guests) continue;
                    int ok = 1;
                    for (int k = 0; k < n; k++) ok &= (int)(bits[(long)(start + k) * wordsPerDay + r / 64] >> (r % 64) & 1);
                    if (!ok) continue;
                    uint32_t t = (uint16_t)(sums[(long)(start + n) * stride + r] - sums[(long)start * stride + r]);
                    b.count++; b.sum += t; if (t < b.lowest) b.lowest = t; if (t > b.highest) b.highest = t;
                    slots2[slotOf[t]]++;
                    if (t < cut) { offer(&b, t); if (b.pageCount == 20) cut = b.page[19]; }
                }
                if (b.count != a.count || b.sum != a.sum || b.lowest != a.lowest || b.highest != a.highest || memcmp(slots, slots2, 4 << 17)
                    || memcmp(a.page, b.page, sizeof a.page)) { fprintf(stderr, "%d nights: answers differ from the plain loop\n", n); return 1; }
            }
        }
        printf("%2d nights: %.2f ns a row (best of 5), %lu matches (%.0f %% of rows), lowest %u, highest %u\n", n, best * 1e9 / rows,
               (unsigned long)answer.count, 100.0 * answer.count / rows, answer.lowest, answer.highest);
    }
    return 0;
}
