// A word's trip prices (Swift: `FeeTable`, `Scan`): each stay's nights' sum turned into what the guest pays, its
// discount, extra guests and cleaning fee from the row's fee entry (FeeTable's planes), then the service fee. The version compiled
// for POPCNT and BMI2 counts bits in one instruction and walks a word's fee rows by their ranks and slots, each
// gathered by one PEXT; its portable twin counts them in plain C.

#include "dispatch.h"

/// Whether the kernel runs its portable version (``staysearch_trip_use_portable``).
static int trip_portable = 0;

/// A stay's base price (before the service fee) at the row of fee rank `rank`, its nights summing to `sum`:
/// `DISCOUNT` 0 (none), 1 (weekly) or 2 (monthly, else weekly) from `discounts`, the extra guests' fees from
/// `guest_words` when `GUESTS` (the stay has more than one guest), and the cleaning fee. `DISCOUNT` and `GUESTS`
/// are constants where it is inlined, so that each kind of stay has its own loop; the terms come as values, not
/// through a pointer that the values' stores might alias, so that they stay in registers. No branch depends on the
/// row: whether a row's guests pass those included is random, and a branch on it was mispredicted.
static inline __attribute__((always_inline)) int64_t trip_base(int64_t sum, long rank, const uint32_t *cleaning,
                                                               const uint32_t *guest_words, const uint32_t *discounts,
                                                               const int DISCOUNT, const int GUESTS, int64_t guests,
                                                               int64_t nights) {
    // Sums and fees are never negative: rounding in unsigned arithmetic spares the quotient's sign correction.
    uint64_t base = (uint64_t)sum + cleaning[rank];
    if (DISCOUNT != 0) {
        const uint32_t both = discounts[rank];
        const uint64_t weekly = both & 0xFFFF, monthly = both >> 16;
        base -= ((uint64_t)sum * (DISCOUNT == 2 && monthly > 0 ? monthly : weekly) + 5000) / 10000;
    }
    if (GUESTS) {
        const uint32_t word = guest_words[rank];
        int64_t above = guests - (int64_t)(word & 0xFF);
        above = above > 0 ? above : 0;
        base += (uint64_t)above * (word >> 8) * (uint64_t)nights;
    }
    return (int64_t)base;
}

/// The trip prices of the rows with fees among `written`, without a service fee, for one kind of stay (see trip_base):
/// each such row's rank among the fee rows and its slot among `values`, both counted by `COUNT`.
#define TRIP_PRICES_OF_FEES(COUNT, DISCOUNT, GUESTS)                                                                  \
    for (uint64_t rows = written & fee_word; rows != 0; rows &= rows - 1) {                                           \
        const uint64_t below = (rows & (0 - rows)) - 1;                                                               \
        int64_t *value = values + COUNT(written & below);                                                             \
        *value = trip_base(*value, (long)COUNT(fee_word & below), cleaning, guest_words, discounts, DISCOUNT, GUESTS, \
                           guests, nights);                                                                           \
    }

#if defined(__x86_64__)
/// TRIP_PRICES_OF_FEES with BMI2: the written fee rows' ranks (`taken`, one bit a fee row) and their slots among
/// `values` (`slots`, one bit a written row) are both increasing, so each is the lowest bit left of its mask.
#define TRIP_PRICES_OF_FEES_BMI2(COUNT, DISCOUNT, GUESTS)                                                             \
    for (uint64_t taken = _pext_u64(written, fee_word), slots = _pext_u64(fee_word, written); slots != 0;             \
         taken &= taken - 1, slots &= slots - 1) {                                                                    \
        int64_t *value = values + __builtin_ctzll(slots);                                                             \
        *value = trip_base(*value, (long)__builtin_ctzll(taken), cleaning, guest_words, discounts, DISCOUNT, GUESTS,  \
                           guests, nights);                                                                           \
    }
#endif

/// The trip prices of every row of `written` with a service fee of `fee` basis points, for one kind of stay.
#define TRIP_PRICES_WITH_SERVICE(COUNT, DISCOUNT, GUESTS)                                                             \
    {                                                                                                                 \
        uint64_t rows = written;                                                                                      \
        for (long k = 0; rows != 0; k++) {                                                                            \
            const uint64_t lowest = rows & (0 - rows);                                                                \
            rows &= rows - 1;                                                                                         \
            int64_t base = values[k];                                                                                 \
            if (fee_word & lowest) {                                                                                  \
                base = trip_base(base, (long)COUNT(fee_word & (lowest - 1)), cleaning, guest_words, discounts, DISCOUNT, \
                                 GUESTS, guests, nights);                                                             \
            }                                                                                                         \
            values[k] = base + (int64_t)(((uint64_t)base * (uint64_t)fee + 5000) / 10000);                            \
        }                                                                                                             \
    }

