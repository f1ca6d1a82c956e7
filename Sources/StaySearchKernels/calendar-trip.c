// The price calendar's rows counted by their trip prices (Swift: `ListingIndex+PriceCalendar`): a row's stays for
// up to 32 check-ins turned into what the guest pays (a length-of-stay discount, extra guests, the cleaning fee,
// the service fee) and counted against each check-in's bracket, eight check-ins a vector in 32-bit lanes. The
// AVX2 version divides by 10, 100 and 10,000 by multiplying (the exact magic numbers of 32-bit division); its
// portable twin works each stay out in 64 bits.

#include "dispatch.h"

/// `value` clamped into −1 ... 2^31 − 1.
static inline int32_t clamp_cents(int64_t value) { return (int32_t)(value < -1 ? -1 : value > INT32_MAX ? INT32_MAX : value); }

void staysearch_calendar_trip_prepare(staysearch_calendar_trip_plan *plan, long checkIns, long scale, long nights, long guests,
                                      int64_t serviceFee, int64_t lowest, int64_t highest, const int32_t *bracketLow,
                                      const int32_t *bracketHigh, int32_t cheapest, long slotShift) {
    __builtin_memset(plan, 0, sizeof *plan);
    plan->slotShift = slotShift;
    int64_t unit = 1;
    for (long k = 0; k < scale; k++) unit *= 10;
    plan->checkIns = checkIns;
    plan->scale = scale;
    plan->nights = nights;
    plan->guests = guests;
    plan->unit = unit;
    plan->serviceFee = serviceFee;
    plan->lowest = clamp_cents(lowest < 0 ? 0 : lowest);
    plan->highest = clamp_cents(highest);
    plan->cut = clamp_cents((int64_t)cheapest * unit + unit - 1);
    plan->lowestBracket = INT32_MAX;
    plan->highestBracket = -1;
    for (long p = 0; p < checkIns; p++) {
        plan->bracketLow[p] = clamp_cents((int64_t)bracketLow[p] * unit);
        plan->bracketHigh[p] = clamp_cents((int64_t)bracketHigh[p] * unit + unit - 1);
        plan->firstUnit[p] = bracketLow[p];
        if (plan->bracketLow[p] < plan->lowestBracket) plan->lowestBracket = plan->bracketLow[p];
        if (plan->bracketHigh[p] > plan->highestBracket) plan->highestBracket = plan->bracketHigh[p];
    }
}

/// A lane's trip price terms: its discount in basis points and the fees added (cleaning, extra guests) in minor units.
typedef struct {
    int64_t discount, added;
} calendar_trip_terms;

/// The terms of lane `lane`: its fee entry's (ranked among `feeWord`'s lanes), or none.
static inline calendar_trip_terms calendar_trip_terms_of(const staysearch_calendar_trip_plan *plan, uint64_t feeWord,
                                                         const uint32_t *entries, long count, int lane) {
    calendar_trip_terms terms = {0, 0};
    if (!(feeWord >> lane & 1)) return terms;
    const long rank = __builtin_popcountll(feeWord & (((uint64_t)1 << lane) - 1));
    const uint32_t guestWord = entries[count + rank], discounts = entries[2 * count + rank];
    const int64_t weekly = discounts & 0xFFFF, monthly = discounts >> 16;
    terms.discount = plan->nights >= 28 && monthly > 0 ? monthly : plan->nights >= 7 ? weekly : 0;
    const int64_t above = plan->guests - (int64_t)(guestWord & 0xFF);
    terms.added = (int64_t)entries[rank] + (above > 0 ? above * (int64_t)(guestWord >> 8) * plan->nights : 0);
    return terms;
}

/// The trip price of a stay whose nights sum to `sum` minor units (the SPEC's T; FeeTable's `RowTripTerms`).
static inline int64_t calendar_trip_price(int64_t sum, calendar_trip_terms terms, int64_t serviceFee) {
    int64_t base = sum + terms.added;
    if (terms.discount != 0) base -= (sum * terms.discount + 5000) / 10000;
    return serviceFee == 0 ? base : base + (base * serviceFee + 5000) / 10000;
}

