#ifndef STAYSEARCH_KERNELS_H
#define STAYSEARCH_KERNELS_H

#include <stdint.h>

/// The scan's innermost loops over a block's values and a word's stay rule classes, in C so that they
/// can use AVX2 where the processor has it (Swift code is compiled for baseline x86-64 without unsafe
/// flags); each has a portable version, chosen at run time.

/// Adds the sum of `values[0 ..< count]` to `*sum` and narrows `*smallest` and `*largest` to them.
void staysearch_fold(const int64_t *values, long count, int64_t *sum, int64_t *smallest, int64_t *largest);

/// How many of `values[0 ..< count]` lie in `lowest ... highest`.
long staysearch_count_in_range(const int64_t *values, long count, int64_t lowest, int64_t highest);

/// Copies the values of `values[0 ..< count]` in `lowest ... highest` to `picked`, in order, and returns how
/// many; `picked` needs room for them and ``staysearch_pick_slack`` more (each step stores a whole vector).
long staysearch_pick_in_range(const int64_t *values, long count, int64_t lowest, int64_t highest, int64_t *picked);

/// The slots past the picked values that ``staysearch_pick_in_range`` may write.
#define staysearch_pick_slack 4

/// Makes ``staysearch_pick_in_range`` use its portable version (non-zero) or the fastest the processor has
/// (zero, the default): for tests.
void staysearch_pick_use_portable(int portable);

/// The first position from `start` on, before `count`, whose value lies in `lowest ... highest`; `count`
/// when there is none.
long staysearch_first_in_range(const int64_t *values, long start, long count, int64_t lowest, int64_t highest);

/// Walks the counts `counts[first ... last]` (each at least 0, any 32 of them summing below 2^31) from a running
/// count `*before`: returns the first slot whose count takes it past `rank` (`last + 1` when none does) and
/// leaves in `*before` the running count before that slot. Where a median's rank falls among price slots.
long staysearch_slot_of_rank(const int32_t *counts, long first, long last, int64_t rank, int64_t *before);

/// Makes ``staysearch_slot_of_rank`` use its portable version (non-zero) or the fastest the processor has
/// (zero, the default): for tests.
void staysearch_slot_of_rank_use_portable(int portable);

/// For the 64 rows whose stay rule classes are `classes[0 ..< 64]`, the bits of rows whose class is allowed:
/// bit `class mod 8` of `allowed[class ÷ 8]` (32 bytes, 256 bits); the rows of class 255 (their rules are
/// read run by run) go to `*check`.
uint64_t staysearch_verdict_bits(const uint8_t *classes, const uint8_t *allowed, uint64_t *check);

/// The rows among the 64 bytes from `bytes` whose value is at least `threshold` (1 ... 255), as bits.
uint64_t staysearch_bytes_at_least(const uint8_t *bytes, int threshold);

/// The rows among the 64 bytes from `bytes` whose value is `value` (0 ... 255), as bits.
uint64_t staysearch_bytes_equal(const uint8_t *bytes, int value);

/// Adds each of `values[0 ..< count]` (none negative) to its price slot's count in `counts`: below `end`,
/// slot ⌊z ÷ unit⌋ + ⌈z ÷ unit⌉ with z = value · `bins` — or, when `between` is not negative, slot ⌊z ÷ unit⌋
/// for a value on a cut (z a multiple of unit) and slot `between` for any other, which is also written to
/// `aside[c]`, c the slot's count before it, while c < `asideCapacity` —, else slot `above`. `magic` is
/// ⌈2^64 ÷ unit⌉, and `end` · `bins` · `unit` + `unit`² stays below 2^64 (see PriceSlots).
void staysearch_add_slots(const int64_t *values, long count, int32_t *counts, long bins, int64_t unit, uint64_t magic, int64_t end,
                          long above, long between, int64_t *aside, long asideCapacity);

/// The rows among the 64 values from `values` that lie in `lowest ... highest`, as bits.
uint64_t staysearch_int32_in_range(const int32_t *values, int32_t lowest, int32_t highest);

