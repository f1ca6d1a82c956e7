import Foundation
import StaySearch
import StaySearchTestSupport
import Testing

@Suite struct HistogramTests {
    private func histogram(_ values: [Int64], nights: Int64 = 1, bins: Int, lo: Int64? = nil, hi: Int64? = nil) -> PriceHistogram {
        var values = values
        return PriceHistogram.make(values: &values, sum: Int128(values.reduce(0, +)), nights: nights, bins: bins,
                                   lo: lo.map(Money.init(minorUnits:)), hi: hi.map(Money.init(minorUnits:)))
    }

    @Test func binEdgesAndBounds() {
        // lo 0, hi 100, 4 bins of 25: 25.00 opens bin 1, 100.00 (= hi) goes to the last bin, 100.01 overflows.
        let result = histogram([0, 2_499, 2_500, 5_000, 9_999, 10_000, 10_001, -1], bins: 4, lo: 0, hi: 10_000)
        #expect(result.counts == [2, 1, 1, 2])
        #expect(result.underflow == 1)
        #expect(result.overflow == 1)
        #expect(result.count == 8)
    }

    @Test func binsStayTotalsExactly() {
        // 3 nights, lo 100, hi 200, 2 bins: a nightly 150 (total 450.00) opens bin 1; total 449.99 stays in bin 0.
        let result = histogram([44_999, 45_000, 30_000, 60_000, 60_001], nights: 3, bins: 2, lo: 10_000, hi: 20_000)
        #expect(result.counts == [2, 2])
        #expect(result.overflow == 1)
        #expect(result.averageNightlyPrice == Money(minorUnits: 16_000))   // 240,000 over 5 × 3 nights
    }

    @Test func defaultBoundsCutAtThe95thPercentile() {
        let values = (1...100).map { Int64($0) * 1_000 + 50 }          // 10.50 … 1,000.50
        let result = histogram(values, bins: 10)
        #expect(result.lo == Money(major: 10))
        #expect(result.hi == Money(major: 951))                        // 95th value 950.50 rounded up
        #expect(result.overflow == 5)
        #expect(result.counts.reduce(0, +) == 95)
    }

    @Test func defaultBoundsFenceOffAClusterOfExtremePrices() {
        // 90 homes at $100 … $189 and 10 at $5,000: the 95th percentile is $5,000, but Q1 = $124 and
        // Q3 = $174, so the fence Q3 + 3 × (Q3 − Q1) = $324 is the high end.
        let values = (0..<90).map { Int64(10_000 + $0 * 100) } + Array(repeating: 500_000, count: 10)
        let result = histogram(values.shuffled(), bins: 10)
        #expect(result.lo == Money(major: 100))
        #expect(result.hi == Money(major: 324))
        #expect(result.overflow == 10)
        #expect(result.counts.reduce(0, +) == 90)
        // With dates the fence is taken on nightly prices exactly: 3 nights, totals of nightly 100.10 …,
        // Q1 = 124.10, Q3 = 174.10, fence 324.10 a night, rounded up to 325.
        let totals = values.map { $0 == 500_000 ? $0 * 3 : ($0 + 10) * 3 }
        let stay = histogram(totals, nights: 3, bins: 10)
        #expect(stay.hi == Money(major: 325))
        #expect(stay.overflow == 10)
    }

    @Test func emptyAndFlat() {
        let empty = histogram([], bins: 5)
        #expect(empty.count == 0 && empty.averageNightlyPrice == nil && empty.hi > empty.lo)
        let flat = histogram([5_000, 5_000], bins: 5)
        #expect(flat.lo == Money(major: 50) && flat.hi == Money(major: 51))
        #expect(flat.counts == [2, 0, 0, 0, 0])
    }

