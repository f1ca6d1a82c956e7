// Sustained read bandwidth of this machine, one thread and more: each thread sums its share of a buffer far
// larger than the caches (64-bit words, the compiler's vector loads), best of several passes.
//
//   cc -O3 -march=native -pthread bandwidth.c -o bandwidth && ./bandwidth [MiB] [threads]
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct { const uint64_t *words; size_t count; uint64_t sum; } Part;

static void *sum_part(void *argument) {
    Part *part = argument;
    uint64_t a = 0, b = 0, c = 0, d = 0;
    size_t i = 0;
    for (; i + 4 <= part->count; i += 4) {
        a += part->words[i]; b += part->words[i + 1]; c += part->words[i + 2]; d += part->words[i + 3];
    }
    for (; i < part->count; i++) a += part->words[i];
    part->sum = a + b + c + d;
    return NULL;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 1024;
    int threads = argc > 2 ? atoi(argv[2]) : 1;
    size_t count = mib * 1024 * 1024 / 8;
    uint64_t *words = aligned_alloc(64, count * 8);
    if (!words || threads < 1 || threads > 64) { fprintf(stderr, "bandwidth: bad arguments\n"); return 64; }
    for (size_t i = 0; i < count; i++) words[i] = i * 0x9E3779B97F4A7C15ull;
    double best = 1e30;
    uint64_t check = 0;
    for (int pass = 0; pass < 7; pass++) {
        pthread_t ids[64];
        Part parts[64];
        double start = now();
        for (int t = 0; t < threads; t++) {
            size_t from = count * t / threads, to = count * (t + 1) / threads;
            parts[t] = (Part){ words + from, to - from, 0 };
            pthread_create(&ids[t], NULL, sum_part, &parts[t]);
        }
        for (int t = 0; t < threads; t++) { pthread_join(ids[t], NULL); check += parts[t].sum; }
        double seconds = now() - start;
        if (seconds < best) best = seconds;
    }
    printf("%.2f GB/s read with %d thread%s (%zu MiB, best of 7; checksum %llu)\n", count * 8 / best / 1e9, threads,
           threads == 1 ? "" : "s", mib, (unsigned long long)(check & 0xFFFF));
    free(words);
    return 0;
}