/// Narrows `lows[k]` and `highs[k]` to the price of one night of `count` adjacent dense rows, for each k < `count`:
/// the difference of their running sums `sums[stride + k]` − `sums[k]` modulo 2^16 (0 for a night without a
/// calendar row).
void staysearch_narrow_bounds(const uint16_t *sums, long stride, long count, int32_t *lows, int32_t *highs);

/// Makes ``staysearch_calendar_word`` use its portable version (`1`) or the fastest the processor allows
/// (`0`, the default): both give the same answers, and tests compare them.
void staysearch_calendar_use_portable(int portable);

/// The most check-ins ``staysearch_calendar_word`` takes at once.
#define STAYSEARCH_CALENDAR_CHECKINS 64

/// The most nights ``staysearch_calendar_batch`` holds for a lane: 62 check-ins and stays of up to 365 nights.
#define STAYSEARCH_CALENDAR_BATCH_SPAN 448

/// Lanes of several words held by ``staysearch_calendar_word`` until eight groups of eight are full, so that a
/// word with a few lanes to total does not cost a whole group's check-in loop: each lane's price over the
/// span (``constant`` when not negative, else its nights in ``matrix``, night-major with a stride of 72)
/// and its check-ins (bit *k* of ``valid[p]``: lane *k* may stay from check-in *p*). Set up by
/// ``staysearch_calendar_batch_reset``; read only by the kernels.
typedef struct {
    int32_t constant[72];
    uint64_t valid[STAYSEARCH_CALENDAR_CHECKINS];
    int32_t count;
    /// The least of the brackets' low ends and the greatest of their high ends, once known.
    int32_t bracketsKnown, lowestBracket, highestBracket;
    int32_t matrix[STAYSEARCH_CALENDAR_BATCH_SPAN * 72];
} staysearch_calendar_batch;

/// Empties `batch`.
void staysearch_calendar_batch_reset(staysearch_calendar_batch *batch);

/// One word of 64 rows (lanes) of a price calendar: each lane's total for each of `checkIns` consecutive
/// check-ins of `nights` nights, in whole units, and what the calendar keeps of them.
///
/// A lane's price on night *n* of the `span` = `checkIns` + `nights` − 1 nights read is `constant[lane]` when
/// that is not negative (a price that does not change over the span), else the difference of dense running
/// sums `dense[(n + 1) × denseStride + lane]` − `dense[n × denseStride + lane]` modulo 2^16 when `dense` is not NULL, else `matrix[n × 64 + lane]`; `lowNight[lane]` and `highNight[lane]` bound its
/// priced nights (-1 when unknown). For check-in *p* the lanes of `valid[p]` whose total
/// lies in `lowest ... highest` are the stays found: their number is added to `counts[p]`, those below
/// `bracketLow[p]` to `below[p]`, and the least of those of at most `cheapest` narrows `least[p]`; those in
/// `bracketLow[p] ... bracketHigh[p]` are given by the bits of `inBracket[p]`, bit *k* for the total at
/// `totals[p × 64 + k]` (*k* is not necessarily the lane: lanes may be packed together) — unless `slots[p]` is
/// not NULL: then each such total *t* adds one to `slots[p][(t − bracketLow[p]) >> slotShift]` instead (a slot
/// counts 2^`slotShift` units: a sample's brackets are wide) and `inBracket[p]` is 0.
/// `checkIns` is at most ``STAYSEARCH_CALENDAR_CHECKINS``; every total stays below 2^31.
///
/// `batch`, NULL or given only when every `slots[p]` is not NULL: the lanes to total may be held in it and
/// their stays added at a later call or by ``staysearch_calendar_flush`` (`inBracket` is not written); every call
/// with the same batch passes the same `span`, `nights`, `checkIns`, range, brackets, `cheapest` and outputs.
void staysearch_calendar_word(const int32_t *constant, const int32_t *lowNight, const int32_t *highNight,
                              const uint16_t *dense, long denseStride, const int32_t *matrix, long span, long nights, long checkIns, const uint64_t *valid, int32_t lowest, int32_t highest,
                              const int32_t *bracketLow, const int32_t *bracketHigh, int32_t cheapest, uint32_t *counts,
                              uint32_t *below, int32_t *least, uint64_t *inBracket, int32_t *totals, uint32_t *const *slots, int slotShift,
                              staysearch_calendar_batch *batch);