/// Counts trip price `total` of check-in `p`, in the price range: in its bracket's unit slots or the least when a
/// whole number of units, else written to `cents`.
static inline void calendar_trip_keep(const staysearch_calendar_trip_plan *plan, long p, int32_t total, int32_t *least,
                                      uint32_t *const *slots, uint64_t *cents, long *centsCount) {
    const int32_t unit = (int32_t)plan->unit, units = total / unit;
    if (units * unit != total) {
        cents[(*centsCount)++] = (uint64_t)p << 32 | (uint32_t)total;
        return;
    }
    if (total >= plan->bracketLow[p] && total <= plan->bracketHigh[p]) slots[p][(units - plan->firstUnit[p]) >> plan->slotShift] += 1;
    if (total <= plan->cut && units < least[p]) least[p] = units;
}

/// Whether lane `lane`'s trip prices stay below 2^31 − 1 (its greatest stay `high` units), and its least and
/// greatest trip prices.
static inline int calendar_trip_fits(const staysearch_calendar_trip_plan *plan, calendar_trip_terms terms, int64_t low, int64_t high,
                                     int64_t *least, int64_t *greatest) {
    if (high * plan->unit + terms.added >= INT32_MAX) return 0;
    *least = calendar_trip_price(low * plan->unit, terms, plan->serviceFee);
    *greatest = calendar_trip_price(high * plan->unit, terms, plan->serviceFee);
    return *greatest < INT32_MAX;
}

/// How a lane whose least and greatest trip prices are `least` and `greatest` is counted: 0 not at all (every
/// stay outside the price range), 1 below every bracket, 2 above every bracket (each inside the range, above
/// the cut), 3 stay by stay.
static inline int calendar_trip_settling(const staysearch_calendar_trip_plan *plan, int64_t least, int64_t greatest) {
    if (greatest < plan->lowest || least > plan->highest) return 0;
    if (least >= plan->lowest && greatest <= plan->highest && least > plan->cut) {
        if (greatest < plan->lowestBracket) return 1;
        if (least > plan->highestBracket) return 2;
    }
    return 3;
}

static uint64_t calendar_trip_rows_portable(const staysearch_calendar_trip_plan *plan, uint64_t lanes, const uint64_t *valid,
                                            const uint16_t *stayLow, const uint16_t *stayHigh, uint64_t constants,
                                            const int32_t *sumSlots, const uint16_t *stays, long stayStride, uint64_t feeWord,
                                            const uint32_t *entries, long count, uint32_t *counts, uint32_t *below, int32_t *least,
                                            uint32_t *const *slots, uint64_t *cents, long *centsCount) {
    uint64_t unfit = 0;
    *centsCount = 0;
    for (uint64_t rest = lanes; rest; rest &= rest - 1) {
        const int lane = __builtin_ctzll(rest);
        const calendar_trip_terms terms = calendar_trip_terms_of(plan, feeWord, entries, count, lane);
        int64_t leastTrip, greatestTrip;
        if (!calendar_trip_fits(plan, terms, stayLow[lane], stayHigh[lane], &leastTrip, &greatestTrip)) {
            unfit |= (uint64_t)1 << lane;
            continue;
        }
        const int settling = calendar_trip_settling(plan, leastTrip, greatestTrip);
        if (settling == 0) continue;
        const uint16_t *rowStays = (constants >> lane & 1) ? NULL : stays + (long)sumSlots[lane] * stayStride;
        for (long p = 0; p < plan->checkIns; p++) {
            if (!(valid[p] >> lane & 1)) continue;
            if (settling != 3) {
                counts[p] += 1;
                below[p] += settling == 1;
                continue;
            }
            const int64_t total = calendar_trip_price((int64_t)(rowStays ? rowStays[p] : stayLow[lane]) * plan->unit, terms, plan->serviceFee);
            if (total < plan->lowest || total > plan->highest) continue;
            counts[p] += 1;
            below[p] += total < plan->bracketLow[p];
            if ((total >= plan->bracketLow[p] && total <= plan->bracketHigh[p]) || total <= plan->cut) {
                calendar_trip_keep(plan, p, (int32_t)total, least, slots, cents, centsCount);
            }
        }
    }
    return unfit;
}

#if defined(__x86_64__)
/// `x` ÷ a divisor, eight unsigned 32-bit lanes: (`x` × `magic`) >> `shift` in 64 bits, even and odd lanes apart.
STAYSEARCH_AVX2_BMI2 static inline __m256i calendar_trip_divide(__m256i x, __m256i magic, __m128i shift) {
    const __m256i even = _mm256_srl_epi64(_mm256_mul_epu32(x, magic), shift);
    const __m256i odd = _mm256_srl_epi64(_mm256_mul_epu32(_mm256_srli_epi64(x, 32), magic), shift);
    return _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
}

