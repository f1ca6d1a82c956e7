// A word's trip prices (Swift: `FeeTable`, `Scan`): each stay's nights' sum turned into what the guest pays, its
// discount, extra guests and cleaning fee from the row's fee entry (FeeTable's planes), then the service fee. The version compiled
// for POPCNT and BMI2 finds a row's entry and value by counting bits in one instruction; its portable twin counts
// them in plain C.

#include "dispatch.h"

/// A stay's base price (before the service fee) at the row whose fee entry is word `rank` of each plane of
/// `planes` (`count` words a plane), its nights summing to `sum`: only the planes the terms need are read.
static inline int64_t trip_base(int64_t sum, const uint32_t *planes, long count, long rank, const staysearch_trip_terms *terms) {
    int64_t base = sum;
    if (terms->discount != 0) {
        uint32_t discounts = planes[2 * count + rank];
        int64_t weekly = discounts & 0xFFFF, monthly = discounts >> 16;
        int64_t discount = terms->discount == 2 && monthly > 0 ? monthly : weekly;
        base -= (sum * discount + 5000) / 10000;
    }
    if (terms->guests > 1) {
        uint32_t guests = planes[count + rank];
        int64_t above = terms->guests - (int64_t)(guests & 0xFF);
        if (above > 0) base += above * (int64_t)(guests >> 8) * terms->nights;
    }
    return base + (int64_t)planes[rank];
}

/// The body of both versions: `COUNT` counts a word's bits.
#define TRIP_PRICES(COUNT)                                                                                            \
    if (terms->service_fee == 0) {                                                                                    \
        /* Only the rows with fees change. */                                                                         \
        uint64_t rows = written & fee_word;                                                                           \
        while (rows != 0) {                                                                                           \
            uint64_t below = (rows & (0 - rows)) - 1;                                                                 \
            rows &= rows - 1;                                                                                         \
            int64_t *value = values + COUNT(written & below);                                                         \
            *value = trip_base(*value, entries, count, (long)COUNT(fee_word & below), terms);                          \
        }                                                                                                             \
    } else {                                                                                                          \
        int64_t fee = terms->service_fee;                                                                             \
        uint64_t rows = written;                                                                                      \
        for (long k = 0; rows != 0; k++) {                                                                            \
            uint64_t lowest = rows & (0 - rows);                                                                      \
            rows &= rows - 1;                                                                                         \
            int64_t base = values[k];                                                                                 \
            if (fee_word & lowest) base = trip_base(base, entries, count, (long)COUNT(fee_word & (lowest - 1)), terms); \
            values[k] = base + (base * fee + 5000) / 10000;                                                           \
        }                                                                                                             \
    }

static void trip_prices_portable(int64_t *values, uint64_t written, uint64_t fee_word, const uint32_t *entries, long count,
                                 const staysearch_trip_terms *terms) {
    TRIP_PRICES(__builtin_popcountll)
}

static int trip_portable = 0;

#if defined(__x86_64__)
__attribute__((target("popcnt,bmi,bmi2"))) static void trip_prices_popcnt(int64_t *values, uint64_t written, uint64_t fee_word,
                                                                          const uint32_t *entries, long count,
                                                                          const staysearch_trip_terms *terms) {
    TRIP_PRICES(__builtin_popcountll)
}
#endif

void staysearch_trip_prices(int64_t *values, uint64_t written, uint64_t fee_word, const uint32_t *entries, long count,
                            const staysearch_trip_terms *terms) {
#if defined(__x86_64__)
    if (!__atomic_load_n(&trip_portable, __ATOMIC_RELAXED) && has_avx2_bmi2()) { trip_prices_popcnt(values, written, fee_word, entries, count, terms); return; }
#endif
    trip_prices_portable(values, written, fee_word, entries, count, terms);
}

void staysearch_trip_use_portable(int portable) { __atomic_store_n(&trip_portable, portable, __ATOMIC_RELAXED); }