/// Adds the stays of the lanes `batch` holds (see ``staysearch_calendar_word``, whose arguments these are)
/// and empties it.
void staysearch_calendar_flush(staysearch_calendar_batch *batch, long span, long nights, long checkIns, int32_t lowest,
                               int32_t highest, const int32_t *bracketLow, const int32_t *bracketHigh, int32_t cheapest,
                               uint32_t *counts, uint32_t *below, int32_t *least, int32_t *totals, uint32_t *const *slots, int slotShift);

/// The most check-ins ``staysearch_calendar_rows`` takes at once.
#define STAYSEARCH_CALENDAR_ROWS_CHECKINS 32

/// The dearest stay ``staysearch_calendar_rows`` totals itself, in whole units: its totals are 16-bit lanes.
#define STAYSEARCH_CALENDAR_ROWS_LARGEST 65534

/// What ``staysearch_calendar_rows`` reads of a calendar pass, the same for every word: the stays' nights, the
/// check-ins (at most ``STAYSEARCH_CALENDAR_ROWS_CHECKINS``), the price range, each check-in's bracket
/// (`0 ≤ bracketLow[p] ≤ bracketHigh[p]`) and the cut for the least, with what is worked out of them.
/// Set up by ``staysearch_calendar_rows_prepare``.
typedef struct {
    long nights, checkIns;
    int32_t lowest, highest, cheapest;
    int32_t lowestBracket, highestBracket;
    int32_t bracketLow[STAYSEARCH_CALENDAR_ROWS_CHECKINS], bracketHigh[STAYSEARCH_CALENDAR_ROWS_CHECKINS];
    /// The units a slot counts: 2^`slotShift` (a total *t* in its bracket counts in `slots[p][(t − bracketLow[p]) >> slotShift]`).
    long slotShift;
    /// The brackets clamped into 16 bits.
    uint16_t lowBounds[STAYSEARCH_CALENDAR_ROWS_CHECKINS], highBounds[STAYSEARCH_CALENDAR_ROWS_CHECKINS];
    /// The word whose rows are still to be totalled (none when `pendingRows` is 0): its rows of one price,
    /// their totals (the word's first row's least stay), where its rows' stays are (the word's first row's
    /// slot), and its rows' check-ins (byte *p* of vector *j*: rows 8*j* ... 8*j* + 7 of check-in *p*).
    uint64_t pendingRows, pendingConstants;
    /// The pending rows some of whose stays may be as cheap as the cut.
    uint64_t pendingCheap;
    const int32_t *pendingSlots;
    const uint16_t *pendingTotals, *pendingAdded;
    uint8_t pendingCheckIns[8 * STAYSEARCH_CALENDAR_ROWS_CHECKINS];
} staysearch_calendar_rows_plan;

/// Sets `plan` up for a pass (see ``staysearch_calendar_rows``) with no word pending.
void staysearch_calendar_rows_prepare(staysearch_calendar_rows_plan *plan, long nights, long checkIns, int32_t lowest,
                                      int32_t highest, const int32_t *bracketLow, const int32_t *bracketHigh, int32_t cheapest,
                                      long slotShift);

/// The stays of each of `slots` rows of running sums (`sums[s × stride ..< s × stride + windows + nights]` for
/// slot *s*, modulo 2^16): `stays[s × stayStride + p]` = `sums[s × stride + p + nights]` − `sums[s × stride +
/// p]` modulo 2^16 for each check-in *p* < `windows` (≤ `stayStride`), 0 after them. A stay of at most 65,535
/// units is its total. `sums` must be readable 32 values past the last slot's sums.
void staysearch_stays_of_sums(const uint16_t *sums, long stride, long nights, long windows, long slots, uint16_t *stays,
                              long stayStride);

