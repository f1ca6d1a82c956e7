import StaySearchKernels

/// Slots that a large scan counts its values into while they are in cache, fine enough to give the
/// price histogram exactly without reading the values again: the default high end's three ranks and
/// every bin's count.
///
/// A stay of *n* nights has a unit *u* = 100 · *n* minor units (one currency unit a night). The
/// values below ``end`` are cut at the multiples of *u* ÷ `bins`: slot 2*k* holds the value *k* · *u* ÷
/// `bins` exactly (when it is a whole number), slot 2*k* + 1 the values strictly between it and the next
/// cut. One last slot holds every value from ``end`` up. Slots rise with values.
///
/// Why that is enough: a histogram with whole-unit ends lo and hi puts a total *t* in bin ⌊*y* ÷ *h*⌋,
/// *y* = (*t* − lo · *n*) · bins ÷ *u* and *h* = hi − lo in units, except hi · *n* itself, which goes to
/// the last bin. The cuts are the values where *y* is a whole number, so the values between two cuts
/// share their bin, and a cut, alone in its slot, is never mixed with them. The high end is rounded up to
/// whole units, ⌈*t* ÷ *u*⌉, and the multiples of *u* are cuts too. So the histogram is found from the
/// slots alone whenever its ends are whole units below ``end`` and the ranks of the default high end lie
/// below it (``PriceHistogram/make(slots:counts:between:valueCount:sum:bounds:nights:bins:lo:hi:)``).
///
/// Finding a value's slot is two multiplications by ⌈2^64 ÷ *u*⌉ (Granlund and Montgomery) and no
/// branch: ⌊*z* ÷ *u*⌋ + ⌈*z* ÷ *u*⌉ with *z* = *t* · bins.
///
/// **Slots by granule.** Where the index's prices share a coarser unit *g* than a cent — ₩100 in won, a
/// power of ten of minor units (``ListingIndex/calendarScale``) — whole units a night give too few slots: a
/// 7-night stay at ₩80,000 is 56 million minor units, far past ``end``. The slots then cut at the
/// multiples of *g* alone, one slot each (*u* = *g*, whatever the nights): slot *m* holds the total *m* · *g*.
/// A total below ``end`` strictly between two granules (a price off the index's granule: up to 5 % of rows)
/// is counted in one slot apart, ``betweenSlot``, past ``aboveSlot``, and kept aside itself while there is room
/// (``PriceSlotTables``). With every such total at hand, each value is known, and a histogram's bin edges,
/// anywhere among them, take their counts from the running count up to each edge
/// (``PriceHistogram/make(slots:counts:between:valueCount:sum:bounds:nights:bins:lo:hi:)``). One slot a
/// granule, not two (a slot between each pair): a fortnight in dong at ₫1,000 counts into 1.4 MB a part (1M
/// generated listings), which the processor's second-level cache (2 MB here) holds.
package struct PriceSlots {
    /// How many slots there are below ``end`` (the table is half a megabyte whatever the bins).
    static let slotsBelowEnd = 131_072
    /// How many slots by granule there are below ``end`` at least: half a megabyte, totals up to 131,072
    /// granules (₩13.1 million at ₩100).
    static let granuleSlotsBelowEnd = 131_072
    /// How many slots by granule there are below ``end`` at most: four megabytes, totals up to 1,048,576
    /// granules (₩105 million at ₩100: a fortnight at ₩7.5 million a night).
    static let mostGranuleSlotsBelowEnd = 1_048_576
    /// The steps slots by granule grow in past ``granuleSlotsBelowEnd``: 64 KB of counts.
    static let granuleSlotsStep = 16_384
    /// The most bins the slots serve: with more, the units with slots would reach only $1,024 a night.
    static let largestBins = 64
    /// The scales of minor units whose granules the slots take (``PriceSlots/init(nights:bins:granuleScale:)``):
    /// from ten whole units (scale 3) up to the largest for which ``end`` times the granule stays below 2^64.
    static let granuleScales: ClosedRange<Int> = 3...7

    /// What the cuts divide, in minor units: one currency unit a night times the nights, or the granule.
    package let unit: Int64
    /// The histogram's bins.
    let bins: Int
    /// The stay's nights.
    let nights: Int64
    /// Cuts per ``unit``: the bins, or 1 for slots by granule.
    let cutsPerUnit: Int
    /// Whether the slots cut at the multiples of a granule (see the type's notes) rather than of whole units
    /// a night ÷ bins.
    package let byGranule: Bool
    /// ⌈2^64 ÷ unit⌉: ⌊*x* ÷ unit⌋ = ⌊*x* · magic ÷ 2^64⌋ while *x* · unit < 2^64.
    let magic: UInt64
    /// How many units have slots below ``end``.
    package let units: Int
    /// The first value past the slots of their own: ``units`` · unit.
    package let end: Int64

    /// The slots of a stay of `nights` nights for a histogram of `bins` bins, or nil when `bins` is
    /// beyond ``largestBins``.
    package init?(nights: Int64, bins: Int) {
        guard (1...PriceSlots.largestBins).contains(bins), nights >= 1, nights <= 100_000 else { return nil }
        unit = nights * 100
        self.bins = bins
        self.nights = nights
        cutsPerUnit = bins
        byGranule = false
        magic = UInt64.max / UInt64(unit) + 1
        units = PriceSlots.slotsBelowEnd / (2 * bins)
        end = Int64(units) * unit
    }

    /// The slots by granule (see the type's notes) of a stay of `nights` nights for a histogram of `bins`
    /// bins, the granule 10^`granuleScale` minor units; nil when the scale is not among ``granuleScales``.
    /// Their ``nightlyReach`` passes `reach` (minor units a night) where ``mostGranuleSlotsBelowEnd`` allow, and
    /// barely: the slots grow with the nights (in steps of ``granuleSlotsStep`` from ``granuleSlotsBelowEnd``), as the
    /// totals do, so a fortnight in won counts into slots as a weekend does, and no table is larger than its reach
    /// needs (the next power of two would give a fortnight in dong 2 MB a part where 1.4 MB reach).
    package init?(nights: Int64, bins: Int, granuleScale: Int, reach: Int64 = 0) {
        guard (1...PriceSlots.largestBins).contains(bins), nights >= 1, nights <= 100_000,
              PriceSlots.granuleScales.contains(granuleScale) else { return nil }
        unit = NightPrices.unitOfScale[granuleScale]
        self.bins = bins
        self.nights = nights
        cutsPerUnit = 1
        byGranule = true
        magic = UInt64.max / UInt64(unit) + 1
        // (units + 1) · unit² < 2^64 keeps both quotients of ``slot(of:)`` exact.
        let exact = Int(UInt64.max / UInt64(unit) / UInt64(unit)) - 1
        // The fewest slots, in steps of ``granuleSlotsStep``, whose nightly reach passes `reach`: units · unit ≥
        // (⌊reach ÷ 100⌋ + 1) · 100 · nights.
        let step = PriceSlots.granuleSlotsStep
        let most = max(PriceSlots.granuleSlotsBelowEnd, min(PriceSlots.mostGranuleSlotsBelowEnd, exact) / step * step)
        let needed = reach <= 0 ? 0 : reach < Int64.max / 2 / nights ? ((reach / 100 + 1) * 100 * nights + unit - 1) / unit : Int64(most)
        let stepped = (Int(min(needed, Int64(most))) + step - 1) / step * step
        self.units = max(PriceSlots.granuleSlotsBelowEnd, min(stepped, most))
        end = Int64(units) * unit
    }

    /// How far a night's price reaches with slots of its own: the whole units a night below ``end``.
    package var nightlyReach: Int64 { byGranule ? end / nights / 100 * 100 : Int64(units) * 100 }

    /// The slot of every value from ``end`` up: the last of those that rise with values.
    package var aboveSlot: Int { byGranule ? units : 2 * cutsPerUnit * units }

    /// The slot of the values below ``end`` strictly between two granules, past ``aboveSlot``, in slots by
    /// granule; nil in slots by whole units, where each such value has a slot among the others.
    package var betweenSlot: Int? { byGranule ? units + 1 : nil }

    /// How many slots there are.
    package var count: Int { byGranule ? units + 2 : aboveSlot + 1 }

    /// Whether `counts` (every value counted) and `between` (the values kept aside) tell each value's place:
    /// always in slots by whole units; by granule, when `between` holds every value counted in ``betweenSlot``.
    package func tell(_ counts: UnsafePointer<Int32>, between: [Int64]) -> Bool {
        betweenSlot.map { Int(counts[$0]) == between.count } ?? true
    }

    /// Where `value` (not negative) stands among the slots that rise with values: the slot that holds it,
    /// or in slots by granule, for a value between two granules (counted in ``betweenSlot``), the first slot
    /// above it. So by granule, the slots before it hold exactly the multiples of the granule below `value`.
    @inline(__always)
    package func slot(of value: Int64) -> Int {
        // Below `end`, (z + unit) · unit < 2^64 (cuts · units ≤ 131,072 and unit ≤ 10^7, or by granule
        // (units + 1) · unit² < 2^64): both quotients are exact.
        let scaled = UInt64(bitPattern: value) &* UInt64(truncatingIfNeeded: cutsPerUnit)
        let ceiling = (scaled &+ UInt64(bitPattern: unit) &- 1).multipliedFullWidth(by: magic).high
        if byGranule { return value < end ? Int(truncatingIfNeeded: ceiling) : aboveSlot }
        let floor = scaled.multipliedFullWidth(by: magic).high
        return value < end ? Int(truncatingIfNeeded: floor &+ ceiling) : aboveSlot
    }

    /// The slot ``add(_:count:to:)`` counts `value` (not negative) in: ``slot(of:)``, but ``betweenSlot`` for a
    /// value below ``end`` between two granules.
    package func countedSlot(of value: Int64) -> Int {
        if let betweenSlot, value < end, value % unit != 0 { return betweenSlot }
        return slot(of: value)
    }

    /// Adds `values` to `counts` (``count`` slots): ``countedSlot(of:)`` of each, four at a time in AVX2
    /// where the processor has it (`staysearch_add_slots`; callgrind, the 100 queries without a region of
    /// the mix on 1M calibrated listings: 15 → 8.5 instructions a value). By granule, the values counted in
    /// ``betweenSlot`` are also written to `between` from its count before, while they fit.
    @inline(__always)
    package func add(_ values: UnsafePointer<Int64>, count: Int, to counts: UnsafeMutablePointer<Int32>,
                     between: UnsafeMutableBufferPointer<Int64>? = nil) {
        staysearch_add_slots(values, count, counts, cutsPerUnit, unit, magic, end, aboveSlot, betweenSlot ?? -1,
                             between?.baseAddress, between?.count ?? 0)
    }

    /// The smallest and largest value slot `slot` (below ``aboveSlot``) can hold; empty (lower bound
    /// above upper) when it holds none.
    package func values(inSlot slot: Int) -> (lowest: Int64, highest: Int64) {
        // By granule, slot m holds m · g alone (the values between granules are not among these slots).
        if byGranule { return (Int64(slot) * unit, Int64(slot) * unit) }
        let cut = Int64(slot / 2), bins = Int64(cutsPerUnit)
        if slot % 2 == 0 {
            // The cut cut · unit ÷ bins, when a whole number.
            guard (cut * unit) % bins == 0 else { return (1, 0) }
            return (cut * unit / bins, cut * unit / bins)
        }
        // Strictly between two cuts.
        return (cut * unit / bins + 1, ((cut + 1) * unit + bins - 1) / bins - 1)
    }
}
