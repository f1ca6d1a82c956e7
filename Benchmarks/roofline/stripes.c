// How fast the day-by-day prices of a saved index read as a month's calendar reads them: `nights` day
// stripes of the dense section (one stripe a day, every dense row's 2-byte code), 64 rows a word, either
// word by word across every stripe (one stream a day read together) or stripe after stripe over blocks of
// words. Each pass starts on another day so that its stripes come from memory, not the last level cache.
//
//   cc -O3 -mavx2 -o stripes Benchmarks/roofline/stripes.c && ./stripes dynamic.ssx [nights ...]
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

static __m256i sum_word(__m256i sum, const uint16_t *codes) {
    const __m256i *q = (const __m256i *)codes;
    return _mm256_add_epi16(sum, _mm256_add_epi16(_mm256_add_epi16(_mm256_loadu_si256(q), _mm256_loadu_si256(q + 1)),
                                                  _mm256_add_epi16(_mm256_loadu_si256(q + 2), _mm256_loadu_si256(q + 3))));
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: stripes INDEX.ssx [nights ...] (an index with day-by-day prices)\n"); return 64; }
    int fd = open(argv[1], O_RDONLY); struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) { perror(argv[1]); return 66; }
    uint8_t *f = mmap(0, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    int days = *(int32_t *)(f + 36); uint32_t sections = *(uint32_t *)(f + 40);
    const uint16_t *dense = 0; uint64_t count = 0;
    for (uint32_t e = 0; e < sections; e++) { uint8_t *b = f + 64 + 32 * e;
        if (*(uint32_t *)b == 33) { dense = (const uint16_t *)(f + *(uint64_t *)(b + 8)); count = *(uint64_t *)(b + 16); } }
    if (!dense || days < 200 || count / days < 64 * 1024) { fprintf(stderr, "%s: too few day-by-day prices (generate --pricing dynamic)\n", argv[1]); return 65; }
    long stride = count / days, words = stride / 64;
    uint16_t *codes = malloc(2 * (size_t)days * stride);   // resident, as a loaded index is
    memcpy(codes, dense, 2 * (size_t)days * stride);
    printf("%ld dense rows, %d days\n", stride, days);
    __m256i sum = _mm256_setzero_si256();
    int lengths[] = {3, 7, 14, 33, 37}, given = argc - 2;
    for (int k = 0; k < (given ? given : 5); k++) {
        int nights = given ? atoi(argv[2 + k]) : lengths[k];
        if (nights < 1 || nights > 100) continue;
        double best[5] = {1e9, 1e9, 1e9, 1e9, 1e9};
        long blocks[] = {0, 16, 64, 256, 1024};
        for (int round = 0; round < 5; round++) {
            for (int way = 0; way < 5; way++) {
                int start = (round * 5 + way) * 7 % (days - nights);
                const uint16_t *first = codes + (long)start * stride;
                double t0 = now();
                if (way == 0) {
                    for (long w = 0; w < words; w++) for (int d = 0; d < nights; d++) sum = sum_word(sum, first + d * stride + w * 64);
                } else {
                    for (long w0 = 0; w0 < words; w0 += blocks[way]) {
                        long w1 = w0 + blocks[way] < words ? w0 + blocks[way] : words;
                        for (int d = 0; d < nights; d++) for (long w = w0; w < w1; w++) sum = sum_word(sum, first + d * stride + w * 64);
                    }
                }
                double t = now() - t0;
                if (t < best[way]) best[way] = t;
            }
        }
        double bytes = 128.0 * nights * words;
        printf("%2d stripes: word by word %.1f GB/s; stripe after stripe in blocks of 16 / 64 / 256 / 1024 words %.1f / %.1f / %.1f / %.1f GB/s\n",
               nights, bytes / best[0] / 1e9, bytes / best[1] / 1e9, bytes / best[2] / 1e9, bytes / best[3] / 1e9, bytes / best[4] / 1e9);
    }
    return _mm256_extract_epi16(sum, 0) == 12345;
}