/// What ``staysearch_calendar_rows`` reads of a span's rows `from ..< to`, worked out once per span and its
/// stays' nights from the rows' prices over the span (`constant`: a price in whole units when not negative),
/// their least and greatest stay (`stayLow`, `stayHigh`: −1 when unknown) and their running sums' slots
/// (`sumSlots`, −1 for none; see ``staysearch_stay_bounds``). A row is totalled by the kernel when its one
/// price × `nights`, or with a slot and both bounds known its greatest stay, is at most
/// ``STAYSEARCH_CALENDAR_ROWS_LARGEST``: per word of 64 rows (*w* = row ÷ 64) `exact[w]` has those rows' bits and
/// `constants[w]` the rows of one price, and such a row's least and greatest stay are `low16[row]` and
/// `high16[row]` (a row of one price: its total, both); the other rows' are 0. The words holding `from ..< to`
/// are written whole (their rows outside the range taken as not totalled).
void staysearch_calendar_rows_columns(const int32_t *constant, const int32_t *stayLow, const int32_t *stayHigh, const int32_t *sumSlots,
                                      long nights, long from, long to, uint16_t *low16, uint16_t *high16, uint64_t *exact,
                                      uint64_t *constants);

/// Narrows `low16` and `high16` (see ``staysearch_calendar_rows_columns``) of the span's rows `from ..< to` whose
/// stays the kernel reads (in `exact` and not in `constants`, with a slot in `sumSlots`) to the stays a search could
/// find: those of the span's first `windows` check-ins whose `nights` nights are all set in the availability bit
/// sets `bookable` (the span's first night's words, each later night `wordsPerDay` words on) and whose weekday the
/// row's rule class allows (`weekdaysOfClass[classes[row]]`, bit 0 = Monday; the span's first check-in falls on
/// weekday `firstWeekday`, 0 = Monday). Their totals are the row's line of `stays` (`stayStride` values from
/// slot × `stayStride`). A row with no such stay keeps its bounds. Bounds so narrowed hold while no night of the
/// row becomes bookable (then restore the row's bounds over every stay). `windows` is at most
/// ``STAYSEARCH_CALENDAR_ROWS_CHECKINS``; the portable version is used after ``staysearch_calendar_use_portable``.
void staysearch_calendar_rows_bookable_bounds(const uint64_t *bookable, long wordsPerDay, long nights, long windows, long from, long to,
                                              const uint64_t *exact, const uint64_t *constants, const int32_t *sumSlots,
                                              const uint16_t *stays, long stayStride, const uint8_t *classes, const uint8_t *weekdaysOfClass,
                                              long firstWeekday, uint16_t *low16, uint16_t *high16);

/// One word of 64 rows (lanes) of a price calendar whose every check-in counts its bracket by whole unit, each
/// lane's nights read from its own running sums over the span: what ``staysearch_calendar_word`` does with
/// `slots[p]` given for every check-in, but a row's stays are totalled for all of its check-ins at once.
///
/// The lanes of `exact` are totalled here (see ``staysearch_calendar_rows_columns``, whose `low16`, `high16`,
/// `exact` and `constants` for this word are `stayLow`, `stayHigh`, `exact` and `constants`): a lane of
/// `constants` costs `stayLow[lane]` a stay, any other `stays[s × stayStride + p]` from check-in *p* with
/// *s* = `sumSlots[lane]` (the row's stays over the span, see ``staysearch_stays_of_sums``; 32 values readable
/// from each slot's first), and its stays lie within `stayLow[lane]` ... `stayHigh[lane]`: rows whose every
/// stay lies outside every bracket are settled by them without reading their stays. A lane not totalled here
/// (its stays may pass 16 bits) is settled the same way by its 32-bit bounds `stayLow32[lane]` ...
/// `stayHigh32[lane]` (−1 when unknown; ``SpanPrices``' stay bounds; both NULL: none is) when it can be, or dropped when every stay
/// lies outside the price range. The other lanes of `valid` are returned, as bits, untouched, for the caller to total. For check-in *p* the totalled lanes of `valid[p]` whose total lies in the plan's
/// price range are the stays found: their number is added to `counts[p]`, those below `bracketLow[p]` to
/// `below[p]`, each of those in `bracketLow[p] ... bracketHigh[p]` adds one to
/// `slots[p][(total − bracketLow[p]) >> slotShift]` (the plan's; each bracket is at most 65,536 slots wide), and the least of those of at
/// most the cut narrows `least[p]`.
/// `added` (NULL for none) gives each lane's fees in whole units, added to each of its stays read from `stays`
/// (a trip price that is the nights' sum and fixed fees): `stayLow` and `stayHigh` then bound the stays with
/// them (a lane of `constants` costs `stayLow[lane]`, fees and all), and every total stays within
/// ``STAYSEARCH_CALENDAR_ROWS_LARGEST``.
/// `counts`, `below` and `least` hold ``STAYSEARCH_CALENDAR_ROWS_CHECKINS`` values (those past the plan's
/// check-ins are left as they are).
///
/// A word's stays may be totalled by the next call of the pass rather than this one (its rows' stays, scattered
/// over the span, are asked of memory meanwhile): a pass passes the same `stays`, `stayStride`, `counts`,
/// `below`, `least` and `slots` to every call and ends with ``staysearch_calendar_rows_finish``, and a call's
/// `stayLow`, `added` and `sumSlots` must stay as they are until the next call (or the finish) returns: every
/// call, even one with no valid lane, totals the word left pending before it. What a call returns is its own word's.
uint64_t staysearch_calendar_rows(staysearch_calendar_rows_plan *plan, const uint16_t *stayLow, const uint16_t *stayHigh,
                                  const int32_t *stayLow32, const int32_t *stayHigh32,
                                  uint64_t exact, uint64_t constants, const uint16_t *added, const int32_t *sumSlots, const uint16_t *stays, long stayStride,
                                  const uint64_t *valid, uint32_t *counts, uint32_t *below, int32_t *least, uint32_t *const *slots);

