// What exact encodings of a saved index's day-by-day prices would cost. Reads the dense rows' prices (the
// differences of their running sums) and prints how far each row's prices spread above its lowest, and the bytes
// a listing of: the running sums as saved (16 bits a day); running sums of each row's prices less its lowest in
// k bits with a carry bit a day where the spread is under 2^k (k ≤ 8; a stay is still two loads and the carries
// between them counted: the least an encoding with a stay's total in constant time could take without
// dropping rows to a slower path); the same against a base per 32 days; and the order-0 entropy of a price's
// change from the day before (what a code read night by night from the row's start could reach, no access by day).
//
//   cc -O2 -o price-bytes Benchmarks/roofline/price-bytes.c -lm && ./price-bytes dynamic.ssx
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: price-bytes INDEX.ssx (an index with day-by-day prices)\n"); return 64; }
    int fd = open(argv[1], O_RDONLY); struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) { perror(argv[1]); return 66; }
    uint8_t *f = mmap(0, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    uint64_t rowCount = *(uint64_t *)(f + 24); int days = *(int32_t *)(f + 36); uint32_t sections = *(uint32_t *)(f + 40);
    const uint16_t *dense = 0; uint64_t denseCount = 0;
    for (uint32_t e = 0; e < sections; e++) {
        uint8_t *b = f + 64 + 32 * e; uint32_t kind = *(uint32_t *)b;
        if (kind == 59) { dense = (const uint16_t *)(f + *(uint64_t *)(b + 8)); denseCount = *(uint64_t *)(b + 16); }
    }
    if (!dense) { fprintf(stderr, "%s: no day-by-day prices (generate --pricing dynamic)\n", argv[1]); return 65; }
    long stride = (long)(denseCount / (days + 1));
    long rows = 0, fits[17] = {0}, fitsBlock = 0; double bitsCarry = 0, bitsBlock = 0;
    static long changeCount[1 << 17], deltaCount[1 << 16]; long changes = 0, deltas = 0, sameAsYesterday = 0;
    int *p = malloc(sizeof(int) * days);
    for (long r = 0; r < stride; r++) {
        int lo = 1 << 30, hi = 0, any = 0;
        for (int d = 0; d < days; d++) { p[d] = (uint16_t)(dense[(long)(d + 1) * stride + r] - dense[(long)d * stride + r]); if (p[d]) any = 1; if (p[d] < lo) lo = p[d]; if (p[d] > hi) hi = p[d]; }
        if (!any) continue;
        rows++;
        int k = 0; while ((1 << k) <= hi - lo) k++;      // bits a delta needs
        fits[k]++;
        bitsCarry += k <= 8 ? (k + 1) * days : 16.0 * days; // k-bit running sums of deltas + a carry bit a day
        int blockOk = 1;                                   // a base per 32 days, a byte against it
        for (int b0 = 0; b0 < days; b0 += 32) { int l = 1 << 30, h = 0; for (int d = b0; d < days && d < b0 + 32; d++) { if (p[d] < l) l = p[d]; if (p[d] > h) h = p[d]; } if (h - l > 255) blockOk = 0; }
        fitsBlock += blockOk; bitsBlock += blockOk ? 9.0 * days + 16.0 * ((days + 31) / 32) : 16.0 * days;
        for (int d = 0; d < days; d++) { deltaCount[p[d] - lo]++; deltas++; if (d) { changeCount[p[d] - p[d - 1] + 65536]++; changes++; if (p[d] == p[d - 1]) sameAsYesterday++; } }
    }
    double hChange = 0, hDelta = 0;
    for (long i = 0; i < (1 << 17); i++) if (changeCount[i]) { double q = (double)changeCount[i] / changes; hChange -= q * log2(q); }
    for (long i = 0; i < (1 << 16); i++) if (deltaCount[i]) { double q = (double)deltaCount[i] / deltas; hDelta -= q * log2(q); }
    printf("%s: %llu listings, %d days, %ld dense rows (%.1f %% of listings)\n", argv[1], (unsigned long long)rowCount, days, rows, 100.0 * rows / rowCount);
    long cum = 0; for (int k = 0; k <= 16; k++) { cum += fits[k]; if (fits[k]) printf("  spread < 2^%-2d: %5.1f %% of dense rows (cumulative %5.1f %%)\n", k, 100.0 * fits[k] / rows, 100.0 * cum / rows); }
    printf("  a price the same as the day before: %.1f %% of days\n", 100.0 * sameAsYesterday / changes);
    printf("  entropy a day: change from the day before %.2f bits, price above the row's lowest %.2f bits\n", hChange, hDelta);
    printf("  now: 16 bits a day, %.0f bytes a listing\n", 2.0 * (days + 1) * rows / rowCount);
    printf("  k-bit running sums of deltas + a carry bit a day (16 bits past 8): %.2f bits a day, %.0f bytes a listing\n", bitsCarry / rows / days, bitsCarry / 8 / rowCount);
    printf("  a base per 32 days, 8-bit sums + carry where every block fits (%.1f %% of rows): %.2f bits a day, %.0f bytes a listing\n", 100.0 * fitsBlock / rows, bitsBlock / rows / days, bitsBlock / 8 / rowCount);
    printf("  order-0 entropy of the day's change (no access by day): %.0f bytes a listing\n", hChange * days * rows / 8 / rowCount);
    return 0;
}