    /// The large-input paths (radix selection above 4,096 values, division-free binning) against a sort
    /// and plain division, on random values of several spreads, including many equal values.
    @Test func largeInputsMatchSortingAndDivision() {
        var random = SeededGenerator(seed: 5)
        for round in 0..<12 {
            let count = [5_000, 20_000, 100_000][round % 3]
            let spread: Int64 = [3, 50_000, 2_000_000_000_000][round % 4 == 3 ? 2 : round % 3]
            let base = Int64.random(in: 0...1_000_000, using: &random)
            let values = (0..<count).map { _ in base + Int64.random(in: 0...spread, using: &random) }
            let sorted = values.sorted()
            // Three ranks apart, two sharing a bucket or a value, all three the same.
            for ranks in [(0, count / 2, count - 1), (count / 4, count * 3 / 4, count * 95 / 100), (count / 2, count / 2 + 1, count - 1),
                          (7, 7, 7), (count - 3, count - 2, count - 1)] {
                var copy = values
                let found = copy.withUnsafeMutableBufferPointer { Selection.elements(atRanks: ranks, in: $0) }
                #expect(found == (sorted[ranks.0], sorted[ranks.1], sorted[ranks.2]), "ranks \(ranks)")
            }
            let bins = Int.random(in: 1...1_000, using: &random)
            let low = sorted[count / 10]
            let width = max(1, sorted[count * 9 / 10] - low)
            let binning = ExactBinning(low: low, width: width, bins: bins)
            for value in values where value >= low && value <= low + width {
                #expect(binning.bin(of: value) == Int(min((value - low) * Int64(bins) / width, Int64(bins) - 1)))
            }
        }
    }

    /// The selection's buckets: each offset lies in the offsets of its bucket, and a larger offset never
    /// has a smaller bucket; whole units by multiplication equal division.
    @Test func selectionBucketsAndUnitsAreExact() {
        var random = SeededGenerator(seed: 31)
        var offsets: [UInt64] = [0, 1, 1_023, 1_024, 2_047, 2_048, 2_049, 4_095, 4_096, 1 << 40, (1 << 40) - 1, UInt64(Int64.max), UInt64.max]
        offsets += (0..<2_000).map { _ in UInt64.random(in: 0...(1 << UInt64.random(in: 1...63, using: &random)), using: &random) }
        offsets.sort()
        var previous = -1
        for offset in offsets {
            let bucket = Selection.bucket(ofOffset: offset)
            #expect(Selection.offsets(inBucket: bucket).contains(offset), "offset \(offset)")
            #expect(bucket >= previous)
            previous = bucket
        }
        for _ in 0..<5_000 {
            let unit = Int64.random(in: 2...36_500, using: &random)
            let scale = UnitScale(unit: unit)
            let offset = UInt64.random(in: 0...(UInt64.max / UInt64(unit) - 1), using: &random)
            #expect(scale.units(offset) == offset / UInt64(unit), "offset \(offset), unit \(unit)")
            #expect(scale.offsets(ofUnits: scale.units(offset)...scale.units(offset)).contains(offset))
        }
    }

    /// The default high end decided from the selection's bucket ranges equals the one found from the exact
    /// quartiles and 95th percentile, on spreads where the buckets are narrower and wider than a unit,
    /// with outliers, equal values and units of one to thirty nights.
    @Test func theHighEndDecidedFromBucketsIsTheExactOne() {
        var random = SeededGenerator(seed: 29)
        for round in 0..<60 {
            let count = [4_097, 10_000, 60_000][round % 3]
            let nights = Int64([1, 3, 7, 30][round % 4])
            let spread: Int64 = [40, 30_000, 500_000, 9_000_000][round % 4]
            let values = (0..<count).map { _ -> Int64 in
                let nightly = 1_000 + Int64.random(in: 0...spread, using: &random) * (random.chance(0.02) ? 400 : 1)
                return nightly * nights + Int64.random(in: 0...nights, using: &random)
            }
            let bounds = values.min()!...values.max()!
            let unit = nights * 100
            var exactCopy = values, copy = values
            let exact = exactCopy.withUnsafeMutableBufferPointer { (PriceHistogram.defaultHighCut($0, bounds: bounds) + unit - 1) / unit }
            let found = copy.withUnsafeMutableBufferPointer { PriceHistogram.defaultHighUnits($0, bounds: bounds, unit: unit, threads: 1 + round % 2) }
            #expect(found == exact, "round \(round)")
        }
    }