/// What ``staysearch_calendar_trip_rows`` compares a calendar pass's trip prices with, in minor units, the same for
/// every word (set up by ``staysearch_calendar_trip_prepare``): the unit the brackets count (10^`scale` minor
/// units, `scale` 2 ... 9), the stay's nights and guests, the service fee in basis points, the price range,
/// the cut for the least, each check-in's bracket (its first unit's first minor unit to its last unit's last)
/// and its first unit, and the brackets' lowest and highest ends.
typedef struct {
    long checkIns, scale, nights, guests;
    int64_t unit, serviceFee;
    int32_t lowest, highest, cut, lowestBracket, highestBracket;
    int32_t bracketLow[STAYSEARCH_CALENDAR_ROWS_CHECKINS], bracketHigh[STAYSEARCH_CALENDAR_ROWS_CHECKINS];
    int32_t firstUnit[STAYSEARCH_CALENDAR_ROWS_CHECKINS];
    /// The units a slot counts: 2^`slotShift`.
    long slotShift;
} staysearch_calendar_trip_plan;

/// Sets `plan` up for a pass of ``staysearch_calendar_trip_rows``: `checkIns` (at most
/// ``STAYSEARCH_CALENDAR_ROWS_CHECKINS``) check-ins of stays of `nights` nights for `guests` guests, brackets and
/// the cut in units of 10^`scale` minor units (`bracketLow[p]` ≥ 0), the price range `lowest ... highest` in minor
/// units, a service fee of `serviceFee` basis points (0 ... 10,000), and slots of 2^`slotShift` units.
void staysearch_calendar_trip_prepare(staysearch_calendar_trip_plan *plan, long checkIns, long scale, long nights, long guests,
                                      int64_t serviceFee, int64_t lowest, int64_t highest, const int32_t *bracketLow,
                                      const int32_t *bracketHigh, int32_t cheapest, long slotShift);

