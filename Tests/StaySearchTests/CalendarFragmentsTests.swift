import StaySearch
import StayData
import StaySearchTestSupport
import Testing

/// Sealed calendar fragments give back exactly the runs and night values sealed: days and lines that
/// follow on or jump (back too), stay rules that change or stay, prices that change by a little, by a
/// lot, with cents, at the clamp, or are missing; across chunk boundaries, after appending another store
/// with its lines shifted, and after other chunks are released; kept in memory or spilled to a file.
@Suite struct CalendarFragmentsTests {
    /// One fragment as sealed: its listing, runs and the price and availability of each of their nights.
    private struct Sealed {
        var listing: Int32
        var runs: [NightRun]
        var values: NightValues
    }

    private func randomFragment(_ random: inout SeededGenerator) -> Sealed {
        var values = NightValues()
        var runs: [NightRun] = []
        var day = Int32(Int.random(in: 0...40_000, using: &random))
        var origin = UInt64(Int.random(in: 0...3, using: &random)) << 48 | UInt64(Int.random(in: 0...5_000_000, using: &random))
        var price: Int32 = random.pick([0, 5_000, 120_000, 2_000_000])
        for _ in 0..<Int.random(in: 1...12, using: &random) {
            if random.chance(0.2) { day += Int32(Int.random(in: -30...30, using: &random)) }
            if random.chance(0.2) { origin = origin &+ UInt64(bitPattern: Int64.random(in: -1_000...1_000_000, using: &random)) }
            let count = random.pick([1, 2, 7, 31, 200, 400])
            let rules: [Int32] = [-1, -1, 1, 2, 30, 32_767, 100_000, Int32.max, -5]
            var run = NightRun(origin: origin, listing: 0, day: day, price: -1, minimum: random.pick(rules),
                               maximum: random.pick(rules), isAvailable: random.chance(0.5), hasNightValues: false,
                               count: UInt16(count))
            if random.chance(0.6) {
                run.hasNightValues = true
                run.price = Int32(values.count)
                for _ in 0..<count {
                    switch Int.random(in: 0..<20, using: &random) {
                    case 0: price = -1
                    case 1: price = Int32(Int.random(in: 0...2_000_000, using: &random))              // cents
                    case 2: price = Int32.max
                    case 3: price = 100 * Int32(Int.random(in: 0...20_000, using: &random))          // a jump
                    default: price = Int32(clamping: max(0, Int64(price) / 100 * 100 + 100 * Int64.random(in: -63...63, using: &random)))
                    }
                    values.append(price: price, isAvailable: random.chance(0.7))
                }
            } else {
                run.price = random.pick([-1, 0, 7_000, 12_345, Int32.max])
            }
            runs.append(run)
            day += Int32(count)
            origin += UInt64(count)
        }
        return Sealed(listing: Int32(Int.random(in: 0...1_000_000, using: &random)), runs: runs, values: values)
    }

    private func expectDecoded(_ store: CalendarFragments, fragment: Int, equals sealed: Sealed, lineShift: UInt64 = 0) throws {
        var runs: [NightRun] = [NightRun(origin: 1, listing: 1, day: 1, price: 1, minimum: 1, maximum: 1, isAvailable: true,
                                         hasNightValues: false, count: 1)]        // decoding appends
        var values = NightValues()
        values.append(price: 500, isAvailable: true)
        var buffer: [UInt8] = []
        try store.decode(fragment, into: &runs, values: &values, buffer: &buffer)
        #expect(store.listings[fragment] == sealed.listing)
        #expect(runs.count == sealed.runs.count + 1)
        for (decoded, original) in zip(runs.dropFirst(), sealed.runs) {
            #expect(decoded.listing == sealed.listing)
            #expect(decoded.origin == original.origin &+ lineShift)
            #expect(decoded.day == original.day && decoded.count == original.count)
            #expect(decoded.minimum == original.minimum && decoded.maximum == original.maximum)
            #expect(decoded.hasNightValues == original.hasNightValues)
            if original.hasNightValues {
                for night in 0..<Int(original.count) {
                    #expect(values.price(at: decoded.nightValuesStart + night) == sealed.values.price(at: original.nightValuesStart + night))
                    #expect(values.isAvailable(at: decoded.nightValuesStart + night) == sealed.values.isAvailable(at: original.nightValuesStart + night))
                }
            } else {
                #expect(decoded.price == original.price && decoded.isAvailable == original.isAvailable)
            }
        }
    }

    @Test(arguments: 0..<30, [false, true])
    func giveBackWhatWasSealed(seed: Int, spilled: Bool) throws {
        var random = SeededGenerator(seed: UInt64(seed))
        let chunkSize = random.pick([64, 1_000, 1 << 22])
        let store: SpillFile? = spilled ? try SpillFile(inFolder: Scratch.directory("fragments")) : nil
        var first = CalendarFragments(chunkSize: chunkSize, store: store)
        var second = CalendarFragments(chunkSize: chunkSize, store: store)
        var sealedFirst: [Sealed] = [], sealedSecond: [Sealed] = []
        for _ in 0..<Int.random(in: 1...40, using: &random) {
            let fragment = randomFragment(&random)
            if random.chance(0.5) {
                first.append(listing: fragment.listing, runs: fragment.runs, values: fragment.values)
                sealedFirst.append(fragment)
            } else {
                second.append(listing: fragment.listing, runs: fragment.runs, values: fragment.values)
                sealedSecond.append(fragment)
            }
        }
        for (position, sealed) in sealedSecond.enumerated() { try expectDecoded(second, fragment: position, equals: sealed) }
        let shift = UInt64(Int.random(in: 0...1_000_000, using: &random))
        first.append(second, shiftingLinesBy: shift)
        // Release the chunks of a random half of the fragments; the others still read back.
        var kept: Set<Int> = []
        for fragment in 0..<first.count where random.chance(0.5) { kept.insert(first.chunk(ofFragment: fragment)) }
        for chunk in 0..<first.chunkCount where !kept.contains(chunk) { first.release(chunk) }
        #expect(first.count == sealedFirst.count + sealedSecond.count)
        for (position, sealed) in (sealedFirst + sealedSecond).enumerated() where kept.contains(first.chunk(ofFragment: position)) {
            try expectDecoded(first, fragment: position, equals: sealed, lineShift: position < sealedFirst.count ? 0 : shift)
        }
        #expect(first.spillFailure == nil)
    }
}