    /// One more rank found exactly from the counting pass of the default high end equals sorting's, and
    /// leaves the values as they were: few values and many, prices to the cent and whole units (a bucket
    /// of one unit then tells it), units of one to thirty nights, one thread and two.
    @Test func anExtraRankFromTheHighEndsPassIsExact() {
        var random = SeededGenerator(seed: 37)
        for round in 0..<48 {
            let count = [300, 4_097, 30_000, 140_000][round % 4]
            let nights = Int64([1, 3, 7, 30][(round / 4) % 4])
            let whole = round % 3 != 0
            let values = (0..<count).map { _ -> Int64 in
                let nightly = 2_000 + Int64.random(in: 0...[500, 40_000, 3_000_000][round % 3], using: &random) * (random.chance(0.02) ? 300 : 1)
                let total = nightly * nights + (whole ? 0 : Int64.random(in: 0...99, using: &random))
                return whole ? total / 100 * 100 : total
            }
            let sorted = values.sorted()
            let bounds = sorted.first!...sorted.last!
            let unit = nights * 100
            var exactCopy = values
            let highEnd = exactCopy.withUnsafeMutableBufferPointer { (PriceHistogram.defaultHighCut($0, bounds: bounds) + unit - 1) / unit }
            for rank in [0, count / 2, (count - 1) / 2, Int.random(in: 0..<count, using: &random), count - 1] {
                let found = values.withUnsafeBufferPointer {
                    PriceHistogram.defaultHighUnits($0, bounds: bounds, unit: unit, threads: 1 + round % 2, valueAtRank: rank, wholeUnits: whole)
                }
                #expect(found.valueAtRank == sorted[rank], "round \(round), rank \(rank)")
                #expect(found.units == highEnd, "round \(round)")
            }
        }
    }

    /// The table binning at its edges: fewer offsets than bins, one bin, widths that are not multiples
    /// of the bin count, and widths whose products with a bin number pass 2^63.
    @Test func tableBinningAtItsEdges() {
        for (width, bins) in [(Int64(1), 1), (1, 30), (7, 30), (29, 30), (30, 30), (31, 30), (1_000, 1), (1_000, 7), (999_983, 1_000)] {
            let binning = ExactBinning(low: 100, width: width, bins: bins)
            for offset in 0...width {
                #expect(binning.bin(of: 100 + offset) == Int(min(offset * Int64(bins) / width, Int64(bins) - 1)), "width \(width), bins \(bins)")
            }
        }
        let huge = Int64(1) << 60
        let binning = ExactBinning(low: 0, width: huge, bins: 30)
        for offset in [0, huge / 30 - 1, huge / 30, huge / 2, huge - 1, huge] {
            let exact = Int((Int128(offset) * 30 / Int128(huge)))
            #expect(binning.bin(of: offset) == min(exact, 29))
        }
    }

    /// The passes over many values cut over two threads give what one thread gives: the three ranks,
    /// and the whole histogram (default and given bounds).
    @Test func twoThreadsGiveWhatOneGives() {
        var random = SeededGenerator(seed: 11)
        let count = 300_001
        let values = (0..<count).map { _ in Int64.random(in: 0...400_000, using: &random) * (Int64.random(in: 0...20, using: &random) == 0 ? 9 : 1) }
        let sorted = values.sorted()
        for ranks in [(0, count / 2, count - 1), (count / 4, count * 3 / 4, count * 95 / 100), (5, 5, 6)] {
            var copy = values
            let found = copy.withUnsafeMutableBufferPointer { Selection.elements(atRanks: ranks, in: $0, threads: 2) }
            #expect(found == (sorted[ranks.0], sorted[ranks.1], sorted[ranks.2]), "ranks \(ranks)")
        }
        let sum = values.reduce(Int128(0)) { $0 + Int128($1) }
        for (lo, hi) in [(nil, nil), (Money(major: 100), Money(major: 2_000))] as [(Money?, Money?)] {
            var one = values, two = values
            let single = one.withUnsafeMutableBufferPointer {
                PriceHistogram.make(values: $0, sum: sum, bounds: nil, nights: 3, bins: 30, lo: lo, hi: hi, threads: 1)
            }
            let double = two.withUnsafeMutableBufferPointer {
                PriceHistogram.make(values: $0, sum: sum, bounds: nil, nights: 3, bins: 30, lo: lo, hi: hi, threads: 2)
            }
            #expect(single == double)
            #expect(single.counts.reduce(0, +) + single.underflow + single.overflow == count)
        }
    }