/// The lanes of `lanes` (one word of 64 rows) of a price calendar counted by their trip prices (see the SPEC's
/// formulas and ``staysearch_trip_prices``): a lane's stay for check-in *p* (its bit in `valid[p]`) costs, in
/// the plan's unit, `stayLow[lane]` when the lane is in `constants`, else `stays[s × stayStride + p]` with
/// *s* = `sumSlots[lane]` (32 values readable from each slot's first), and its stays lie within `stayLow[lane]`
/// ... `stayHigh[lane]`; its fees are its entry's (`feeWord`, `entries` and `count` as for
/// ``staysearch_trip_prices``), with the plan's service fee on top. For check-in *p* the trip prices in the
/// price range are counted in `counts[p]`, those below its bracket in `below[p]`; one of a whole number of units
/// inside its bracket adds one to `slots[p][(units − first unit) >> slotShift]`, and one at most the cut narrows `least[p]`
/// (units). A trip price that is not a whole number of units and lies inside its bracket or at most the cut is
/// written to `cents` (up to 64 × ``STAYSEARCH_CALENDAR_ROWS_CHECKINS`` entries, check-in × 2^32 + trip price),
/// their number to `*centsCount`, for the caller to keep. Returns the lanes not counted, whose trip prices could
/// pass 2^31 − 1 minor units (for the caller to total). The portable version is used after
/// ``staysearch_calendar_use_portable``.
uint64_t staysearch_calendar_trip_rows(const staysearch_calendar_trip_plan *plan, uint64_t lanes, const uint64_t *valid,
                                       const uint16_t *stayLow, const uint16_t *stayHigh, uint64_t constants, const int32_t *sumSlots,
                                       const uint16_t *stays, long stayStride, uint64_t feeWord, const uint32_t *entries, long count,
                                       uint32_t *counts, uint32_t *below, int32_t *least, uint32_t *const *slots, uint64_t *cents,
                                       long *centsCount);

/// Totals the word a pass of ``staysearch_calendar_rows`` left pending, with what that pass was given.
void staysearch_calendar_rows_finish(staysearch_calendar_rows_plan *plan, const uint16_t *stays, long stayStride, uint32_t *counts,
                                     uint32_t *below, int32_t *least, uint32_t *const *slots);

/// One word of 64 rows of a price calendar: for each of `checkIns` consecutive check-ins, the rows of
/// `candidates` bookable on every night of its stay of `nights` (≥ 1) nights, into `stays[p]`, and those of
/// them that `allowed` allows, into `valid[p]` — `allowed[tableOfCheckIn[p]]`, or `allowed[0]` for every
/// check-in when `tableOfCheckIn` is NULL. Night *n* of the span (check-in *p*'s stay is nights *p* ..<
/// *p* + `nights`) is bookable for the rows whose bits are set in `cell[n × stride]`; `span` ≥ `checkIns` − 1
/// + `nights` nights are read, each once, into `nightBits` (room for `span` words), where runs of nights are
/// ANDed by doubling and a stay is the AND of the two runs that cover it. Returns the OR of every `stays[p]`.
uint64_t staysearch_calendar_stays(const uint64_t *cell, long stride, long span, long nights, long checkIns,
                                   uint64_t candidates, const uint64_t *allowed, const long *tableOfCheckIn,
                                   uint64_t *nightBits, uint64_t *stays, uint64_t *valid);

/// For each row in `from ..< to` with running sums (`slots[row]` ≥ 0, its row's sums from `slots[row]` ×
/// `stride` in `sums`, readable 16 values past a row's last) and known night bounds whose dearest night keeps
/// every stay of `nights` nights within ``STAYSEARCH_CALENDAR_ROWS_LARGEST`` (`nightHighs[row]` × nights):
/// the least and greatest total of a stay of `nights` nights from each of the first `windows` nights, into
/// `stayLows[row]` and `stayHighs[row]`. Other rows' values are left as they are.
void staysearch_stay_bounds(const uint16_t *sums, long stride, long nights, long windows, const int32_t *slots,
                            const int32_t *nightLows, const int32_t *nightHighs, long from, long to, int32_t *stayLows,
                            int32_t *stayHighs);

/// Rows `0 ..< rows` of `days` day stripes (`stripes[d × stripeStride + r]`) written row after row:
/// `out[r × outStride + d]`. The dense running sums of a span, turned to each row's own (see SpanPrices).
void staysearch_transpose_sums(const uint16_t *stripes, long stripeStride, long days, long rows, uint16_t *out, long outStride);