/// The body of both versions: `COUNT` counts a word's bits. Without a service fee only the rows with fees
/// change; each kind of stay (discount, more than one guest) has its own loop.
#define TRIP_PRICES(COUNT, OF_FEES)                                                                                   \
    const int64_t nights = terms->nights, guests = terms->guests, fee = terms->service_fee, discount = terms->discount; \
    const uint32_t *cleaning = entries, *guest_words = entries + count, *discounts = entries + 2 * count;             \
    const int several = guests > 1;                                                                                   \
    if (fee == 0) {                                                                                                   \
        if (discount == 0 && !several) {                                                                              \
            OF_FEES(COUNT, 0, 0)                                                                                      \
        } else if (discount == 0) {                                                                                   \
            OF_FEES(COUNT, 0, 1)                                                                                      \
        } else if (discount == 1 && !several) {                                                                       \
            OF_FEES(COUNT, 1, 0)                                                                                      \
        } else if (discount == 1) {                                                                                   \
            OF_FEES(COUNT, 1, 1)                                                                                      \
        } else if (!several) {                                                                                        \
            OF_FEES(COUNT, 2, 0)                                                                                      \
        } else {                                                                                                      \
            OF_FEES(COUNT, 2, 1)                                                                                      \
        }                                                                                                             \
    } else if (discount == 0 && !several) {                                                                           \
        TRIP_PRICES_WITH_SERVICE(COUNT, 0, 0)                                                                         \
    } else if (discount == 0) {                                                                                       \
        TRIP_PRICES_WITH_SERVICE(COUNT, 0, 1)                                                                         \
    } else if (discount == 1) {                                                                                       \
        TRIP_PRICES_WITH_SERVICE(COUNT, 1, 1)                                                                         \
    } else {                                                                                                          \
        TRIP_PRICES_WITH_SERVICE(COUNT, 2, 1)                                                                         \
    }

static void trip_prices_portable(int64_t *values, uint64_t written, uint64_t fee_word, const uint32_t *entries, long count,
                                 const staysearch_trip_terms *terms) {
    TRIP_PRICES(__builtin_popcountll, TRIP_PRICES_OF_FEES)
}


#if defined(__x86_64__)
__attribute__((target("popcnt,bmi,bmi2"))) static void trip_prices_popcnt(int64_t *values, uint64_t written, uint64_t fee_word,
                                                                          const uint32_t *entries, long count,
                                                                          const staysearch_trip_terms *terms) {
    TRIP_PRICES(__builtin_popcountll, TRIP_PRICES_OF_FEES_BMI2)
}
#endif

void staysearch_trip_prices(int64_t *values, uint64_t written, uint64_t fee_word, const uint32_t *entries, long count,
                            const staysearch_trip_terms *terms) {
#if defined(__x86_64__)
    if (!__atomic_load_n(&trip_portable, __ATOMIC_RELAXED) && has_avx2_bmi2()) { trip_prices_popcnt(values, written, fee_word, entries, count, terms); return; }
#endif
    trip_prices_portable(values, written, fee_word, entries, count, terms);
}

/// The body of both versions of staysearch_whole_unit_fees: `COUNT` counts a word's bits, `UNIT` is the unit
/// (a constant where it is whole units, so that dividing by it is a multiplication). Whether a lane takes its
/// fees is worked out without a branch: a third of the rows have a weekly discount, at random, and a branch on it
/// was mispredicted about once a row in three.
#define WHOLE_UNIT_FEES(COUNT, UNIT)                                                                                  \
    const uint32_t weekly_mask = nights >= 7 ? 0xFFFF : 0, monthly_mask = nights >= 28 ? 0xFFFF0000u : 0;             \
    uint64_t whole = 0;                                                                                               \
    for (uint64_t rows = lanes & fee_word; rows != 0; rows &= rows - 1) {                                             \
        const int lane = __builtin_ctzll(rows);                                                                       \
        const long rank = (long)COUNT(fee_word & ((rows & (0 - rows)) - 1));                                          \
        const uint32_t both = entries[2 * count + rank], guest_word = entries[count + rank];                          \
        int64_t above = guests - (int64_t)(guest_word & 0xFF);                                                        \
        above = above > 0 ? above : 0;                                                                                \
        const int64_t fees = (int64_t)entries[rank] + above * (int64_t)(guest_word >> 8) * nights;                    \
        const int64_t units = fees / (UNIT);                                                                          \
        const uint64_t takes = (uint64_t)(((both & (weekly_mask | monthly_mask)) == 0) & (units * (UNIT) == fees)     \
                                          & (units + (int64_t)highs[lane] <= largest));                               \
        added[lane] = (uint16_t)((uint64_t)units & (0 - takes));                                                      \
        whole |= takes << lane;                                                                                       \
    }                                                                                                                 \
    return whole;

static uint64_t whole_unit_fees_portable(uint64_t fee_word, uint64_t lanes, const uint32_t *entries, long count, int64_t nights,
                                         int64_t guests, int64_t unit, const uint16_t *highs, int64_t largest, uint16_t *added) {
    if (unit == 100) { WHOLE_UNIT_FEES(__builtin_popcountll, 100) }
    WHOLE_UNIT_FEES(__builtin_popcountll, unit)
}

#if defined(__x86_64__)
__attribute__((target("popcnt,bmi,bmi2"))) static uint64_t whole_unit_fees_popcnt(uint64_t fee_word, uint64_t lanes, const uint32_t *entries,
                                                                                  long count, int64_t nights, int64_t guests, int64_t unit,
                                                                                  const uint16_t *highs, int64_t largest, uint16_t *added) {
    if (unit == 100) { WHOLE_UNIT_FEES(__builtin_popcountll, 100) }
    WHOLE_UNIT_FEES(__builtin_popcountll, unit)
}
#endif

uint64_t staysearch_whole_unit_fees(uint64_t fee_word, uint64_t lanes, const uint32_t *entries, long count, int64_t nights, int64_t guests,
                                    int64_t unit, const uint16_t *highs, int64_t largest, uint16_t *added) {
#if defined(__x86_64__)
    if (!__atomic_load_n(&trip_portable, __ATOMIC_RELAXED) && has_avx2_bmi2()) {
        return whole_unit_fees_popcnt(fee_word, lanes, entries, count, nights, guests, unit, highs, largest, added);
    }
#endif
    return whole_unit_fees_portable(fee_word, lanes, entries, count, nights, guests, unit, highs, largest, added);
}

void staysearch_trip_use_portable(int portable) { __atomic_store_n(&trip_portable, portable, __ATOMIC_RELAXED); }