    /// Each value's price slot holds it, slots rise with values, and a slot's values share their bin of
    /// any histogram with whole-unit ends and their whole units rounded up, for one to 365 nights and
    /// 1 to 64 bins, at the edges of units and slots.
    @Test func priceSlotsHoldTheirValuesInOrder() throws {
        var random = SeededGenerator(seed: 43)
        for round in 0..<40 {
            let nights = Int64([1, 2, 3, 7, 30, 365][round % 6]), bins = [1, 7, 30, 64][round % 4]
            let slots = try #require(PriceSlots(nights: nights, bins: bins))
            let unit = slots.unit
            var values: [Int64] = [0, 1, unit - 1, unit, unit + 1, slots.end - 1, slots.end, slots.end + 1, Int64.max / 2]
            values += (0..<3_000).map { _ in
                let whole = Int64.random(in: 0..<Int64(slots.units), using: &random)
                return whole * unit + (random.chance(0.3) ? 0 : Int64.random(in: 0..<unit, using: &random))
            }
            values.sort()
            var previous = 0
            for value in values {
                let slot = slots.slot(of: value)
                #expect(slot >= previous, "nights \(nights), bins \(bins), value \(value)")
                previous = slot
                guard slot < slots.aboveSlot else {
                    #expect(value >= slots.end)
                    continue
                }
                let held = slots.values(inSlot: slot)
                #expect(held.lowest <= value && value <= held.highest, "nights \(nights), bins \(bins), value \(value), slot \(slot): \(held)")
                #expect((held.lowest + unit - 1) / unit == (held.highest + unit - 1) / unit)
                if value % unit == 0 { #expect(held.lowest == value && held.highest == value) }     // a whole unit is alone
                // A histogram from a whole unit lo over a whole number of units: every value of the slot in one
                // bin, or all below or all above.
                let lo = Int64.random(in: 0...(held.lowest / unit), using: &random) * unit
                let width = Int64.random(in: 1...2_048, using: &random) * unit
                func bin(_ value: Int64) -> Int64 { value > lo + width ? Int64(bins) : min(Int64(bins) - 1, (value - lo) * Int64(bins) / width) }
                #expect(bin(held.lowest) == bin(held.highest), "nights \(nights), bins \(bins), slot \(slot): \(held), lo \(lo), width \(width)")
            }
        }
    }

    /// The histogram from price slots is the one from the values whenever the slots can tell it, on
    /// random values with heavy tails, outliers past the slots, whole-unit and odd totals, given and
    /// default ends; and the slots tell it for most of them.
    @Test func histogramFromSlotsIsTheHistogramOfTheValues() throws {
        var random = SeededGenerator(seed: 47)
        var told = 0, rounds = 0
        for round in 0..<300 {
            let nights = Int64([1, 2, 4, 7, 14][round % 5]), bins = [1, 10, 30, 64][(round / 5) % 4]
            let slots = try #require(PriceSlots(nights: nights, bins: bins))
            let count = [1, 10, 500, 5_000, 20_000][round % 5 == 0 ? 4 : Int.random(in: 0...4, using: &random)]
            let wholeNights = random.chance(0.5)
            let values = (0..<count).map { _ -> Int64 in
                // Log-normal nightly prices around 100 (two uniform draws, Box–Muller).
                let normal = (-2 * log(Double.random(in: 0.000_001..<1, using: &random))).squareRoot()
                    * cos(2 * Double.pi * Double.random(in: 0..<1, using: &random))
                let nightly = Int64((exp(4.6 + 0.8 * normal) * 100).rounded()) / (wholeNights ? 100 : 1) * (wholeNights ? 100 : 1)
                let outlier: Int64 = random.chance(0.01) ? Int64.random(in: 10...5_000, using: &random) : 1
                return nightly * nights * outlier + (wholeNights ? 0 : Int64.random(in: 0...nights, using: &random))
            }
            let counts = UnsafeMutableBufferPointer<Int32>.allocate(capacity: slots.count)
            defer { counts.deallocate() }
            counts.initialize(repeating: 0)
            values.withUnsafeBufferPointer { slots.add($0.baseAddress!, count: $0.count, to: counts.baseAddress!) }
            let sum = values.reduce(Int128(0)) { $0 + Int128($1) }
            let ends: [(Money?, Money?)] = [(nil, nil), (Money(major: 50), nil), (nil, Money(major: 300)), (Money(major: 20), Money(major: 180)),
                                            (Money(minorUnits: 2_050), Money(major: 400)), (nil, Money(major: 3_000))]
            let (lo, hi) = ends[round % ends.count]
            var copy = values
            let expected = PriceHistogram.make(values: &copy, sum: sum, nights: nights, bins: bins, lo: lo, hi: hi)
            let found = PriceHistogram.make(slots: slots, counts: counts.baseAddress!, valueCount: values.count, sum: sum,
                                             bounds: values.min()!...values.max()!, nights: nights, bins: bins, lo: lo, hi: hi)
            rounds += 1
            if let found {
                told += 1
                #expect(found == expected, "round \(round): nights \(nights), bins \(bins), \(count) values, ends \(String(describing: lo)) \(String(describing: hi))")
            }
        }
        #expect(told > rounds * 3 / 5, "the slots told \(told) of \(rounds)")
    }

    /// Slots by granule: a multiple of the granule's slot holds it, a value between granules stands before
    /// the slot above it and is counted apart and kept, and the histogram from them is the one from the values
    /// whenever they tell it — for totals that are multiples of the granule (₩100, ₩1,000: always told) and
    /// with a few between granules, never without those kept — with given and default ends, one to 14 nights,
    /// 1 to 64 bins.
    /// Slots by granule reach just past the nightly reach asked for: their nightly reach passes it, a step fewer
    /// would not, they grow in steps from the fewest, and never past the most (then they reach as far as they may,
    /// as for a reach past any price).
    @Test func slotsByGranuleReachJustPastTheReachAskedFor() throws {
        var random = SeededGenerator(seed: 4_321)
        for round in 0..<2_000 {
            let nights = Int64(random.pick([1, 2, 3, 7, 14, 30, Int.random(in: 1...365, using: &random)]))
            let scale = Int.random(in: 3...7, using: &random)
            let reach = random.chance(0.1) ? 0 : random.chance(0.05) ? Int64.max / Int64.random(in: 1...1_000, using: &random)
                : Int64.random(in: 1...40_000_000, using: &random) * 100 / Int64(random.pick([1, 10, 100, 1_000]))
            let slots = try #require(PriceSlots(nights: nights, bins: 64, granuleScale: scale, reach: reach))
            let fewer = try #require(PriceSlots(nights: nights, bins: 64, granuleScale: scale, reach: 0))
            #expect(fewer.units == 131_072, "round \(round)")
            let unit = NightPrices.unitOfScale[scale]
            // The most: four megabytes of counts, and (units + 1) · unit² below 2^64 (stepped down).
            let most = min(1_048_576, Int(UInt64.max / UInt64(unit) / UInt64(unit) - 1) / 16_384 * 16_384)
            #expect(slots.units >= 131_072 && slots.units <= most && slots.units % 16_384 == 0, "round \(round): \(slots.units)")
            func nightlyReach(_ units: Int) -> Int64 { Int64(units) * unit / nights / 100 * 100 }
            #expect(slots.nightlyReach == nightlyReach(slots.units), "round \(round)")
            if reach > Int64.max / 1_000_000 { #expect(slots.units == most, "round \(round): reach \(reach)") }
            if slots.units < most {
                #expect(slots.nightlyReach > reach, "round \(round): \(nights) nights, scale \(scale), reach \(reach), \(slots.units) units")
            }
            if slots.units > 131_072 {
                #expect(nightlyReach(slots.units - 16_384) <= reach, "round \(round): \(nights) nights, scale \(scale), reach \(reach)")
            }
        }
    }

    @Test func histogramFromGranuleSlotsIsTheHistogramOfTheValues() throws {
        var random = SeededGenerator(seed: 53)
        var told = 0, wholeRounds = 0, toldWhole = 0
        for round in 0..<240 {
            let nights = Int64([1, 2, 3, 7, 14][round % 5]), bins = [1, 10, 30, 64][(round / 5) % 4]
            let scale = [3, 4, 4, 5][round % 4]
            let slots = try #require(PriceSlots(nights: nights, bins: bins, granuleScale: scale))
            #expect(slots.byGranule && slots.unit == NightPrices.unitOfScale[scale])
            let granule = slots.unit
            let count = [1, 10, 500, 5_000, 20_000][round % 5 == 0 ? 4 : Int.random(in: 0...4, using: &random)]
            let between = [0.002, 0, 0.05][round % 3]
            let values = (0..<count).map { _ -> Int64 in
                // Log-normal nightly prices around ₩80,000 in granules, a few outliers past the slots.
                let normal = (-2 * log(Double.random(in: 0.000_001..<1, using: &random))).squareRoot()
                    * cos(2 * Double.pi * Double.random(in: 0..<1, using: &random))
                let nightly = Int64((exp(11.3 + 0.8 * normal) * 100).rounded()) / granule * granule
                let outlier: Int64 = random.chance(0.005) ? Int64.random(in: 10...200, using: &random) : 1
                return nightly * nights * outlier + (random.chance(between) ? Int64.random(in: 1..<granule, using: &random) : 0)
            }
            for value in values.prefix(200) where value < slots.end {
                let slot = slots.slot(of: value), held = slots.values(inSlot: slot)
                if value % granule == 0 {
                    #expect(held.lowest == value && held.highest == value && slots.countedSlot(of: value) == slot, "value \(value), granule \(granule)")
                } else {
                    #expect(slots.values(inSlot: slot - 1).highest < value && value < held.lowest, "value \(value), granule \(granule): \(held)")
                    #expect(slots.countedSlot(of: value) == slots.betweenSlot)
                }
            }
            let counts = UnsafeMutableBufferPointer<Int32>.allocate(capacity: slots.count)
            defer { counts.deallocate() }
            counts.initialize(repeating: 0)
            let room = UnsafeMutableBufferPointer<Int64>.allocate(capacity: count)
            defer { room.deallocate() }
            values.withUnsafeBufferPointer { slots.add($0.baseAddress!, count: $0.count, to: counts.baseAddress!, between: room) }
            let kept = Array(room.prefix(Int(counts[slots.betweenSlot!]))).sorted()
            let sum = values.reduce(Int128(0)) { $0 + Int128($1) }
            let ends: [(Money?, Money?)] = [(nil, nil), (Money(major: 50_000), nil), (nil, Money(major: 300_000)),
                                            (Money(major: 20_037), Money(major: 180_011)), (nil, nil), (Money(major: 1), Money(major: 2))]
            let (lo, hi) = ends[round % ends.count]
            var copy = values
            let expected = PriceHistogram.make(values: &copy, sum: sum, nights: nights, bins: bins, lo: lo, hi: hi)
            let found = PriceHistogram.make(slots: slots, counts: counts.baseAddress!, between: kept, valueCount: values.count, sum: sum,
                                             bounds: values.min()!...values.max()!, nights: nights, bins: bins, lo: lo, hi: hi)
            if expected.hi.minorUnits * nights < slots.end { wholeRounds += 1 }
            if !kept.isEmpty {
                let untold = PriceHistogram.make(slots: slots, counts: counts.baseAddress!, valueCount: values.count, sum: sum,
                                                 bounds: values.min()!...values.max()!, nights: nights, bins: bins, lo: lo, hi: hi)
                #expect(untold == nil, "round \(round): totals between granules not kept, and the slots told a histogram")
            }
            if let found {
                told += 1
                if expected.hi.minorUnits * nights < slots.end { toldWhole += 1 }
                #expect(found == expected, "round \(round): nights \(nights), bins \(bins), granule \(granule), \(count) values, ends \(String(describing: lo)) \(String(describing: hi))")
            }
        }
        #expect(toldWhole >= wholeRounds * 9 / 10, "slots by granule told \(toldWhole) of \(wholeRounds) with the high end within them")
        #expect(told > 150, "slots by granule told \(told) of 240")
    }
}