/// The positions `i` below `count` (ascending, into `positions`) of the matches the recommended order must
/// score: `values[i]` lies in `lowest ... highest`, and its row `rows[i]` is at or past `rowCount` (taken as
/// it is), or `needed` is INT32_MIN, or the row's quality `qualities[row]` is at least `needed` and, when
/// `median` is not 0, (quality − needed) × median ≥ `pricePoints` × value (the quality with the most the
/// price part can add, `pricePoints` × (median − value) ÷ median, reaches `needed` + `pricePoints`), or quality −
/// needed ≥ 2 × `pricePoints` (the price part is never below −`pricePoints`, however dear the value).
/// With a median, 0 < median < 2^31 and every value in the range is below 2^31. Returns how many were
/// written (at most `count`).
long staysearch_quality_candidates(const int64_t *values, const int32_t *rows, long count, const int32_t *qualities,
                                   int32_t rowCount, int64_t lowest, int64_t highest, int32_t needed, int64_t median,
                                   int32_t pricePoints, int32_t *positions);

/// Makes ``staysearch_quality_candidates`` use its portable version (non-zero) or the fastest the processor has
/// (zero, the default): for tests.
void staysearch_candidates_use_portable(int portable);

/// Flexible dates over consecutive check-ins, for a word of 64 adjacent dense rows (`sums`: day-major running sums
/// of whole units modulo 2^16 from the first check-in's day, lane k the word's row k; `stride` sums a day): for each
/// lane of `lanes`, its cheapest stay of `nights` nights, the difference of the sums at its ends (the caller has
/// checked that every such stay costs less than 65,536 units), among the `checkIns` check-ins that `allowed[lane]` allows (bit k:
/// the stay from day k), the earliest of equal totals — `units[lane]` its total in whole units and `checkIn[lane]` its
/// k (`units[lane]` INT32_MAX when none is allowed). Lanes outside `lanes` are not written.
void staysearch_dense_word_cheapest(const uint16_t *sums, long stride, long nights, long checkIns, const uint64_t *allowed,
                                    uint64_t lanes, int32_t *units, int32_t *checkIn);

/// A search's stay of `nights` nights (at least 1) on a word of 64 dense rows of consecutive ranks: `before` and `after`
/// the 64 rows' running sums (in their units, modulo 2^16) at the stay's first day and its end, `minima` and `maxima`
/// their cheapest and dearest nights. Writes to `totals[lane]` the cheapest night times the nights plus the rest of
/// the difference modulo 2^16 — the stay's total whenever the row's spread (dearest less cheapest) times the nights
/// is below 65,536 — and returns the lanes where it is not (their totals are to be found otherwise).
uint64_t staysearch_dense_word_totals(const uint16_t *before, const uint16_t *after, const uint16_t *minima, const uint16_t *maxima,
                                      long nights, int32_t *totals);

/// Makes ``staysearch_dense_word_totals`` use its portable version (non-zero) or the fastest the processor has
/// (zero, the default): for tests.
void staysearch_dense_word_totals_use_portable(int portable);

/// The carried lanes among `lanes` of a word of 64 dense rows (`before`, `after` and `minima` as for
/// ``staysearch_dense_word_totals``): `carried` holds the lanes whose rows keep carries, lane k's carry the one after
/// those of the carried lanes below it, from `carriesBefore` (bits 16–23 of the running sums at the stay's first day)
/// and `carriesAfter` (at its end). Writes to `totals[lane]` of each carried lane of `lanes` the cheapest night times
/// the nights plus the rest of the difference of its 24-bit sums modulo 2^24 — its total while its spread times the
/// nights is below 2^24 — and returns the lanes of `lanes` that are not carried (their totals are to be found otherwise).
uint64_t staysearch_carried_word_totals(const uint16_t *before, const uint16_t *after, const uint8_t *carriesBefore,
                                        const uint8_t *carriesAfter, const uint16_t *minima, long nights, uint64_t carried,
                                        uint64_t lanes, int32_t *totals);

/// Makes ``staysearch_carried_word_totals`` use its portable version (non-zero) or the fastest the processor has
/// (zero, the default): for tests.
void staysearch_carried_word_totals_use_portable(int portable);

/// Makes ``staysearch_dense_word_cheapest`` use its portable version (non-zero) or the fastest the processor has
/// (zero, the default): for tests.
void staysearch_dense_word_cheapest_use_portable(int portable);