/// Eight stays' trip prices from their sums `units` (in the plan's unit), exact while each stays below 2^31.
STAYSEARCH_AVX2_BMI2 static inline __m256i calendar_trip_prices8(const staysearch_calendar_trip_plan *plan, __m256i units,
                                                                 calendar_trip_terms terms) {
    const __m256i sums = _mm256_mullo_epi32(units, _mm256_set1_epi32((int32_t)plan->unit));
    __m256i base = _mm256_add_epi32(sums, _mm256_set1_epi32((int32_t)terms.added));
    if (terms.discount != 0) {
        // (sum × d + 5,000) ÷ 10,000 with sum = units × 10^scale: (units × d + 50) ÷ 100 at scale 2,
        // (units × d + 5) ÷ 10 at 3, units × d × 10^(scale − 4) from 4 (units × d < 2^30).
        const __m256i x = _mm256_mullo_epi32(units, _mm256_set1_epi32((int32_t)terms.discount));
        __m256i discount;
        if (plan->scale == 2) {
            discount = calendar_trip_divide(_mm256_add_epi32(x, _mm256_set1_epi32(50)), _mm256_set1_epi32((int32_t)0x51EB851F),
                                            _mm_cvtsi32_si128(37));
        } else if (plan->scale == 3) {
            discount = calendar_trip_divide(_mm256_add_epi32(x, _mm256_set1_epi32(5)), _mm256_set1_epi32((int32_t)0xCCCCCCCD),
                                            _mm_cvtsi32_si128(35));
        } else {
            discount = _mm256_mullo_epi32(x, _mm256_set1_epi32((int32_t)(plan->unit / 10000)));
        }
        base = _mm256_sub_epi32(base, discount);
    }
    if (plan->serviceFee == 0) return base;
    // (base × s + 5,000) ÷ 10,000 in 32 bits: base = 10,000 × high + low, so it is high × s + (low × s + 5,000) ÷ 10,000.
    const __m256i tenThousand = _mm256_set1_epi32(10000), magic = _mm256_set1_epi32((int32_t)0xD1B71759), fee = _mm256_set1_epi32((int32_t)plan->serviceFee);
    const __m128i shift = _mm_cvtsi32_si128(45);
    const __m256i high = calendar_trip_divide(base, magic, shift), low = _mm256_sub_epi32(base, _mm256_mullo_epi32(high, tenThousand));
    const __m256i part = calendar_trip_divide(_mm256_add_epi32(_mm256_mullo_epi32(low, fee), _mm256_set1_epi32(5000)), magic, shift);
    return _mm256_add_epi32(base, _mm256_add_epi32(_mm256_mullo_epi32(high, fee), part));
}