/// Asks for `lines` cache lines from each of `count` stripes, the first at `first` and each `stride` bytes after
/// the last, to be brought into cache ahead of use: a day-major table read a word of rows at a time is one
/// stream a day, more streams than the hardware prefetcher follows.
void staysearch_prefetch_stripes(const void *first, long stride, long count, long lines);

/// Reads `bytes` from each of `count` stripes, the first at `first` and each `stride` bytes after the last,
/// one stripe after another: a block of a day-major table brought into cache in runs the hardware prefetcher
/// follows, before it is read a word of rows at a time (a month's 30-odd stripes read together run at a
/// third of the memory's bandwidth).
void staysearch_touch_stripes(const void *first, long stride, long count, long bytes);

/// Keeps the upper tier's matches of a word of 64 rows (see `KeptMatches`): for each row of `candidates` that is
/// also in `tierWord`, in row order, whose value — the candidates' values were written in row order from `written`
/// — lies in `lowest ... highest`: its value, its row (`firstRow` + its bit) and its quality (`tierQualities[k]` for
/// the row that is the k-th of `tierWord`) are stored at `kept` of `values`, `rows` and `qualities`. Returns the
/// new count of kept matches.
long staysearch_keep_tier(uint64_t candidates, uint64_t tierWord, const int64_t *written, int64_t lowest, int64_t highest,
                          const int32_t *tierQualities, int32_t firstRow, int64_t *values, int32_t *rows, int32_t *qualities,
                          long kept);

/// Makes ``staysearch_keep_tier`` and ``staysearch_tier_candidates`` use their portable versions (non-zero) or the
/// fastest the processor has (zero, the default): for tests.
void staysearch_keep_tier_use_portable(int portable);

/// The positions below `count` (ascending) of the upper tier's kept matches whose quality `qualities[i]` with the
/// most their value `values[i]` can add to it reaches the page: (quality − `needed` + 1) · `median` ≥ `pricePoints`
/// · value, or quality − `needed` ≥ 2 · `pricePoints`; written to `positions`, their count returned. Exact when
/// `median` and every value are below 2^31 and `needed` lies within ±2^30 (the caller checks).
long staysearch_tier_candidates(const int32_t *qualities, const int64_t *values, long count, int32_t needed, int64_t median,
                                int32_t pricePoints, int32_t *positions);

/// What turns a stay's nights' sum into its trip price, the same for every row of a query: its nights and
/// guests, the service fee in basis points, and which discount applies (0 none: under 7 nights; 1 the weekly;
/// 2 the monthly where the row has one, else the weekly: 28 nights or more).
typedef struct {
    int64_t nights;
    int64_t guests;
    int64_t service_fee;
    int64_t discount;
} staysearch_trip_terms;

/// Replaces each of a word's stay sums by its trip price: `values` holds one per bit of `written` (the word's rows,
/// in order), `fee_word` marks the word's rows with fees, and `entries` is the fee entry of its first such row in
/// FeeTable's planes of `count` words each (word k of the entry at `entries[k × count]`; NULL when the word has
/// none). Rows without fees take only the service fee.
void staysearch_trip_prices(int64_t *values, uint64_t written, uint64_t fee_word, const uint32_t *entries, long count,
                            const staysearch_trip_terms *terms);

/// For stays of `nights` nights and `guests` guests without a service fee: the lanes of `lanes` among `fee_word`'s
/// (one word of rows, `entries` and `count` as for ``staysearch_trip_prices``) whose trip price is their nights'
/// sum plus fees of a whole number of `unit` minor units (no discount applies to the stay) and whose dearest stay
/// (`highs[lane]`, units) with them stays within `largest` units. Each such lane's fees, in units, go to
/// `added[lane]`, 0 to the other lanes of `lanes` with fees; the rest are left as they are. The portable version is used after
/// ``staysearch_trip_use_portable``.
uint64_t staysearch_whole_unit_fees(uint64_t fee_word, uint64_t lanes, const uint32_t *entries, long count, int64_t nights, int64_t guests,
                                    int64_t unit, const uint16_t *highs, int64_t largest, uint16_t *added);

/// Makes ``staysearch_trip_prices`` use its portable version (non-zero) or the fastest the processor has (zero, the
/// default): for tests.
void staysearch_trip_use_portable(int portable);

#endif