STAYSEARCH_AVX2_BMI2 static uint64_t calendar_trip_rows_avx2(const staysearch_calendar_trip_plan *plan, uint64_t lanes, const uint64_t *valid,
                                                             const uint16_t *stayLow, const uint16_t *stayHigh, uint64_t constants,
                                                             const int32_t *sumSlots, const uint16_t *stays, long stayStride, uint64_t feeWord,
                                                             const uint32_t *entries, long count, uint32_t *counts, uint32_t *below,
                                                             int32_t *least, uint32_t *const *slots, uint64_t *cents, long *centsCount) {
    uint64_t words[32] = {0}, unfit = 0;
    *centsCount = 0;
    for (long p = 0; p < plan->checkIns; p++) words[p] = valid[p] & lanes;
    __m256i bytes[8];
    calendar_rows_transpose(words, bytes);
    const __m256i laneBits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    const __m256i lowest = _mm256_set1_epi32(plan->lowest), highest = _mm256_set1_epi32(plan->highest);
    const __m256i cut = _mm256_set1_epi32(plan->cut);
    __m256i found[4], under[4], from[4], to[4];
    for (int i = 0; i < 4; i++) {
        found[i] = under[i] = _mm256_setzero_si256();
        from[i] = _mm256_loadu_si256((const __m256i *)(plan->bracketLow + 8 * i));
        to[i] = _mm256_loadu_si256((const __m256i *)(plan->bracketHigh + 8 * i));
    }
    int32_t totals[8];
    for (uint64_t rest = lanes; rest; rest &= rest - 1) {
        const int lane = __builtin_ctzll(rest);
        const uint32_t checkIns = (uint32_t)_mm256_movemask_epi8(_mm256_sll_epi16(bytes[lane >> 3], _mm_cvtsi32_si128(7 - (lane & 7))));
        if (!checkIns) continue;
        const calendar_trip_terms terms = calendar_trip_terms_of(plan, feeWord, entries, count, lane);
        int64_t leastTrip, greatestTrip;
        if (!calendar_trip_fits(plan, terms, stayLow[lane], stayHigh[lane], &leastTrip, &greatestTrip)) {
            unfit |= (uint64_t)1 << lane;
            continue;
        }
        const int settling = calendar_trip_settling(plan, leastTrip, greatestTrip);
        if (settling == 0) continue;
        if (settling != 3) {
            for (int i = 0; i < 4; i++) {
                const __m256i hits = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int32_t)(checkIns >> (8 * i) & 0xFF)), laneBits), laneBits);
                found[i] = _mm256_sub_epi32(found[i], hits);
                if (settling == 1) under[i] = _mm256_sub_epi32(under[i], hits);
            }
            continue;
        }
        const int constant = (int)(constants >> lane & 1);
        const uint16_t *rowStays = constant ? NULL : stays + (long)sumSlots[lane] * stayStride;
        for (int i = 0; i < 4; i++) {
            // Every vector totalled whatever its check-ins (one with none adds nothing): a branch on them was
            // mispredicted more than it saved.
            const uint32_t bits = checkIns >> (8 * i) & 0xFF;
            const __m256i units = constant ? _mm256_set1_epi32(stayLow[lane])
                                           : _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(rowStays + 8 * i)));
            const __m256i total = calendar_trip_prices8(plan, units, terms);
            __m256i hits = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int32_t)bits), laneBits), laneBits);
            hits = _mm256_andnot_si256(_mm256_or_si256(_mm256_cmpgt_epi32(lowest, total), _mm256_cmpgt_epi32(total, highest)), hits);
            const __m256i low = _mm256_cmpgt_epi32(from[i], total);
            found[i] = _mm256_sub_epi32(found[i], hits);
            under[i] = _mm256_sub_epi32(under[i], _mm256_and_si256(low, hits));
            const __m256i inside = _mm256_andnot_si256(_mm256_or_si256(low, _mm256_cmpgt_epi32(total, to[i])), hits);
            const __m256i cheap = _mm256_andnot_si256(_mm256_cmpgt_epi32(total, cut), hits);
            uint32_t kept = (uint32_t)STAYSEARCH_BITS(_mm256_or_si256(inside, cheap));
            if (!kept) continue;
            _mm256_storeu_si256((__m256i *)totals, total);
            for (; kept; kept &= kept - 1) {
                const int k = __builtin_ctz(kept);
                calendar_trip_keep(plan, 8 * i + k, totals[k], least, slots, cents, centsCount);
            }
        }
    }
    for (int i = 0; i < 4; i++) {
        _mm256_storeu_si256((__m256i *)(counts + 8 * i), _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(counts + 8 * i)), found[i]));
        _mm256_storeu_si256((__m256i *)(below + 8 * i), _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(below + 8 * i)), under[i]));
    }
    return unfit;
}
#endif

uint64_t staysearch_calendar_trip_rows(const staysearch_calendar_trip_plan *plan, uint64_t lanes, const uint64_t *valid,
                                       const uint16_t *stayLow, const uint16_t *stayHigh, uint64_t constants, const int32_t *sumSlots,
                                       const uint16_t *stays, long stayStride, uint64_t feeWord, const uint32_t *entries, long count,
                                       uint32_t *counts, uint32_t *below, int32_t *least, uint32_t *const *slots, uint64_t *cents,
                                       long *centsCount) {
#if defined(__x86_64__)
    if (!__atomic_load_n(&staysearch_calendar_portable, __ATOMIC_RELAXED) && has_avx2_bmi2()) {
        return calendar_trip_rows_avx2(plan, lanes, valid, stayLow, stayHigh, constants, sumSlots, stays, stayStride, feeWord, entries,
                                       count, counts, below, least, slots, cents, centsCount);
    }
#endif
    return calendar_trip_rows_portable(plan, lanes, valid, stayLow, stayHigh, constants, sumSlots, stays, stayStride, feeWord, entries,
                                       count, counts, below, least, slots, cents, centsCount);
}
